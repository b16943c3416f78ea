// Engine workers: real `papan worker` processes and a real `papan serve`
// node on a private redis-server. The node's computer moves come from a worker; a worker killed
// with a job in hand has it taken over by another; a job or an answer that is not sealed with
// the cluster secret, or whose move is not legal, is refused; a node whose workers do not answer
// thinks itself. The node's counts are read from GET /healthz ("ai"."workers").
#include "cluster/ai_jobs.hpp"
#include "cluster/bus_envelope.hpp"
#include "cluster/redis_bus.hpp"
#include "harness.hpp"
#include "redis_process.hpp"

#include <papan/core/notation/move_text.hpp>
#include <papan/server/tokens.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <csignal>
#include <fcntl.h>
#include <mutex>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace papan::test {
namespace {

using namespace std::chrono_literals;

std::size_t count_of(const std::string& text, const std::string& what) {
    std::size_t n = 0;
    for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) {
        ++n;
    }
    return n;
}

// One `papan worker`, its output in a log file; SIGKILLed at destruction if still running.
class WorkerProcess {
public:
    WorkerProcess(const std::string& bus,
                  const std::string& name,
                  const std::filesystem::path& log,
                  std::vector<std::string> extra = {})
        : log_(log) {
        std::vector<std::string> args{PAPAN_BINARY,
                                      "worker",
                                      "--bus",
                                      bus,
                                      "--name",
                                      name,
                                      "--threads",
                                      "1",
                                      "--cluster-secret",
                                      kTestClusterSecret,
                                      "--egdb",
                                      (log.parent_path() / "no-egdb").string()};
        args.insert(args.end(), extra.begin(), extra.end());
        pid_ = ::fork();
        if (pid_ == 0) {
            const int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
            ::dup2(fd, 1);
            ::dup2(fd, 2);
            ::close(fd);
            exec_args(std::move(args));
        }
        wait_log(name + ": 1 threads on");
    }

    ~WorkerProcess() { kill(SIGKILL); }

    WorkerProcess(const WorkerProcess&)            = delete;
    WorkerProcess& operator=(const WorkerProcess&) = delete;

    // Sends `sig` and reaps the process; its exit status.
    int kill(int sig) {
        if (pid_ <= 0) {
            return -1;
        }
        ::kill(pid_, sig);
        int st = 0;
        ::waitpid(pid_, &st, 0);
        pid_ = -1;
        return st;
    }

    [[nodiscard]] std::string log() const { return read_file(log_); }

    void wait_log(const std::string& what, std::size_t times = 1) const {
        const auto deadline = std::chrono::steady_clock::now() + 30s;
        while (count_of(log(), what) < times) {
            ASSERT_LT(std::chrono::steady_clock::now(), deadline)
                << "the worker did not log '" << what << "': " << log();
            std::this_thread::sleep_for(50ms);
        }
    }

private:
    std::filesystem::path log_;
    int pid_ = -1;
};

// What a test hears on some channels of the bus, opened with the cluster secret.
class Listener {
public:
    Listener(const std::string& url, std::vector<std::string> channels)
        : sealer_(kTestClusterSecret) {
        server::RedisAddress a;
        EXPECT_FALSE(server::parse_redis_url(url, a));
        bus_ = std::make_unique<server::RedisBus>(
            a,
            std::move(channels),
            [this](const std::string&, std::string payload) {
                auto opened = sealer_.open(payload, epoch_ms());
                if (const auto* j = std::get_if<Json>(&opened)) {
                    const std::lock_guard lock(mu_);
                    heard_.push_back(*j);
                }
            },
            [] {});
        bus_->start();
        std::this_thread::sleep_for(200ms);  // the SUBSCRIBE is in place
    }

    // The first message heard satisfying pred, waiting up to `timeout`; null if none.
    Json wait(const std::function<bool(const Json&)>& pred, std::chrono::milliseconds timeout) {
        const auto deadline = std::chrono::steady_clock::now() + timeout;
        do {
            {
                const std::lock_guard lock(mu_);
                for (const auto& j : heard_) {
                    if (pred(j)) {
                        return j;
                    }
                }
            }
            std::this_thread::sleep_for(50ms);
        } while (std::chrono::steady_clock::now() < deadline);
        return nullptr;
    }

