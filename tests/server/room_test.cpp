// A room driven in-process with an injected ManualClock and an in-memory store: clocks are
// decided by the server's clock, not by wall time.
#include "api/api.hpp"
#include "api/wire_codec.hpp"
#include "game/ai_pool.hpp"
#include "game/lobby.hpp"
#include "game/store_executor.hpp"

#include <papan/core/notation/squares.hpp>
#include <papan/core/rules/registry.hpp>
#include <papan/loadtest/state_delta.hpp>
#include <papan/server/tokens.hpp>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <future>
#include <map>
#include <mutex>
#include <thread>

namespace papan::server {
namespace {

using Json = nlohmann::json;

class FakePeer final : public Peer {
public:
    void send(std::shared_ptr<const std::string> message) override {
        std::lock_guard lock(mutex_);
        Json j = Json::parse(*message);
        papan::loadtest::add_full_state(states_, j);  // events carry deltas
        messages_.push_back(std::move(j));
    }

    std::vector<Json> messages() {
        std::lock_guard lock(mutex_);
        return messages_;
    }

private:
    std::mutex mutex_;
    std::vector<Json> messages_;
    std::map<std::string, Json> states_;
};

struct Rig {
    Rig() { init_crypto(); }

    // Runs handlers until pred holds for some message of peer (5 s at most).
    Json wait(FakePeer& peer, const std::function<bool(const Json&)>& pred) {
        for (int i = 0; i < 1000; ++i) {
            ioc.restart();
            ioc.poll();
            for (const auto& m : peer.messages()) {
                if (pred(m)) {
                    return m;
                }
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
        }
        ADD_FAILURE() << "timed out";
        return Json{};
    }

    net::io_context ioc;
    ManualClock clock;
    StoreExecutor store{open_sqlite_store(":memory:")};
    AiPool ai{AiSettings{1, 16, 1000, 1.5, 1, {}}};
    GameSettings settings;
    WireMessages messages;
    Services svc{ioc, clock, store, ai, settings, messages, 1, nullptr};
    Lobby lobby{svc};
};

// A friend game of Ann (White) and Bob on the rig, with clock `tc`: created and joined.
struct FriendGame {
    std::shared_ptr<FakePeer> a = std::make_shared<FakePeer>();
    std::shared_ptr<FakePeer> b = std::make_shared<FakePeer>();
    Identity ann{"gann", "Ann", std::nullopt};
    Identity bob{"gbob", "Bob", std::nullopt};
    std::string id;
    Json started;  // the start event

    FriendGame(Rig& rig, TimeControl tc) {
        rig.svc.lobby = &rig.lobby;
        CreateRequest create;
        create.mode    = GameMode::Friend;
        create.variant = core::VariantId::International;
        create.color   = core::Color::White;
        create.clock   = tc;
        rig.lobby.post([&] { rig.lobby.create(create, ann, a, std::nullopt); });
        const Json created = rig.wait(*a, [](const Json& j) { return j["type"] == "created"; });
        id                 = created["game"];
        const std::string invite = created["invite"];
        GameRequest join{id, std::nullopt, JoinRequest{id, hash_secret(invite), {}}};
        rig.lobby.post([&] { rig.lobby.dispatch(join, bob, b); });
        started = rig.wait(*a, [](const Json& j) { return j["type"] == "event"; });
    }

    // `who` plays the first legal move of `state` (a state or event message) at its ply.
    void play(Rig& rig, const Json& state, bool white) {
        GameCommand move;
        move.kind      = CommandKind::Move;
        move.move.ply  = state["state"]["ply"].get<int>();
        move.move.path = state["state"]["legal_moves"][0]["path"].get<std::vector<int>>();
        auto peer      = white ? a : b;
        auto who       = white ? ann : bob;
        rig.lobby.post([&rig, id = id, move, peer, who] {
            rig.lobby.with_room(id, [move, peer, who](std::shared_ptr<Room> r) {
                r->post([r, move, peer, who] { r->handle(move, who, peer, std::nullopt); });
            });
        });
    }

