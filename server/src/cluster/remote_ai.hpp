// RemoteAi: a node's side of the engine workers (`papan worker`, ai_jobs.hpp). A node with
// `--bus` hears the workers' heartbeats; while one is alive, a computer move goes to the
// workers' stream instead of this node's threads. A job no worker takes within the pickup time
// (all busy, or gone), or one taken but not answered within its budget and a grace (the worker
// died and no other claimed it in time), is thought on this node after all; so is a job whose
// answer is not a legal move (logged and counted: refused). Nothing is silent: every job that
// came back is logged and counted (AiOffloadStats, in GET /healthz).
//
// Thread-safety: offer() and stats() may be called from any thread; the rest runs on a strand.
#pragma once

#include "cluster/bus_envelope.hpp"
#include "cluster/redis_bus.hpp"
#include "game/ai_pool.hpp"
#include "support/asio_config.hpp"

#include <papan/server/clock.hpp>

#include <boost/asio/steady_timer.hpp>

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>

namespace papan::server {

struct RemoteAiOptions {
    std::int64_t pickup_ms  = 1000;  // a job not taken by then is thought here
    std::int64_t grace_ms   = 2000;  // beyond the budget, for a taken job
    std::int64_t worker_ttl = 3000;  // a worker not heard from for this long is gone
};

class RemoteAi final : public AiOffload {
public:
    RemoteAi(net::io_context& ioc,
             const Clock& clock,
             const RedisAddress& address,
             std::string node,
             std::string_view secret,
             RemoteAiOptions options = {});
    ~RemoteAi() override;
    RemoteAi(const RemoteAi&)            = delete;
    RemoteAi& operator=(const RemoteAi&) = delete;

    // Connects (throws std::runtime_error when Redis is unreachable).
    void start();
    // Drops the jobs still out (the server is stopping: no one waits for them).
    void stop();

    bool offer(const AiRequest& request,
               const engine::SearchLimits& limits,
               AiDone done,
               std::function<void()> here) override;
    [[nodiscard]] AiOffloadStats stats() const override;

    // One payload as it came from the bus (public for the tests).
    void on_message(const std::string& channel, std::string payload);

private:
    struct Job {
        core::Game game;  // to check the answer
        AiDone done;
        std::function<void()> here;
        std::int64_t budget_ms = 0;
        std::unique_ptr<net::steady_timer> timer;
    };

    void send(const std::string& id, const std::string& stream, std::string sealed);
    void arm(const std::string& id, std::int64_t ms);
    // Takes the job out and thinks it here, saying why.
    void think_here(const std::string& id, const std::string& why);
    void on_heartbeat(const nlohmann::json& m, std::int64_t now);
    void on_taken(const nlohmann::json& m);
    void on_answer(const nlohmann::json& m);
    void count_workers(std::int64_t now);

    RemoteAiOptions options_;
    const Clock& clock_;
    std::string node_;
    std::string reply_channel_;
    BusSealer sealer_;
    Strand strand_;
    net::steady_timer sweep_;
    std::unique_ptr<RedisBus> bus_;

    // On the strand:
    std::unordered_map<std::string, Job> jobs_;
    std::map<std::string, std::int64_t> workers_;  // worker -> last heard (ms)

    std::string boot_;  // tells the jobs of one run of the node from those of the next
    std::atomic<std::uint64_t> next_id_{0};
    std::atomic<bool> stopped_{false};
    std::atomic<int> alive_{0};
    std::atomic<std::uint64_t> sent_{0};
    std::atomic<std::uint64_t> answered_{0};
    std::atomic<std::uint64_t> thought_here_{0};
    std::atomic<std::uint64_t> refused_{0};
};

}  // namespace papan::server
