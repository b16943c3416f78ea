// `papan worker` (papan/server/worker.hpp): threads that each take one computer move job at a
// time from the nodes' streams (ai_jobs.hpp), games with a running clock first, answer it on the
// node's reply channel and only then acknowledge it. A heartbeat thread tells the nodes the
// worker is alive and keeps the jobs in hand from looking idle, so XAUTOCLAIM takes over only
// the jobs of a worker that died.
#include "cluster/ai_jobs.hpp"
#include "cluster/bus_envelope.hpp"
#include "cluster/redis_link.hpp"
#include "support/log.hpp"

#include <papan/core/notation/move_text.hpp>
#include <papan/engine/egdb.hpp>
#include <papan/engine/engine.hpp>
#include <papan/server/tokens.hpp>
#include <papan/server/worker.hpp>

#include <atomic>
#include <chrono>
#include <csignal>
#include <map>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <unistd.h>

namespace papan::server {

using Json = nlohmann::json;

namespace {

constexpr int kBlockMs     = 500;   // a thread's wait for a job, between looks at the stop flag
constexpr int kHeartbeatMs = 1000;  // below RemoteAiOptions::worker_ttl

std::int64_t wall_ms() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
}

struct Entry {
    std::string stream;
    std::string id;
    std::string job;  // the sealed job ("" when the entry has no job field)
};

// The entries of one stream's part of a reply: [[id, [field, value, ...]], ...].
void add_entries(const std::string& stream, const RedisReply& list, std::vector<Entry>& out) {
    for (const auto& e : list.elements) {
        if (e.elements.size() != 2 || e.elements[0].kind != RedisReply::Kind::String) {
            continue;
        }
        Entry entry{stream, e.elements[0].str, {}};
        const auto& fields = e.elements[1].elements;
        for (std::size_t i = 0; i + 1 < fields.size(); i += 2) {
            if (fields[i].str == "job") {
                entry.job = fields[i + 1].str;
            }
        }
        out.push_back(std::move(entry));
    }
}

class Worker {
public:
    Worker(const WorkerOptions& options, RedisAddress address, std::string_view secret)
        : options_(options)
        , address_(std::move(address))
        , sealer_(secret) {
        name_ = options.name;
        if (name_.empty()) {
            char host[256] = {};
            ::gethostname(host, sizeof host - 1);
            name_ = std::string(host) + "-" + std::to_string(::getpid());
        }
        seed_ = std::stoull(random_hex(8), nullptr, 16);
    }

    void run(int threads) {
        RedisLink probe(address_);
        if (!probe.command({"PING"})) {
            throw std::runtime_error("cannot reach Redis at " + address_.host + ":" +
                                     std::to_string(address_.port) + ": " + probe.last_error());
        }
        ensure_groups(probe);
        if (!options_.egdb_dir.empty()) {
            engine::egdb::OpenReport report;
            (void)engine::egdb::shared_database(options_.egdb_dir, &report);
            log_line("worker", report.summary);
        }
        threads_ = threads;
        log_line("worker",
                 name_ + ": " + std::to_string(threads) + " threads on " + address_.host + ":" +
                     std::to_string(address_.port));
        std::vector<std::thread> pool;
        for (int i = 0; i < threads; ++i) {
            pool.emplace_back([this, i] { take_jobs(i); });
        }
        std::thread beat([this] { heartbeat(); });
        wait_for_signal();
        stop_ = true;
        {
            const std::lock_guard lock(mu_);
            for (auto* e : engines_) {
                e->stop();
            }
        }
        for (auto& t : pool) {
            t.join();
        }
        beat.join();
        log_line("worker",
                 name_ + " stopped: " + std::to_string(answered_.load()) + " jobs answered, " +
                     std::to_string(refused_.load()) + " refused, " +
                     std::to_string(skipped_.load()) + " left to their nodes");
    }

private:
    static void wait_for_signal() {
        sigset_t set;
        sigemptyset(&set);
        sigaddset(&set, SIGINT);
        sigaddset(&set, SIGTERM);
        int sig = 0;
        sigwait(&set, &sig);
        log_line("worker", "signal " + std::to_string(sig) + ": stopping");
    }