    std::size_t count(const std::function<bool(const Json&)>& pred) {
        const std::lock_guard lock(mu_);
        return static_cast<std::size_t>(std::count_if(heard_.begin(), heard_.end(), pred));
    }

private:
    server::BusSealer sealer_;
    std::unique_ptr<server::RedisBus> bus_;
    std::mutex mu_;
    std::vector<Json> heard_;
};

class WorkerTest : public ::testing::Test {
protected:
    void SetUp() override {
        server::init_crypto();
        redis = std::make_unique<RedisProcess>();
        server::RedisAddress a;
        ASSERT_FALSE(server::parse_redis_url(redis->url(), a));
        link = std::make_unique<server::RedisLink>(a);
    }

    std::unique_ptr<ServerProcess> node(std::vector<std::string> extra = {}) {
        std::vector<std::string> args{"--bus",
                                      redis->url(),
                                      "--node-id",
                                      "n1",
                                      "--cluster-secret",
                                      kTestClusterSecret,
                                      "--ai-threads",
                                      "1"};
        args.insert(args.end(), extra.begin(), extra.end());
        return std::make_unique<ServerProcess>(dir.path(), std::move(args));
    }

    std::unique_ptr<WorkerProcess> worker(const std::string& name,
                                          std::vector<std::string> extra = {}) {
        return std::make_unique<WorkerProcess>(
            redis->url(), name, dir.path() / (name + ".log"), std::move(extra));
    }

    static Json workers_of(unsigned short port) {
        const auto r = http_request(port, "GET", "/healthz");
        EXPECT_EQ(r.status, 200U) << r.body;
        return r.json()["ai"];
    }

    static void wait_alive(unsigned short port, int n) {
        const auto deadline = std::chrono::steady_clock::now() + 10s;
        while (workers_of(port)["workers"]["alive"] != n) {
            ASSERT_LT(std::chrono::steady_clock::now(), deadline) << workers_of(port).dump();
            std::this_thread::sleep_for(100ms);
        }
    }

    // Plays `moves` moves as white against the computer and waits for each reply.
    static void play_computer(WsClient& c, int moves) {
        Json st                = c.create({{"mode", "computer"},
                                           {"variant", "international"},
                                           {"level", "normal"},
                                           {"color", "white"}});
        const std::string game = st["game"];
        for (int i = 0; i < moves; ++i) {
            c.send(move_msg(st));
            const int ply = 2 * (i + 1);
            st            = c.wait_state(game, [ply](const Json& s) { return s["ply"] == ply; });
            ASSERT_EQ(st["state"]["turn"], "white") << st.dump();
        }
    }

    // Tells the nodes a worker called `name` is alive, every 300 ms while the test runs.
    void fake_heartbeats(const std::string& name) {
        ghost = std::thread([this, name] {
            const server::BusSealer sealer(kTestClusterSecret);
            server::RedisAddress a;
            (void)server::parse_redis_url(redis->url(), a);
            server::RedisLink beat(a);
            while (!stop_ghost) {
                (void)beat.command(
                    {"PUBLISH",
                     std::string(server::kAiWorkersChannel),
                     sealer.seal(Json{{"kind", "ai_worker"}, {"from", name}, {"at", epoch_ms()}})});
                std::this_thread::sleep_for(300ms);
            }
        });
    }

    void TearDown() override {
        stop_ghost = true;
        if (ghost.joinable()) {
            ghost.join();
        }
    }

