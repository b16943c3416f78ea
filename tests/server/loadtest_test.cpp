// The load tool: unit tests of its pure logic, and end to end: the real `papan serve` on a free
// port and the real `papan_loadtest` binary against it for a few seconds (hot-seat, friend and
// computer games, and reconnection while the server is killed with SIGKILL and started again on
// the same port and data); its JSON report must show moves and nothing lost or duplicated in the
// store.
#include "harness.hpp"
#include "pg_test_db.hpp"

#include <papan/loadtest/loadtest.hpp>

#include <gtest/gtest.h>

#include <array>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace papan::test {
namespace {

namespace lt = papan::loadtest;

struct CommandRun {
    int status = -1;
    std::string out;
};

// Runs a shell command line; returns its exit status and stdout.
CommandRun run_command(const std::string& line) {
    CommandRun r;
    FILE* p = ::popen(line.c_str(), "r");
    if (p == nullptr) {
        return r;
    }
    std::array<char, 4096> buf{};
    std::size_t n = 0;
    while ((n = std::fread(buf.data(), 1, buf.size(), p)) > 0) {
        r.out.append(buf.data(), n);
    }
    const int st = ::pclose(p);
    r.status     = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    return r;
}

// The last non-empty line of the output, parsed as JSON.
Json last_json_line(const std::string& out) {
    std::istringstream in(out);
    std::string line;
    std::string last;
    while (std::getline(in, line)) {
        if (!line.empty()) {
            last = line;
        }
    }
    return Json::parse(last, nullptr, false);
}

// `papan serve` that can be killed (SIGKILL) and started again on the same port and data
// directory, as the fault tests do (the harness's ServerProcess always takes a new free port).
// With PAPAN_TEST_PG set (the pg.* tests) it stores in the data directory's own PostgreSQL
// database, as ServerProcess does (dropped with the TempDir).
class RestartableServer {
public:
    explicit RestartableServer(std::filesystem::path data) : data_(std::move(data)) { start(0); }

    ~RestartableServer() { kill_hard(); }

    RestartableServer(const RestartableServer&)            = delete;
    RestartableServer& operator=(const RestartableServer&) = delete;

    [[nodiscard]] unsigned short port() const { return port_; }

    [[nodiscard]] std::string url() const {
        return "ws://127.0.0.1:" + std::to_string(port_) + "/ws";
    }

    void kill_hard() {
        if (pid_ > 0) {
            ::kill(pid_, SIGKILL);
            int st = 0;
            ::waitpid(pid_, &st, 0);
            pid_ = -1;
        }
    }

    void restart() {
        kill_hard();
        start(port_);
    }

private:
    void start(unsigned short port) {
        std::vector<std::string> args{PAPAN_BINARY,
                                      "serve",
                                      "--no-build-endgames",
                                      "--port",
                                      std::to_string(port),
                                      "--data",
                                      data_.string(),
                                      "--ws-rate",
                                      "0",
                                      "--max-connections-per-ip",
                                      "0",
                                      "--creates-per-ip",
                                      "0",
                                      "--ai-nodes",
                                      "3000"};
        if (!pg_base_url().empty()) {
            args.insert(args.end(), {"--store", pg_url_for_data_dir(data_.string())});
        }
        const auto server = spawn_server(args);
        pid_              = server.pid;
        port_             = server.port;
    }