    void ensure_groups(RedisLink& link) {
        for (const auto stream : {kAiStreamClocked, kAiStreamUntimed}) {
            const auto r = link.command(
                {"XGROUP", "CREATE", std::string(stream), std::string(kAiGroup), "0", "MKSTREAM"});
            if (r && r->kind == RedisReply::Kind::Error && r->str.rfind("BUSYGROUP", 0) != 0) {
                log_line("worker", "XGROUP CREATE " + std::string(stream) + ": " + r->str);
            }
        }
    }

    void take_jobs(int index) {
        const std::string consumer = name_ + "-" + std::to_string(index);
        engine::EngineOptions o;
        o.hash_mb  = static_cast<std::size_t>(std::max(1, options_.hash_mb));
        o.seed     = seed_ + static_cast<std::uint64_t>(index);
        o.egdb_dir = options_.egdb_dir;
        engine::Engine eng(o);
        {
            const std::lock_guard lock(mu_);
            engines_.push_back(&eng);
        }
        RedisLink link(address_, kBlockMs + 5000);
        const std::string clocked(kAiStreamClocked);
        const std::string untimed(kAiStreamUntimed);
        const std::string group(kAiGroup);
        const auto claim_every =
            std::chrono::milliseconds(std::max<std::int64_t>(100, options_.claim_idle_ms / 2));
        auto last_claim = std::chrono::steady_clock::now() - claim_every;
        bool warned     = false;
        while (!stop_) {
            std::vector<Entry> work;
            bool retried = false;
            bool ok      = true;
            // The jobs of a worker that died, first: their nodes wait already.
            if (std::chrono::steady_clock::now() - last_claim >= claim_every) {
                last_claim = std::chrono::steady_clock::now();
                for (const auto& stream : {clocked, untimed}) {
                    const auto r = link.command({"XAUTOCLAIM",
                                                 stream,
                                                 group,
                                                 consumer,
                                                 std::to_string(options_.claim_idle_ms),
                                                 "0-0",
                                                 "COUNT",
                                                 "1"});
                    ok           = ok && r.has_value();
                    if (r && r->kind == RedisReply::Kind::Array && r->elements.size() >= 2) {
                        add_entries(stream, r->elements[1], work);
                    }
                    if (!work.empty()) {
                        retried = true;
                        break;
                    }
                }
            }
            // Then a new job: one of a running clock if there is one, else whichever comes.
            for (const bool block : {false, true}) {
                if (!work.empty() || !ok) {
                    break;
                }
                std::vector<std::string> args{"XREADGROUP", "GROUP", group, consumer, "COUNT", "1"};
                if (block) {
                    args.insert(
                        args.end(),
                        {"BLOCK", std::to_string(kBlockMs), "STREAMS", clocked, untimed, ">", ">"});
                } else {
                    args.insert(args.end(), {"STREAMS", clocked, ">"});
                }
                const auto r = link.command(args);
                ok           = r.has_value();
                if (r && r->kind == RedisReply::Kind::Error) {
                    ensure_groups(link);  // Redis restarted empty: the streams are gone
                } else if (r && r->kind == RedisReply::Kind::Array) {
                    for (const auto& s : r->elements) {
                        if (s.elements.size() == 2) {
                            add_entries(s.elements[0].str, s.elements[1], work);
                        }
                    }
                }
            }
            if (!ok) {
                if (!warned) {
                    log_line("worker", "Redis unreachable (" + link.last_error() + "); retrying");
                    warned = true;
                }
                std::this_thread::sleep_for(std::chrono::milliseconds(kBlockMs));
                continue;
            }
            if (warned) {
                log_line("worker", "Redis is back");
                warned = false;
            }
            for (const auto& e : work) {
                answer(link, eng, consumer, e, retried);
            }
        }
        const std::lock_guard lock(mu_);
        std::erase(engines_, &eng);
    }

    void acknowledge(RedisLink& link, const Entry& e) {
        (void)link.command({"XACK", e.stream, std::string(kAiGroup), e.id});
        (void)link.command({"XDEL", e.stream, e.id});
    }

    void publish(RedisLink& link, const std::string& channel, Json message) {
        message["from"] = name_;
        message["at"]   = wall_ms();
        (void)link.command({"PUBLISH", channel, sealer_.seal(message)});
    }

