// Rooms under failure, in-process (docs/protocol.md, "Game state"; docs/operations.md, "Error
// policy"): a store that fails on demand (a decorator of the Store interface over a real SQLite
// file) and a room job that throws. Nothing is acknowledged that is not stored, the game stays
// as it was, play goes on once the store is back, and no room can end the process.
#include "api/wire_codec.hpp"
#include "game/ai_pool.hpp"
#include "game/lobby.hpp"
#include "game/store_executor.hpp"

#include <papan/core/notation/fen.hpp>
#include <papan/loadtest/state_delta.hpp>
#include <papan/server/tokens.hpp>

#include <gtest/gtest.h>

#include <atomic>
#include <filesystem>
#include <map>
#include <mutex>
#include <random>
#include <stdexcept>
#include <thread>

namespace papan::server {
namespace {

using Json = nlohmann::json;

// Every write throws while `failing` is set; reads and leases pass through.
class FailingStore final : public Store {
public:
    FailingStore(std::unique_ptr<Store> inner, std::shared_ptr<std::atomic<bool>> failing)
        : inner_(std::move(inner))
        , failing_(std::move(failing)) {}

    void transaction(const std::function<void()>& fn) override { inner_->transaction(fn); }

    void insert_game(const GameRecord& g) override {
        check();
        inner_->insert_game(g);
    }

    void update_game(const GameRecord& g) override {
        check();
        inner_->update_game(g);
    }

    void append_move(const GameRecord& header, const MoveRecord& move) override {
        check();
        inner_->append_move(header, move);
    }

    void truncate_moves(const GameRecord& header, int from_ply) override {
        check();
        inner_->truncate_moves(header, from_ply);
    }

    void append_chat(const GameRecord& header, const ChatRecord& line) override {
        check();
        inner_->append_chat(header, line);
    }

    void insert_game_with_moves(const GameRecord& g) override {
        check();
        inner_->insert_game_with_moves(g);
    }

    std::optional<GameRecord> load_game(const std::string& id) override {
        return inner_->load_game(id);
    }

    std::vector<GameRecord> unfinished_games(std::int64_t updated_before_ms,
                                             const std::string& after_id,
                                             int limit) override {
        return inner_->unfinished_games(updated_before_ms, after_id, limit);
    }

    std::vector<GameRecord> games_of(const std::string& player_id, int limit) override {
        return inner_->games_of(player_id, limit);
    }

    int count_unfinished(const std::string& player_id) override {
        return inner_->count_unfinished(player_id);
    }

    std::optional<std::int64_t> create_user(const UserRecord& u) override {
        check();
        return inner_->create_user(u);
    }

    std::optional<UserRecord> user_by_name(const std::string& username) override {
        return inner_->user_by_name(username);
    }

    std::optional<UserRecord> user_by_id(std::int64_t id) override {
        return inner_->user_by_id(id);
    }

    void set_password(std::int64_t user_id, const std::string& password_hash) override {
        check();
        inner_->set_password(user_id, password_hash);
    }

    void create_session(const std::string& token_hash,
                        std::int64_t user_id,
                        std::int64_t now_ms) override {
        check();
        inner_->create_session(token_hash, user_id, now_ms);
    }

    std::optional<std::int64_t> session_user(const std::string& token_hash,
                                             std::int64_t now_ms,
                                             std::int64_t max_idle_ms) override {
        return inner_->session_user(token_hash, now_ms, max_idle_ms);
    }

    void delete_session(const std::string& token_hash) override {
        inner_->delete_session(token_hash);
    }

    void delete_other_sessions(std::int64_t user_id, const std::string& keep_hash) override {
        inner_->delete_other_sessions(user_id, keep_hash);
    }

    void record_import(const std::string& player_id, const std::string& game_id) override {
        check();
        inner_->record_import(player_id, game_id);
    }

    std::optional<std::int64_t> identity_user(const std::string& issuer,
                                              const std::string& subject) override {
        return inner_->identity_user(issuer, subject);
    }

    bool link_identity(const ExternalIdentityRecord& r) override {
        check();
        return inner_->link_identity(r);
    }

    std::vector<ExternalIdentityRecord> identities_of(std::int64_t user_id) override {
        return inner_->identities_of(user_id);
    }

    void put_auth_pending(const std::string& key_hash,
                          const std::string& payload,
                          std::int64_t expires_ms,
                          std::int64_t now_ms) override {
        check();
        inner_->put_auth_pending(key_hash, payload, expires_ms, now_ms);
    }