    Json at_ply(Rig& rig, int ply) {
        return rig.wait(
            *b, [ply](const Json& j) { return j["type"] == "event" && j["state"]["ply"] == ply; });
    }
};

void stop(Rig& rig) {
    rig.lobby.post([&] { rig.lobby.shutdown(); });
    rig.ioc.restart();
    rig.ioc.poll();
    rig.ai.stop();
    rig.store.stop();
}

TEST(Room, ClockIsTheInjectedClock) {
    Rig rig;
    FriendGame g(rig, TimeControl{TimeKind::Fischer, 10'000, 0, 0, 1'000});
    // Each side's first move is not timed (docs/protocol.md, "Clocks"): no clock runs yet.
    EXPECT_EQ(g.started["state"]["clock"]["running"], nullptr);
    EXPECT_EQ(g.started["state"]["clock"]["started"], (Json{{"white", false}, {"black", false}}));

    // White thinks 4 s over the first move: nothing is charged, no increment; Black's clock
    // does not run either.
    rig.clock.advance(4'000);
    g.play(rig, g.started, true);
    const Json first = g.at_ply(rig, 1);
    EXPECT_EQ(first["state"]["clock"]["white"]["main_ms"], 10'000);
    EXPECT_EQ(first["state"]["clock"]["running"], nullptr);
    EXPECT_EQ(first["state"]["clock"]["started"], (Json{{"white", true}, {"black", false}}));
    // Black's first move after 3 s: not charged either; now White's clock runs.
    rig.clock.advance(3'000);
    g.play(rig, first, false);
    const Json second = g.at_ply(rig, 2);
    EXPECT_EQ(second["state"]["clock"]["black"]["main_ms"], 10'000);
    EXPECT_EQ(second["state"]["clock"]["running"], "white");
    EXPECT_EQ(second["state"]["clock"]["started"], (Json{{"white", true}, {"black", true}}));

    // 4 s on White's clock, then a move: 6 s left + 1 s increment.
    rig.clock.advance(4'000);
    g.play(rig, second, true);
    const Json moved = g.at_ply(rig, 3);
    EXPECT_EQ(moved["state"]["clock"]["white"]["main_ms"], 7'000);
    EXPECT_EQ(moved["state"]["clock"]["black"]["main_ms"], 10'000);
    EXPECT_EQ(moved["state"]["clock"]["running"], "black");

    // Black lets 11 s pass on the server's clock: a late move is refused and Black loses on time.
    rig.clock.advance(11'000);
    g.play(rig, moved, false);
    const Json err = rig.wait(*g.b, [](const Json& j) { return j["type"] == "error"; });
    EXPECT_EQ(err["code"], "out_of_time");
    const Json over = rig.wait(
        *g.a, [](const Json& j) { return j["type"] == "event" && j["event"]["kind"] == "flag"; });
    EXPECT_EQ(over["state"]["result"]["outcome"], "white_wins");
    EXPECT_EQ(over["state"]["result"]["reason"], "timeout");
    stop(rig);
}

// The stored game of the rig, as GET /api/games/{id} answers it.
Json stored_game(Rig& rig, const std::string& id) {
    ApiContext ctx{rig.svc, rig.lobby, {}};
    ctx.ready   = true;
    auto done   = std::make_shared<std::promise<HttpResponse>>();
    auto answer = done->get_future();
    handle_http(ctx,
                HttpRequest{"GET", "/api/games/" + id, "", "", "", "", ""},
                [done](HttpResponse r) { done->set_value(std::move(r)); });
    EXPECT_EQ(answer.wait_for(std::chrono::seconds(5)), std::future_status::ready);
    return Json::parse(answer.get().body);
}

// A first move that does not come within the minute aborts the game: no winner, unrated,
// stored. Here White's first move arrives 1 ms late (the server's clock decides).
TEST(Room, AFirstMoveThatComesTooLateAbortsTheGame) {
    Rig rig;
    FriendGame g(rig, default_time_control());
    rig.clock.advance(60'001);
    g.play(rig, g.started, true);
    const Json err = rig.wait(*g.a, [](const Json& j) { return j["type"] == "error"; });
    EXPECT_EQ(err["code"], "game_over");
    const Json aborted = rig.wait(
        *g.b, [](const Json& j) { return j["type"] == "event" && j["event"]["kind"] == "abort"; });
    EXPECT_EQ(aborted["event"]["by"], "white");
    EXPECT_EQ(aborted["state"]["status"], "over");
    EXPECT_EQ(aborted["state"]["result"]["outcome"], "");
    EXPECT_EQ(aborted["state"]["result"]["reason"], "aborted");
    EXPECT_EQ(aborted["state"]["result"]["text"], "Aborted: White made no first move in time");
    EXPECT_EQ(aborted["state"]["ply"], 0);
    EXPECT_TRUE(aborted["state"]["legal_moves"].empty());
    EXPECT_EQ(aborted["state"]["clock"]["running"], nullptr);
    const Json stored = stored_game(rig, g.id);
    EXPECT_EQ(stored["status"], "over");
    EXPECT_EQ(stored["reason"], "aborted");
    EXPECT_EQ(stored["outcome"], "");
    stop(rig);
}

// The timer aborts a game whose second first move never comes (the timeout shortened to 300 ms
// of the server's clock; the timer itself waits as long in real time).
TEST(Room, TheTimerAbortsAGameWhoseFirstMoveNeverComes) {
    Rig rig;
    rig.settings.first_move_timeout_ms = 300;
    FriendGame g(rig, default_time_control());
    g.play(rig, g.started, true);
    const Json first = g.at_ply(rig, 1);
    EXPECT_EQ(first["state"]["status"], "playing");
    rig.clock.advance(300);
    const Json aborted = rig.wait(
        *g.a, [](const Json& j) { return j["type"] == "event" && j["event"]["kind"] == "abort"; });
    EXPECT_EQ(aborted["event"]["by"], "black");
    EXPECT_EQ(aborted["state"]["result"]["reason"], "aborted");
    EXPECT_EQ(aborted["state"]["result"]["text"], "Aborted: Black made no first move in time");
    EXPECT_EQ(aborted["state"]["clock"]["started"], (Json{{"white", true}, {"black", false}}));
    EXPECT_EQ(stored_game(rig, g.id)["reason"], "aborted");
    stop(rig);
}

// Once both first moves are made, the minute no longer applies: the clock decides.
TEST(Room, NoAbortOnceBothSidesHaveMoved) {
    Rig rig;
    rig.settings.first_move_timeout_ms = 300;
    FriendGame g(rig, default_time_control());
    g.play(rig, g.started, true);
    g.play(rig, g.at_ply(rig, 1), false);
    const Json second = g.at_ply(rig, 2);
    rig.clock.advance(5'000);
    std::this_thread::sleep_for(std::chrono::milliseconds(600));
    rig.ioc.restart();
    rig.ioc.poll();
    for (const auto& m : g.a->messages()) {
        EXPECT_NE(m.value("event", Json::object()).value("kind", ""), "abort") << m.dump();
    }
    g.play(rig, second, true);
    const Json third = g.at_ply(rig, 3);
    EXPECT_EQ(third["state"]["status"], "playing");
    EXPECT_EQ(third["state"]["clock"]["white"]["main_ms"], 295'000);
    stop(rig);
}

// HTTP handlers are plain functions: called here without any socket. The reply may come from
// the store thread: it is handed over through a future (no shared flag polled across threads).
TEST(HttpHandlers, RoutesWithoutASocket) {
    Rig rig;
    rig.svc.lobby   = &rig.lobby;
    const auto root = std::filesystem::temp_directory_path() / ("papan-web-" + random_hex(6));
    std::filesystem::create_directories(root / "assets");
    std::ofstream(root / "index.html") << "<html>client</html>";
    std::ofstream(root / "assets/app.js") << "console.log(1)";
    std::ofstream(root.parent_path() / "papan-secret.txt") << "secret";
    ApiContext ctx{rig.svc, rig.lobby, root};
    ctx.ready      = true;
    const auto get = [&](const std::string& target) {
        auto done   = std::make_shared<std::promise<HttpResponse>>();
        auto answer = done->get_future();
        handle_http(ctx, HttpRequest{"GET", target, "", "", "", "", ""}, [done](HttpResponse r) {
            done->set_value(std::move(r));
        });
        EXPECT_EQ(answer.wait_for(std::chrono::seconds(5)), std::future_status::ready) << target;
        return answer.get();
    };
    EXPECT_EQ(get("/healthz").status, 200U);
    // The variant table, checked against the rules core (not against the function that built it).
    const auto variants = Json::parse(get("/api/variants").body)["variants"];
    ASSERT_EQ(variants.size(), core::all_variants().size());
    for (std::size_t i = 0; i < variants.size(); ++i) {
        const auto& r = core::all_variants()[i];
        EXPECT_EQ(variants[i]["key"], std::string(r.key));
        EXPECT_EQ(variants[i]["start_fen"], std::string(r.start_fen));
        EXPECT_EQ(variants[i]["square_coords"].size(),
                  static_cast<std::size_t>(core::square_count(r.id)));
    }
    EXPECT_EQ(get("/").body, "<html>client</html>");
    EXPECT_EQ(get("/assets/app.js").content_type, "text/javascript; charset=utf-8");
    EXPECT_EQ(get("/play/123").body, "<html>client</html>");  // client-side route
    EXPECT_EQ(get("/missing.js").status, 404U);
    EXPECT_EQ(get("/../papan-secret.txt").status, 400U);
    EXPECT_EQ(get("/%2E%2E/papan-secret.txt").status, 400U);
    EXPECT_EQ(get("/api/leaderboard?variant=nope").status, 400U);
    EXPECT_EQ(get("/api/leaderboard?variant=turkish").status, 200U);
    EXPECT_EQ(get("/api/games/abc").status, 404U);
    ctx.web_root.clear();
    EXPECT_NE(get("/").body.find("make build"), std::string::npos);
    std::filesystem::remove_all(root);
    std::filesystem::remove(root.parent_path() / "papan-secret.txt");
    rig.ai.stop();
    rig.store.stop();
}

}  // namespace
}  // namespace papan::server