    void answer(RedisLink& link,
                engine::Engine& eng,
                const std::string& consumer,
                const Entry& e,
                bool retried) {
        auto opened = sealer_.open(e.job, wall_ms());
        if (const auto* refused = std::get_if<BusSealer::Refused>(&opened)) {
            ++refused_;
            log_line("worker",
                     "refused entry " + e.id + " of " + e.stream + ": " + refused->reason);
            acknowledge(link, e);
            return;
        }
        const Json& m = std::get<Json>(opened);
        auto decoded  = ai_job_from_json(m);
        if (m.value("kind", "") != "ai_job" || std::holds_alternative<std::string>(decoded)) {
            ++refused_;
            log_line("worker",
                     "refused entry " + e.id + " of " + e.stream + ": not a job (" +
                         (std::holds_alternative<std::string>(decoded)
                              ? std::get<std::string>(decoded)
                              : std::string("kind")) +
                         ")");
            acknowledge(link, e);
            return;
        }
        AiJob& job = std::get<AiJob>(decoded);
        if (!retried && wall_ms() > job.take_by_ms) {
            ++skipped_;  // its node is thinking it itself by now
            acknowledge(link, e);
            return;
        }
        const std::string channel = ai_reply_channel(job.node);
        publish(link, channel, Json{{"kind", "ai_taken"}, {"id", job.id}});
        {
            const std::lock_guard lock(mu_);
            in_hand_[consumer] = e;
        }
        const auto started = std::chrono::steady_clock::now();
        Json move          = nullptr;
        Json stats         = Json::object();
        if (!job.game.is_over()) {
            ++busy_;
            try {
                const auto r = eng.search(job.game, job.limits, job.level);
                if (r.best) {
                    move = core::move_text_full(job.game.position(), *r.best);
                }
                stats = {{"depth", r.depth}, {"nodes", r.nodes}};
            } catch (const std::exception& ex) {
                log_line("worker", "job " + job.id + ": search failed: " + ex.what());
            }
            --busy_;
        }
        {
            const std::lock_guard lock(mu_);
            in_hand_.erase(consumer);
        }
        if (stop_ && move.is_null()) {
            return;  // stopped mid-search: left in the stream for another worker
        }
        const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                            std::chrono::steady_clock::now() - started)
                            .count();
        publish(
            link,
            channel,
            Json{
                {"kind", "ai_move"}, {"id", job.id}, {"move", move}, {"ms", ms}, {"stats", stats}});
        acknowledge(link, e);
        const auto n = ++answered_;
        log_line("worker",
                 "answered job " + job.id + (retried ? " (taken over)" : "") + " in " +
                     std::to_string(ms) + " ms (" + std::to_string(n) + " since start)");
    }

    // Tells the nodes this worker is alive, and keeps the jobs in hand from looking idle.
    void heartbeat() {
        RedisLink link(address_);
        const std::string group(kAiGroup);
        while (!stop_) {
            publish(link,
                    std::string(kAiWorkersChannel),
                    Json{{"kind", "ai_worker"}, {"threads", threads_}, {"busy", busy_.load()}});
            std::map<std::string, Entry> in_hand;
            {
                const std::lock_guard lock(mu_);
                in_hand = in_hand_;
            }
            for (const auto& [consumer, e] : in_hand) {
                (void)link.command({"XCLAIM", e.stream, group, consumer, "0", e.id, "JUSTID"});
            }
            for (int i = 0; i < kHeartbeatMs / 100 && !stop_; ++i) {
                std::this_thread::sleep_for(std::chrono::milliseconds(100));
            }
        }
    }

    WorkerOptions options_;
    RedisAddress address_;
    BusSealer sealer_;
    std::string name_;
    std::uint64_t seed_ = 0;
    int threads_        = 1;
    std::atomic<bool> stop_{false};
    std::atomic<int> busy_{0};
    std::atomic<std::uint64_t> answered_{0};
    std::atomic<std::uint64_t> refused_{0};
    std::atomic<std::uint64_t> skipped_{0};
    std::mutex mu_;
    std::vector<engine::Engine*> engines_;
    std::map<std::string, Entry> in_hand_;  // by consumer
};

}  // namespace

int run_worker(const WorkerOptions& options) {
    RedisAddress address;
    if (auto err = parse_redis_url(options.bus, address)) {
        throw std::runtime_error(*err);
    }
    const std::string secret = cluster_secret(options.cluster_secret, "a worker");
    // Every thread started below inherits the mask; the signals wait for run() in sigwait.
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &set, nullptr);
    const int threads = options.threads > 0
                            ? options.threads
                            : static_cast<int>(std::max(1U, std::thread::hardware_concurrency()));
    Worker worker(options, address, secret);
    worker.run(std::min(threads, 256));
    return 0;
}

}  // namespace papan::server