    std::optional<std::string> take_auth_pending(const std::string& key_hash,
                                                 std::int64_t now_ms) override {
        return inner_->take_auth_pending(key_hash, now_ms);
    }

    RatingRecord rating(std::int64_t user_id, const std::string& variant) override {
        return inner_->rating(user_id, variant);
    }

    void set_rating(const RatingRecord& r) override {
        check();
        inner_->set_rating(r);
    }

    std::vector<RatingRecord> leaderboard(const std::string& variant, int limit) override {
        return inner_->leaderboard(variant, limit);
    }

    std::vector<std::pair<std::string, int>> rated_variants() override {
        return inner_->rated_variants();
    }

    std::vector<RatingRecord> ratings_of(std::int64_t user_id) override {
        return inner_->ratings_of(user_id);
    }

    void add_rating_change(const RatingChangeRecord& c) override {
        check();
        inner_->add_rating_change(c);
    }

    std::vector<RatingChangeRecord> rating_history(std::int64_t user_id) override {
        return inner_->rating_history(user_id);
    }

    int add_reward(const std::string& player_id,
                   const std::string& day,
                   int points,
                   int daily_cap) override {
        check();
        return inner_->add_reward(player_id, day, points, daily_cap);
    }

    int reward_total(const std::string& player_id) override {
        return inner_->reward_total(player_id);
    }

    bool claim_game(const std::string& id,
                    const std::string& node,
                    std::int64_t now_ms,
                    std::int64_t lease_ms) override {
        return inner_->claim_game(id, node, now_ms, lease_ms);
    }

    std::optional<std::string> game_owner(const std::string& id, std::int64_t now_ms) override {
        return inner_->game_owner(id, now_ms);
    }

    void
    renew_leases(const std::string& node, std::int64_t now_ms, std::int64_t lease_ms) override {
        inner_->renew_leases(node, now_ms, lease_ms);
    }

    void release_game(const std::string& id, const std::string& node) override {
        inner_->release_game(id, node);
    }

    std::vector<std::string> orphaned_games(std::int64_t now_ms, int limit) override {
        return inner_->orphaned_games(now_ms, limit);
    }

private:
    void check() const {
        if (failing_->load()) {
            throw std::runtime_error("disk I/O error (injected)");
        }
    }

    std::unique_ptr<Store> inner_;
    std::shared_ptr<std::atomic<bool>> failing_;
};

class FakePeer final : public Peer {
public:
    void send(std::shared_ptr<const std::string> message) override {
        const std::lock_guard lock(mutex_);
        Json j = Json::parse(*message);
        papan::loadtest::add_full_state(states_, j);  // events carry deltas
        messages_.push_back(std::move(j));
    }

    std::vector<Json> messages() {
        const std::lock_guard lock(mutex_);
        return messages_;
    }

private:
    std::mutex mutex_;
    std::vector<Json> messages_;
    std::map<std::string, Json> states_;
};

std::filesystem::path temp_db() {
    std::random_device rd;
    return std::filesystem::temp_directory_path() /
           ("papan-room-failures-" + std::to_string(rd()) + ".db");
}

struct Rig {
    Rig() { init_crypto(); }

    ~Rig() {
        lobby.post([this] { lobby.shutdown(); });
        ioc.restart();
        ioc.poll();
        ai.stop();
        store.stop();
        std::error_code ec;
        for (const char* suffix : {"", "-wal", "-shm"}) {
            std::filesystem::remove(path.string() + suffix, ec);
        }
    }

    Rig(const Rig&)            = delete;
    Rig& operator=(const Rig&) = delete;