    std::filesystem::path data_;
    int pid_             = -1;
    unsigned short port_ = 0;
};

// --- pure logic -----------------------------------------------------------------------------

TEST(LoadtestUnit, ParsesUrlsAndUrlLists) {
    lt::Url u;
    EXPECT_EQ(lt::parse_url("ws://127.0.0.1:8080/ws", u), "");
    EXPECT_EQ(u.host, "127.0.0.1");
    EXPECT_EQ(u.port, "8080");
    EXPECT_EQ(u.path, "/ws");
    EXPECT_EQ(lt::parse_url("ws://[::1]:9/x", u), "");
    EXPECT_EQ(u.host, "::1");
    EXPECT_EQ(u.port, "9");
    EXPECT_EQ(lt::parse_url("ws://host", u), "");
    EXPECT_EQ(u.port, "80");
    EXPECT_EQ(u.path, "/");
    EXPECT_NE(lt::parse_url("http://host/ws", u), "");
    EXPECT_NE(lt::parse_url("ws://host:99999/ws", u), "");
    EXPECT_NE(lt::parse_url("ws://:80/ws", u), "");

    const auto urls = lt::split_urls({"ws://a:1/ws, ws://b:2/ws", "ws://c:3/ws", ",", " "});
    ASSERT_EQ(urls.size(), 3U);
    EXPECT_EQ(urls[0], "ws://a:1/ws");
    EXPECT_EQ(urls[1], "ws://b:2/ws");
    EXPECT_EQ(urls[2], "ws://c:3/ws");
    EXPECT_TRUE(lt::split_urls({}).empty());

    EXPECT_EQ(lt::parse_mode("friend"), lt::Mode::Friend);
    EXPECT_EQ(lt::parse_mode("hotseat"), lt::Mode::Hotseat);
    EXPECT_EQ(lt::parse_mode("computer"), lt::Mode::Computer);
    EXPECT_FALSE(lt::parse_mode("robot").has_value());
    EXPECT_EQ(lt::mode_name(lt::Mode::Friend), "friend");
    EXPECT_EQ(lt::mode_name(lt::Mode::Computer), "computer");
}

TEST(LoadtestUnit, ValidatesOptions) {
    lt::Options o;
    EXPECT_NE(lt::validate(o), "");  // no URL
    o.urls = {"ws://127.0.0.1:1/ws", "ws://127.0.0.1:2/ws"};
    EXPECT_EQ(lt::validate(o), "");
    o.urls.push_back("http://x/ws");
    EXPECT_NE(lt::validate(o), "");
    o.urls.pop_back();
    o.stall = 0;
    EXPECT_NE(lt::validate(o), "");
    o.stall = 5;
    o.games = 0;
    EXPECT_NE(lt::validate(o), "");
    o.games = 1;

    o.mode  = lt::Mode::Computer;
    o.level = "max";
    EXPECT_EQ(lt::validate(o), "");
    o.level = "impossible";
    EXPECT_NE(lt::validate(o), "");
    o.level          = "easy";
    o.reply_deadline = 0;
    EXPECT_NE(lt::validate(o), "");
    o.reply_deadline = 10;
    o.reconnect      = true;  // reconnection is for hot-seat and friend games
    EXPECT_NE(lt::validate(o), "");
}

TEST(LoadtestUnit, BackoffDoublesTo1sAndUrlsGoRoundRobin) {
    EXPECT_EQ(lt::backoff_ms(0), 100);
    EXPECT_EQ(lt::backoff_ms(1), 200);
    EXPECT_EQ(lt::backoff_ms(2), 400);
    EXPECT_EQ(lt::backoff_ms(3), 800);
    EXPECT_EQ(lt::backoff_ms(4), 1000);
    EXPECT_EQ(lt::backoff_ms(50), 1000);

    // Two URLs: the two players of every friend game are on different nodes, and the creators
    // alternate between the nodes.
    for (int slot = 0; slot < 6; ++slot) {
        EXPECT_NE(lt::initial_url(slot, 0, 2), lt::initial_url(slot, 1, 2));
        EXPECT_EQ(lt::initial_url(slot, 0, 2), static_cast<std::size_t>(slot % 2));
    }
    EXPECT_EQ(lt::initial_url(7, 1, 1), 0U);
    EXPECT_EQ(lt::next_url(0, 2), 1U);
    EXPECT_EQ(lt::next_url(1, 2), 0U);
    EXPECT_EQ(lt::next_url(0, 1), 0U);
}

TEST(LoadtestUnit, ClassifiesTheMoveInFlightAfterAResume) {
    const std::vector<std::string> two{"32-28", "19-23"};
    // The server is still at the move's ply: not stored, send it again.
    EXPECT_EQ(lt::classify_in_flight(2, "28x19", 2, two), lt::InFlight::NotStored);
    // Stored: the same move (a capture by its ends matches every landing square).
    EXPECT_EQ(lt::classify_in_flight(1, "19-23", 2, two), lt::InFlight::Stored);
    EXPECT_EQ(lt::classify_in_flight(2, "28x19", 3, {"32-28", "19-23", "28x19"}),
              lt::InFlight::Stored);
    EXPECT_EQ(lt::classify_in_flight(0, "22x24", 1, {"22x33x24"}), lt::InFlight::Stored);
    // Another move at that ply, or the server behind the move's ply.
    EXPECT_EQ(lt::classify_in_flight(1, "18-22", 2, two), lt::InFlight::Different);
    EXPECT_EQ(lt::classify_in_flight(3, "18-22", 2, two), lt::InFlight::RolledBack);
    EXPECT_EQ(lt::in_flight_name(lt::InFlight::Stored), "stored");
}

TEST(LoadtestUnit, ComparesGamesWithTheStore) {
    lt::GameCheck g;
    g.id         = "abc";
    g.sent       = {"32-28", "19-23", "28x19"};
    g.acked      = {true, true, false};
    g.acked_text = {"32-28", "19-23", ""};
    // The last move was sent and stored, its ack not seen: not an error.
    auto c = lt::compare_game(g, {"32-28", "19-23", "28x19"});
    EXPECT_EQ(c.lost, 0);
    EXPECT_EQ(c.duplicated, 0);
    EXPECT_EQ(c.stored_unacked, 1);
    EXPECT_TRUE(c.first_mismatch.empty());
    // An acknowledged move missing from the store is lost.
    c = lt::compare_game(g, {"32-28"});
    EXPECT_EQ(c.lost, 1);
    EXPECT_NE(c.first_mismatch.find("ply 1"), std::string::npos);
    // A move stored twice shifts the list: the extra one shows as duplicated.
    c = lt::compare_game(g, {"32-28", "32-28", "19-23"});
    EXPECT_EQ(c.lost, 1);
    EXPECT_GE(c.duplicated, 1);
    EXPECT_TRUE(lt::same_move("22x24", "22x33x24"));
    EXPECT_FALSE(lt::same_move("22-24", "22x24"));
    // A computer game left while its reply was awaited: the reply stored after it is not extra,
    // but a move after that one, or one at another ply, still is.
    lt::GameCheck cg;
    cg.id         = "def";
    cg.sent       = {"32-28"};
    cg.acked      = {true};
    cg.acked_text = {"32-28"};
    EXPECT_EQ(lt::compare_game(cg, {"32-28", "19-23"}).duplicated, 1);
    cg.reply_awaited_ply = 1;
    c                    = lt::compare_game(cg, {"32-28", "19-23"});
    EXPECT_EQ(c.duplicated, 0);
    EXPECT_EQ(c.stored_unacked, 1);
    EXPECT_EQ(lt::compare_game(cg, {"32-28", "19-23", "33-29"}).duplicated, 2);
}

TEST(LoadtestUnit, CountsContinuityAndMovesTheOpponentMissed) {
    lt::Continuity c;
    EXPECT_FALSE(c.interrupted());
    EXPECT_TRUE(c.continued());
    c.on_ack();
    c.on_drop();
    EXPECT_TRUE(c.interrupted());
    EXPECT_FALSE(c.continued());  // dropped, nothing since
    c.on_ack();
    EXPECT_TRUE(c.continued());
    c.on_drop();  // a second drop: what counts is after the last one
    EXPECT_FALSE(c.continued());
    c.on_end();
    EXPECT_TRUE(c.continued());

    lt::GameCheck g;
    g.acked         = {true, true, true, false};
    g.opponent_seen = {true, false, true, false};
    EXPECT_EQ(lt::count_opponent_missed(g), 1);
    g.opponent_seen.clear();  // hot-seat games: no opponent connection
    EXPECT_EQ(lt::count_opponent_missed(g), 0);

    const auto summary = lt::summarize({3000, 1000, 2000, 4000});
    EXPECT_DOUBLE_EQ(summary.p50_ms, 2.0);
    EXPECT_DOUBLE_EQ(summary.max_ms, 4.0);
    EXPECT_DOUBLE_EQ(summary.mean_ms, 2.5);
}

// --- end to end -----------------------------------------------------------------------------

TEST(Loadtest, PlaysGamesAndFindsNothingLostOrDuplicated) {
    TempDir dir;
    // The tool plays back to back from one address: the abuse limits off (docs/operations.md).
    ServerProcess server(dir.path(), {"--ws-rate", "0", "--max-connections-per-ip", "0"});
    const std::string url = "ws://127.0.0.1:" + std::to_string(server.port()) + "/ws";
    const CommandRun r    = run_command(std::string(PAPAN_LOADTEST_BINARY) + " --url " + url +
                                     " --games 4 --rate 20 --duration 5 --seed 7 --json");
    ASSERT_EQ(r.status, 0) << r.out;
    const Json report = last_json_line(r.out);
    ASSERT_TRUE(report.is_object()) << r.out;
    EXPECT_GT(report["moves"].get<std::int64_t>(), 0) << r.out;
    EXPECT_EQ(report["lost"], 0) << r.out;
    EXPECT_EQ(report["duplicated"], 0) << r.out;
    EXPECT_EQ(report["errors"]["total"], 0) << r.out;
    EXPECT_GE(report["verified_games"].get<int>(), 4) << r.out;
    EXPECT_GT(report["moves_per_s"].get<double>(), 0.0) << r.out;
    EXPECT_GE(report["ack_ms"]["max"].get<double>(), report["ack_ms"]["p50"].get<double>());
    EXPECT_EQ(report["mode"], "hotseat");
    EXPECT_EQ(report["drops"], 0) << r.out;
    EXPECT_EQ(report["ok"], true) << r.out;
}

TEST(Loadtest, RefusesBadOptionsAndAnUnreachableServer) {
    const std::string bin = PAPAN_LOADTEST_BINARY;
    EXPECT_NE(run_command(bin + " --url http://127.0.0.1:1/ws --games 1 --rate 1"
                                " --duration 1 2>/dev/null")
                  .status,
              0);
    EXPECT_NE(run_command(bin + " --url ws://127.0.0.1:1/ws --games 0 --rate 1"
                                " --duration 1 2>/dev/null")
                  .status,
              0);
    EXPECT_NE(run_command(bin + " --url ws://127.0.0.1:1/ws --games 1 --rate 1"
                                " --duration 1 --mode robot 2>/dev/null")
                  .status,
              0);
    EXPECT_NE(run_command(bin + " --url ws://127.0.0.1:1/ws --games 1 --rate 1"
                                " --duration 1 --mode computer --level impossible 2>/dev/null")
                  .status,
              0);
    EXPECT_NE(run_command(bin + " --url ws://127.0.0.1:1/ws --games 1 --rate 1"
                                " --duration 1 --mode computer --reconnect 2>/dev/null")
                  .status,
              0);
    // The load tool is a program of its own: the production binary does not carry it.
    const CommandRun papan_help = run_command(std::string(PAPAN_BINARY) + " --help");
    EXPECT_EQ(papan_help.status, 0);
    EXPECT_NE(papan_help.out.find("serve"), std::string::npos) << papan_help.out;
    EXPECT_EQ(papan_help.out.find("loadtest"), std::string::npos) << papan_help.out;
    // Nothing listens on port 1: connect errors, no moves, a failing exit code.
    const CommandRun r = run_command(bin + " --url ws://127.0.0.1:1/ws --games 2 --rate 10"
                                           " --duration 1 --json 2>/dev/null");
    EXPECT_EQ(r.status, 1) << r.out;
    const Json report = last_json_line(r.out);
    ASSERT_TRUE(report.is_object()) << r.out;
    EXPECT_EQ(report["moves"], 0);
    EXPECT_EQ(report["errors"]["by_code"]["connect"], 2);
    EXPECT_EQ(report["ok"], false);
}

// Friend games: two players on two connections (both URLs name the one server here), each
// sending its own side's moves; the opponent's connection must see every acknowledged move.
TEST(Loadtest, FriendGamesOnTwoConnections) {
    TempDir dir;
    ServerProcess server(dir.path(), {"--ws-rate", "0", "--max-connections-per-ip", "0"});
    const std::string url = "ws://127.0.0.1:" + std::to_string(server.port()) + "/ws";
    const CommandRun r =
        run_command(std::string(PAPAN_LOADTEST_BINARY) + " --url " + url + "," + url +
                    " --mode friend" + " --games 4 --rate 20 --duration 4 --seed 3 --json");
    ASSERT_EQ(r.status, 0) << r.out;
    const Json report = last_json_line(r.out);
    ASSERT_TRUE(report.is_object()) << r.out;
    EXPECT_EQ(report["mode"], "friend");
    EXPECT_EQ(report["urls"].size(), 2U);
    EXPECT_EQ(report["connections"], 8) << r.out;
    EXPECT_GT(report["moves"].get<std::int64_t>(), 20) << r.out;
    EXPECT_EQ(report["opponent_missed"], 0) << r.out;
    EXPECT_EQ(report["errors"]["total"], 0) << r.out;
    EXPECT_EQ(report["lost"], 0) << r.out;
    EXPECT_EQ(report["duplicated"], 0) << r.out;
    EXPECT_GE(report["verified_games"].get<int>(), 4) << r.out;
    EXPECT_EQ(report["ok"], true) << r.out;
}

// Computer games: each connection plays white against the server's computer (its search capped by
// --ai-nodes so that it answers quickly); the report times the computer's replies, counts its
// moves, and every game's moves, the computer's included, are in the store.
TEST(Loadtest, ComputerGamesTimeTheComputersReplies) {
    TempDir dir;
    ServerProcess server(dir.path(),
                         {"--ws-rate", "0", "--max-connections-per-ip", "0", "--ai-nodes", "300"});
    const std::string url  = "ws://127.0.0.1:" + std::to_string(server.port()) + "/ws";
    const std::string base = std::string(PAPAN_LOADTEST_BINARY) + " --url " + url +
                             " --mode computer --games 3" + " --rate 20 --seed 11 --json";
    const CommandRun r = run_command(base + " --level hard --duration 4");
    ASSERT_EQ(r.status, 0) << r.out;
    const Json report = last_json_line(r.out);
    ASSERT_TRUE(report.is_object()) << r.out;
    EXPECT_EQ(report["mode"], "computer");
    EXPECT_EQ(report["level"], "hard");
    EXPECT_EQ(report["connections"], 3) << r.out;
    const auto human    = report["moves"].get<std::int64_t>();
    const auto computer = report["computer_moves"].get<std::int64_t>();
    EXPECT_GT(computer, 10) << r.out;
    // The two sides alternate: per game the computer has at most one move more or fewer.
    EXPECT_LE(std::abs(human - computer), report["games_created"].get<std::int64_t>()) << r.out;
    EXPECT_GT(report["computer_moves_per_s"].get<double>(), 0.0) << r.out;
    const Json& reply = report["computer_reply_ms"];
    EXPECT_GT(reply["p50"].get<double>(), 0.0) << r.out;
    EXPECT_GE(reply["p99"].get<double>(), reply["p50"].get<double>()) << r.out;
    EXPECT_GE(reply["max"].get<double>(), reply["p99"].get<double>()) << r.out;
    EXPECT_EQ(report["computer_games_late"], 0) << r.out;  // 300 nodes answer in well under 10 s
    EXPECT_EQ(report["computer_games_without_reply"], 0) << r.out;
    EXPECT_GT(report["ack_ms"]["p99"].get<double>(), 0.0) << r.out;
    EXPECT_EQ(report["errors"]["total"], 0) << r.out;
    EXPECT_EQ(report["lost"], 0) << r.out;
    EXPECT_EQ(report["duplicated"], 0) << r.out;
    EXPECT_GE(report["verified_games"].get<int>(), 3) << r.out;
    EXPECT_EQ(report["ok"], true) << r.out;

    // A deadline no reply can meet (a tenth of a millisecond: the reply is searched and stored
    // first): the first game of each of the 3 connections gets a reply, and counts as late; no
    // reply awaited at the end is still within the deadline.
    const CommandRun tight =
        run_command(base + " --level easy --duration 2 --reply-deadline 0.0001");
    ASSERT_EQ(tight.status, 0) << tight.out;
    const Json late = last_json_line(tight.out);
    ASSERT_TRUE(late.is_object()) << tight.out;
    EXPECT_GT(late["computer_moves"].get<std::int64_t>(), 0) << tight.out;
    EXPECT_GE(late["computer_games_late"].get<int>(), 3) << tight.out;
    EXPECT_EQ(late["computer_replies_awaited"], 0) << tight.out;
}

// Runs `papan_loadtest ARGS --json` in the background while `faults` kills and restarts the
// server; returns the report.
Json loadtest_under_faults(const std::string& args, const std::function<void()>& faults) {
    CommandRun r;
    std::thread t([&] { r = run_command(std::string(PAPAN_LOADTEST_BINARY) + " " + args); });
    faults();
    t.join();
    EXPECT_EQ(r.status, 0) << r.out;
    Json report = last_json_line(r.out);
    EXPECT_TRUE(report.is_object()) << r.out;
    return report.is_object() ? report : Json::object();
}

// The fault test in small: the server is killed with SIGKILL twice during the run and started
// again on the same port and data; every connection comes back, resumes its game and plays on,
// and no acknowledged move is missing from the store.
TEST(Loadtest, ReconnectsAfterTheServerIsKilled) {
    TempDir dir;
    RestartableServer server(dir.path());
    const Json report = loadtest_under_faults(
        "--url " + server.url() +
            " --games 10 --rate 50 --duration 8 --think 50 --reconnect --drain 5 --seed 5 --json",
        [&] {
            std::this_thread::sleep_for(std::chrono::milliseconds(2000));
            server.restart();
            std::this_thread::sleep_for(std::chrono::milliseconds(2500));
            server.restart();
        });
    const std::string text = report.dump();
    EXPECT_EQ(report["ok"], true) << text;
    EXPECT_EQ(report["lost"], 0) << text;
    EXPECT_EQ(report["duplicated"], 0) << text;
    EXPECT_GE(report["drops"].get<int>(), 20) << text;  // 10 connections, 2 kills
    EXPECT_GE(report["reconnects"].get<int>(), 20) << text;
    EXPECT_GE(report["games_interrupted"].get<int>(), 10) << text;
    EXPECT_EQ(report["games_continued"], report["games_interrupted"]) << text;
    EXPECT_GE(report["resumes"].get<int>(), 20) << text;
    EXPECT_GT(report["resume_ms"]["max"].get<double>(), 0.0) << text;
    EXPECT_EQ(report["errors"]["total"], 0) << text;
}

// Friend games through a kill: both players of every game reconnect, the joiner keeps its seat
// (same guest secret) and the opponent's connection still sees every acknowledged move.
TEST(Loadtest, FriendGamesReconnectAfterTheServerIsKilled) {
    TempDir dir;
    RestartableServer server(dir.path());
    const Json report = loadtest_under_faults(
        "--url " + server.url() + " --url " + server.url() +
            " --mode friend --games 6 --rate 50 --duration 6 --think 50 --reconnect --drain 5"
            " --seed 9 --json",
        [&] {
            std::this_thread::sleep_for(std::chrono::milliseconds(2500));
            server.restart();
        });
    const std::string text = report.dump();
    EXPECT_EQ(report["ok"], true) << text;
    EXPECT_EQ(report["lost"], 0) << text;
    EXPECT_EQ(report["duplicated"], 0) << text;
    EXPECT_GE(report["drops"].get<int>(), 12) << text;
    EXPECT_GE(report["games_interrupted"].get<int>(), 6) << text;
    EXPECT_EQ(report["games_continued"], report["games_interrupted"]) << text;
    EXPECT_EQ(report["opponent_missed"], 0) << text;
    EXPECT_EQ(report["errors"]["total"], 0) << text;
}

}  // namespace
}  // namespace papan::test
