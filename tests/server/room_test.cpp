// A room driven in-process with an injected ManualClock and an in-memory store: clocks are
// decided by the server's clock, not by wall time.
#include "api/api.hpp"
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
    ServerOptions options;
    Services svc{ioc, clock, store, ai, options, 1, nullptr};
    Lobby lobby{svc};
};

TEST(Room, ClockIsTheInjectedClock) {
    Rig rig;
    rig.svc.lobby = &rig.lobby;
    auto a        = std::make_shared<FakePeer>();
    auto b        = std::make_shared<FakePeer>();
    const Identity ann{"gann", "Ann", std::nullopt};
    const Identity bob{"gbob", "Bob", std::nullopt};
    ClientMessage create;
    create.type    = MessageType::Create;
    create.mode    = "friend";
    create.variant = "international";
    create.color   = "white";
    create.clock   = TimeControl{TimeKind::Fischer, 10'000, 0, 0, 1'000};
    rig.lobby.post([&] { rig.lobby.create(create, ann, a); });
    const Json created = rig.wait(*a, [](const Json& j) { return j["type"] == "created"; });
    ClientMessage join;
    join.type   = MessageType::Join;
    join.invite = created["invite"];
    rig.lobby.post([&] { rig.lobby.join(join, bob, b); });
    const Json started = rig.wait(*a, [](const Json& j) { return j["type"] == "event"; });
    EXPECT_EQ(started["state"]["clock"]["running"], "white");

    // 4 s on White's clock, then a move: 6 s left + 1 s increment.
    rig.clock.advance(4'000);
    ClientMessage move;
    move.type = MessageType::Move;
    move.game = created["game"];
    move.ply  = 0;
    move.path = started["state"]["legal_moves"][0]["path"].get<std::vector<int>>();
    rig.lobby.post([&] {
        rig.lobby.with_room(move.game, [&](std::shared_ptr<Room> r) {
            r->post([&, r] { r->handle(move, ann, a); });
        });
    });
    const Json moved =
        rig.wait(*b, [](const Json& j) { return j["type"] == "event" && j["state"]["ply"] == 1; });
    EXPECT_EQ(moved["state"]["clock"]["white"]["main_ms"], 7'000);
    EXPECT_EQ(moved["state"]["clock"]["black"]["main_ms"], 10'000);

    // Black lets 11 s pass on the server's clock: a late move is refused and Black loses on time.
    rig.clock.advance(11'000);
    move.ply  = 1;
    move.path = moved["state"]["legal_moves"][0]["path"].get<std::vector<int>>();
    rig.lobby.post([&] {
        rig.lobby.with_room(move.game, [&](std::shared_ptr<Room> r) {
            r->post([&, r] { r->handle(move, bob, b); });
        });
    });
    const Json err = rig.wait(*b, [](const Json& j) { return j["type"] == "error"; });
    EXPECT_EQ(err["code"], "out_of_time");
    const Json over = rig.wait(
        *a, [](const Json& j) { return j["type"] == "event" && j["event"]["kind"] == "flag"; });
    EXPECT_EQ(over["state"]["result"]["outcome"], "white_wins");
    EXPECT_EQ(over["state"]["result"]["reason"], "timeout");
    rig.lobby.post([&] { rig.lobby.shutdown(); });
    rig.ioc.restart();
    rig.ioc.poll();
    rig.ai.stop();
    rig.store.stop();
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