    // A sealed job for a game of node `node` at the start of International draughts.
    static std::string sealed_job(const std::string& id,
                                  const std::string& node,
                                  double move_time,
                                  const std::string& secret = kTestClusterSecret) {
        engine::SearchLimits limits;
        limits.move_time = move_time;
        server::AiJob job{id,
                          node,
                          core::Game(core::VariantId::International),
                          engine::Level::Hard,
                          limits,
                          false,
                          epoch_ms() + 10'000};
        Json j    = server::ai_job_json(job);
        j["kind"] = "ai_job";
        j["from"] = node;
        j["at"]   = epoch_ms();
        return server::BusSealer(secret).seal(j);
    }

    long long pending(const std::string& stream) {
        const auto r = link->command({"XPENDING", stream, std::string(server::kAiGroup)});
        return r && !r->elements.empty() ? r->elements[0].integer : -1;
    }

    long long length(const std::string& stream) {
        const auto r = link->command({"XLEN", stream});
        return r ? r->integer : -1;
    }

    TempDir dir;
    std::unique_ptr<RedisProcess> redis;
    std::unique_ptr<server::RedisLink> link;
    std::thread ghost;
    std::atomic<bool> stop_ghost{false};
};

const std::string kUntimed(server::kAiStreamUntimed);

TEST_F(WorkerTest, TheComputersMovesComeFromTheWorker) {
    auto n = node();
    auto w = worker("w1");
    wait_alive(n->port(), 1);
    WsClient c(n->port());
    c.hello("Ann");
    play_computer(c, 3);
    const Json ai = workers_of(n->port());
    EXPECT_EQ(ai["workers"]["sent"], 3) << ai.dump();
    EXPECT_EQ(ai["workers"]["answered"], 3) << ai.dump();
    EXPECT_EQ(ai["workers"]["thought_here"], 0) << ai.dump();
    EXPECT_EQ(ai["fallbacks"], 0) << ai.dump();
    // The worker logs a job once it is acknowledged, after the answer the node acted on.
    w->wait_log("answered job", 3);
    EXPECT_EQ(count_of(w->log(), "answered job"), 3U) << w->log();
    // Answered jobs are acknowledged and gone from the stream.
    EXPECT_EQ(pending(kUntimed), 0);
    EXPECT_EQ(length(kUntimed), 0);
    // A worker stopped by a signal says so and ends cleanly.
    EXPECT_EQ(w->kill(SIGTERM), 0);
}

TEST_F(WorkerTest, ANodeThinksItselfWhenNoWorkerAnswers) {
    auto n = node({"--worker-pickup", "0.3"});
    {
        WsClient c(n->port());
        c.hello("Ann");
        play_computer(c, 1);  // no worker at all: the node's own pool, nothing sent
    }
    EXPECT_EQ(workers_of(n->port())["workers"]["sent"], 0);
    fake_heartbeats("ghost");  // "alive", but takes no job
    wait_alive(n->port(), 1);
    WsClient c(n->port());
    c.hello("Bob");
    play_computer(c, 2);
    const Json ai = workers_of(n->port());
    EXPECT_EQ(ai["workers"]["sent"], 2) << ai.dump();
    EXPECT_EQ(ai["workers"]["thought_here"], 2) << ai.dump();
    EXPECT_EQ(ai["workers"]["answered"], 0) << ai.dump();
    EXPECT_EQ(ai["fallbacks"], 0) << ai.dump();  // the engine answered, not the quick player
    // A worker silent for longer than its time to live is gone.
    stop_ghost = true;
    ghost.join();
    wait_alive(n->port(), 0);
}

TEST_F(WorkerTest, AnAnswerThatIsNotALegalMoveIsRefused) {
    auto n = node({"--worker-pickup", "2"});
    const std::string group(server::kAiGroup);
    ASSERT_TRUE(link->command({"XGROUP", "CREATE", kUntimed, group, "0", "MKSTREAM"}));
    fake_heartbeats("liar");
    wait_alive(n->port(), 1);
    WsClient c(n->port());
    c.hello("Ann");
    Json st                = c.create({{"mode", "computer"},
                                       {"variant", "international"},
                                       {"level", "normal"},
                                       {"color", "white"}});
    const std::string game = st["game"];
    c.send(move_msg(st));
    // The test takes the job as a worker would, and answers nonsense.
    std::optional<server::RedisReply> r;
    for (int i = 0; i < 50; ++i) {
        r = link->command({"XREADGROUP",
                           "GROUP",
                           group,
                           "liar-0",
                           "COUNT",
                           "1",
                           "BLOCK",
                           "100",
                           "STREAMS",
                           kUntimed,
                           ">"});
        if (r && r->kind == server::RedisReply::Kind::Array) {
            break;
        }
    }
    ASSERT_TRUE(r && r->kind == server::RedisReply::Kind::Array);
    const std::string sealed = r->elements[0].elements[1].elements[0].elements[1].elements[1].str;
    const server::BusSealer sealer(kTestClusterSecret);
    const Json job    = std::get<Json>(sealer.open(sealed, epoch_ms()));
    const auto answer = [&](const server::BusSealer& s, const std::string& move) {
        return s.seal(Json{{"kind", "ai_move"},
                           {"from", "liar"},
                           {"at", epoch_ms()},
                           {"id", job["id"]},
                           {"move", move}});
    };
    const std::string reply = server::ai_reply_channel("n1");
    // A legal move sealed without the secret, then moves that are not legal here.
    EXPECT_EQ(redis->publish(reply, answer(server::BusSealer("not the secret"), "32-28")), 1);
    EXPECT_EQ(redis->publish(reply, answer(sealer, "1-2")), 1);
    st = c.wait_state(game, [](const Json& s) { return s["ply"] == 2; });
    EXPECT_EQ(st["state"]["turn"], "white");
    const Json ai = workers_of(n->port());
    EXPECT_EQ(ai["workers"]["refused"], 2) << ai.dump();
    EXPECT_EQ(ai["workers"]["answered"], 0) << ai.dump();
    EXPECT_EQ(ai["workers"]["thought_here"], 1) << ai.dump();
}

TEST_F(WorkerTest, AJobOfAKilledWorkerIsTakenOverByAnother) {
    auto first = worker("w1");
    Listener heard(redis->url(), {server::ai_reply_channel("tn")});
    ASSERT_TRUE(link->command({"XADD", kUntimed, "*", "job", sealed_job("j1", "tn", 3.0)}));
    const auto taken =
        heard.wait([](const Json& m) { return m["kind"] == "ai_taken" && m["from"] == "w1"; }, 10s);
    ASSERT_FALSE(taken.is_null()) << first->log();
    EXPECT_EQ(pending(kUntimed), 1);
    first->kill(SIGKILL);  // mid-search, the job in hand and not acknowledged
    auto second      = worker("w2", {"--claim-idle", "1"});
    const Json moved = heard.wait([](const Json& m) { return m["kind"] == "ai_move"; }, 20s);
    ASSERT_FALSE(moved.is_null()) << second->log();
    EXPECT_EQ(moved["id"], "j1");
    EXPECT_EQ(moved["from"], "w2");
    const core::Game start(core::VariantId::International);
    EXPECT_TRUE(core::parse_move(start.position(), moved["move"].get<std::string>()))
        << moved.dump();
    second->wait_log("(taken over)");  // logged once acknowledged
    EXPECT_EQ(pending(kUntimed), 0);
    EXPECT_EQ(length(kUntimed), 0);
}

TEST_F(WorkerTest, ALongSearchIsNotTakenOverWhileItsWorkerLives) {
    auto first  = worker("w1", {"--claim-idle", "1"});
    auto second = worker("w2", {"--claim-idle", "1"});
    Listener heard(redis->url(), {server::ai_reply_channel("tn")});
    ASSERT_TRUE(link->command({"XADD", kUntimed, "*", "job", sealed_job("long", "tn", 3.0)}));
    const Json moved = heard.wait([](const Json& m) { return m["kind"] == "ai_move"; }, 15s);
    ASSERT_FALSE(moved.is_null()) << first->log() << second->log();
    std::this_thread::sleep_for(500ms);
    // Searched once: the worker's heartbeat kept its job from looking idle for 3 s.
    EXPECT_EQ(heard.count([](const Json& m) { return m["kind"] == "ai_taken"; }), 1U);
    EXPECT_EQ(heard.count([](const Json& m) { return m["kind"] == "ai_move"; }), 1U);
}

TEST_F(WorkerTest, AJobNotSealedByANodeIsNeverWorkedOn) {
    auto w = worker("w1");
    Listener heard(redis->url(), {server::ai_reply_channel("tn")});
    const std::string forged = sealed_job("forged", "tn", 0.2, "a guess at the cluster secret");
    ASSERT_TRUE(link->command({"XADD", kUntimed, "*", "job", forged}));
    ASSERT_TRUE(link->command({"XADD", kUntimed, "*", "job", forged.substr(65)}));  // no MAC
    ASSERT_TRUE(link->command({"XADD", kUntimed, "*", "job", "hello"}));
    ASSERT_TRUE(link->command({"XADD", kUntimed, "*", "nothing", "here"}));
    ASSERT_TRUE(link->command({"XADD", kUntimed, "*", "job", sealed_job("good", "tn", 0.2)}));
    const Json moved = heard.wait([](const Json& m) { return m["kind"] == "ai_move"; }, 10s);
    ASSERT_FALSE(moved.is_null()) << w->log();
    EXPECT_EQ(moved["id"], "good");
    std::this_thread::sleep_for(300ms);
    EXPECT_EQ(heard.count([](const Json& m) { return m["id"] != "good"; }), 0U);
    w->wait_log("answered job");  // logged once acknowledged
    EXPECT_EQ(count_of(w->log(), "refused entry"), 4U) << w->log();
    EXPECT_EQ(pending(kUntimed), 0);
    EXPECT_EQ(length(kUntimed), 0);
}

}  // namespace
}  // namespace papan::test