    // Runs handlers until pred holds for a message of `peer` after the first `skip` (5 s).
    Json wait(FakePeer& peer, const std::function<bool(const Json&)>& pred, std::size_t skip = 0) {
        for (int i = 0; i < 1000; ++i) {
            ioc.restart();
            ioc.poll();
            const auto all = peer.messages();
            for (std::size_t k = skip; k < all.size(); ++k) {
                if (pred(all[k])) {
                    return all[k];
                }
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
        }
        ADD_FAILURE() << "timed out";
        return Json{};
    }

    // A hot-seat game of `who` (no computer, no clock): the state message.
    Json hotseat(FakePeer& peer, const Identity& who) {
        CreateRequest create;
        create.mode = GameMode::Hotseat;
        lobby.post([this, create, who, p = peer_ptr(peer)] {
            lobby.create(create, who, p, std::nullopt);
        });
        return wait(peer, [](const Json& j) { return j["type"] == "state"; });
    }

    // Sends legal move 0 of `state` as `who`; returns the number of messages before it.
    std::size_t move(FakePeer& peer, const Identity& who, const Json& state) {
        GameCommand c;
        c.move.ply  = state["state"]["ply"].get<int>();
        c.move.path = state["state"]["legal_moves"][0]["path"].get<std::vector<int>>();
        const GameRequest m{state["game"].get<std::string>(), 7, c};
        const auto seen = peer.messages().size();
        lobby.post([this, m, who, p = peer_ptr(peer)] { lobby.dispatch(m, who, p); });
        return seen;
    }

    std::shared_ptr<FakePeer> peer_ptr(FakePeer& peer) {
        for (const auto& p : peers) {
            if (p.get() == &peer) {
                return p;
            }
        }
        return nullptr;
    }

    FakePeer& new_peer() { return *peers.emplace_back(std::make_shared<FakePeer>()); }

    std::filesystem::path path                 = temp_db();
    std::shared_ptr<std::atomic<bool>> failing = std::make_shared<std::atomic<bool>>(false);
    net::io_context ioc;
    ManualClock clock;
    StoreExecutor store{std::make_unique<FailingStore>(open_sqlite_store(path), failing)};
    AiPool ai{AiSettings{1, 16, 1000, 1.5, 1, {}}};
    GameSettings settings;
    WireMessages messages;
    Services svc{ioc, clock, store, ai, settings, messages, 1, nullptr};
    Lobby lobby{svc};
    std::vector<std::shared_ptr<FakePeer>> peers;
};

bool is_event_at(const Json& j, int ply) {
    return j["type"] == "event" && j["state"]["ply"] == ply;
}

TEST(RoomFailures, AFailedWriteAcknowledgesNothingAndPlayGoesOnAfterwards) {
    Rig rig;
    rig.svc.lobby = &rig.lobby;
    FakePeer& ann = rig.new_peer();
    const Identity who{"gann", "Ann", std::nullopt};
    const Json st0         = rig.hotseat(ann, who);
    const std::string game = st0["game"];
    const Json ev1         = rig.wait(
        ann, [](const Json& j) { return is_event_at(j, 1); }, rig.move(ann, who, st0));

    // The store fails: the sender is told store_unavailable, nobody gets an event.
    rig.failing->store(true);
    const auto before = rig.move(ann, who, ev1);
    const Json err    = rig.wait(
        ann, [](const Json& j) { return j["type"] == "error"; }, before);
    EXPECT_EQ(err["code"], "store_unavailable");
    EXPECT_EQ(err["ref"], 7);
    for (std::size_t k = before; k < ann.messages().size(); ++k) {
        EXPECT_NE(ann.messages()[k]["type"], "event") << ann.messages()[k].dump();
    }
    // The room's game is as it was: a resume shows ply 1 and the version of ev1.
    const GameRequest resume{game, std::nullopt, ResumeRequest{}};
    const auto mark = ann.messages().size();
    rig.lobby.post([&] { rig.lobby.dispatch(resume, who, rig.peer_ptr(ann)); });
    const Json back = rig.wait(
        ann, [](const Json& j) { return j["type"] == "state"; }, mark);
    EXPECT_EQ(back["state"]["ply"], 1);
    EXPECT_EQ(back["state"]["version"], ev1["state"]["version"]);

    // The store is back: the same move (ply 1 again) is taken, stored, and the stored game
    // replays to the room's position.
    rig.failing->store(false);
    const Json ev2 = rig.wait(
        ann, [](const Json& j) { return is_event_at(j, 2); }, rig.move(ann, who, back));
    const Json ev3 = rig.wait(
        ann, [](const Json& j) { return is_event_at(j, 3); }, rig.move(ann, who, ev2));
    rig.lobby.post([&] { rig.lobby.shutdown(); });
    rig.ioc.restart();
    rig.ioc.poll();
    rig.store.stop();
    const auto stored = open_sqlite_store(rig.path)->load_game(game);
    ASSERT_TRUE(stored.has_value());
    ASSERT_EQ(stored->moves.size(), 3U);
    EXPECT_EQ(stored->version, ev3["version"]);
    auto replayed = GameSession::from_record(*stored, rig.clock.now_ms());
    ASSERT_TRUE(static_cast<bool>(replayed)) << replayed.error();
    EXPECT_EQ(core::to_fen(replayed->game.position()), ev3["state"]["fen"]);
}

// A chat line the store could not keep does not count against the sender's rate either: after
// five failed lines, the first line once the store is back is taken.
TEST(RoomFailures, AChatLineTheStoreRefusedDoesNotCountAgainstTheRate) {
    Rig rig;
    rig.svc.lobby = &rig.lobby;
    FakePeer& ann = rig.new_peer();
    FakePeer& bob = rig.new_peer();
    const Identity ann_id{"gann", "Ann", std::nullopt};
    const Identity bob_id{"gbob", "Bob", std::nullopt};
    CreateRequest create;
    create.mode  = GameMode::Friend;
    create.color = core::Color::White;
    rig.lobby.post([&] { rig.lobby.create(create, ann_id, rig.peer_ptr(ann), std::nullopt); });
    const Json st = rig.wait(ann, [](const Json& j) { return j["type"] == "state"; });
    const std::string invite =
        rig.wait(ann, [](const Json& j) { return j["type"] == "created"; })["invite"];
    const std::string id = st["game"];
    const GameRequest join{id, std::nullopt, JoinRequest{id, hash_secret(invite), {}}};
    rig.lobby.post([&] { rig.lobby.dispatch(join, bob_id, rig.peer_ptr(bob)); });
    rig.wait(bob, [](const Json& j) {
        return j.contains("state") && j["state"].is_object() && j["state"]["status"] == "playing";
    });
    const auto say = [&](const std::string& text) {
        GameCommand c;
        c.kind = CommandKind::Chat;
        c.text = text;
        const GameRequest m{st["game"].get<std::string>(), 9, c};
        const auto seen = ann.messages().size();
        rig.lobby.post(
            [&rig, m, ann_id, p = rig.peer_ptr(ann)] { rig.lobby.dispatch(m, ann_id, p); });
        return rig.wait(
            ann,
            [](const Json& j) {
                return j["type"] == "error" ||
                       (j["type"] == "event" && j["event"]["kind"] == "chat");
            },
            seen);
    };
    rig.failing->store(true);
    for (int i = 0; i < 5; ++i) {
        EXPECT_EQ(say("hello " + std::to_string(i))["code"], "store_unavailable");
    }
    rig.failing->store(false);
    const Json said = say("hello again");
    ASSERT_EQ(said["type"], "event") << said.dump();
    EXPECT_EQ(said["state"]["chat"].size(), 1U) << said.dump();
}

TEST(RoomFailures, AThrowingRoomJobIsLoggedAndTheServerCarriesOn) {
    Rig rig;
    rig.svc.lobby = &rig.lobby;
    FakePeer& ann = rig.new_peer();
    FakePeer& bob = rig.new_peer();
    const Identity a{"gann", "Ann", std::nullopt};
    const Identity b{"gbob", "Bob", std::nullopt};
    const Json game_a = rig.hotseat(ann, a);
    const Json game_b = rig.hotseat(bob, b);
    std::shared_ptr<Room> room_a;
    rig.lobby.post([&] {
        rig.lobby.with_room(game_a["game"].get<std::string>(),
                            [&](std::shared_ptr<Room> r) { room_a = r; });
    });
    rig.wait(ann, [&](const Json&) { return room_a != nullptr; });
    ASSERT_NE(room_a, nullptr);

    testing::internal::CaptureStderr();
    room_a->post([] { throw std::runtime_error("a bug in a room job"); });
    rig.ioc.restart();
    EXPECT_NO_THROW(rig.ioc.poll());  // the exception stops at the room job
    const std::string log = testing::internal::GetCapturedStderr();
    EXPECT_NE(log.find("room " + game_a["game"].get<std::string>()), std::string::npos) << log;
    EXPECT_NE(log.find("a bug in a room job"), std::string::npos) << log;

    // Both games play on, the one whose job threw too.
    rig.wait(
        ann, [](const Json& j) { return is_event_at(j, 1); }, rig.move(ann, a, game_a));
    rig.wait(
        bob, [](const Json& j) { return is_event_at(j, 1); }, rig.move(bob, b, game_b));
}

}  // namespace
}  // namespace papan::server
