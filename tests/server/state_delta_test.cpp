// Events as deltas (docs/protocol.md, "Game state"): a client's side of them (the load tool's
// apply_state_delta, written apart from the server's codec), and the real `papan serve`: after
// one full state a move costs the same few bytes at ply 100 as at ply 10, and the state a client
// builds from the deltas is the state the server sends whole.
#include "harness.hpp"

#include <papan/loadtest/state_delta.hpp>

#include <gtest/gtest.h>

#include <map>

namespace papan::test {
namespace {

using papan::loadtest::apply_state_delta;
using papan::loadtest::GameFrame;
using papan::loadtest::take_game_frame;

Json move_json(int ply) {
    return {{"ply", ply}, {"text", std::to_string(ply)}, {"path", {ply, ply + 4}}};
}

Json sample_state(int plies, Json clock = nullptr) {
    Json moves = Json::array();
    for (int i = 0; i < plies; ++i) {
        moves.push_back(move_json(i));
    }
    return {{"id", "g1"},
            {"version", plies + 1},
            {"ply", plies},
            {"turn", plies % 2 == 0 ? "white" : "black"},
            {"moves", moves},
            {"players", {{"white", {{"name", "Ann"}}}, {"black", nullptr}}},
            {"clock", clock},
            {"result", nullptr}};
}

TEST(StateDelta, AMoveAddsToTheListAndChangesTheFieldsItNames) {
    const Json before = sample_state(40);
    const Json after  = sample_state(41);
    const Json d      = {{"version", 42},
                         {"ply", 41},
                         {"turn", "black"},
                         {"moves_keep", 40U},
                         {"moves_add", Json::array({move_json(40)})}};
    Json built        = before;
    ASSERT_TRUE(apply_state_delta(built, d));
    EXPECT_EQ(built, after);
}

TEST(StateDelta, AnUndoCutsTheList) {
    const Json before = sample_state(30);
    const Json after  = sample_state(28);
    const Json d      = {{"version", 29},
                         {"ply", 28},
                         {"turn", "white"},
                         {"moves_keep", 28U},
                         {"moves_add", Json::array()}};
    Json built        = before;
    ASSERT_TRUE(apply_state_delta(built, d));
    EXPECT_EQ(built, after);
    Json half = d;  // moves_keep without moves_add does not fit
    half.erase("moves_add");
    built = before;
    EXPECT_FALSE(apply_state_delta(built, half));
}

TEST(StateDelta, AClientTakesFramesInOrderAndReportsGaps) {
    Json have;
    const Json s3 = sample_state(3);
    EXPECT_EQ(
        take_game_frame(have, {{"type", "state"}, {"game", "g1"}, {"version", 4}, {"state", s3}}),
        GameFrame::Applied);
    const Json d = {{"version", 5},
                    {"ply", 4},
                    {"turn", "white"},
                    {"moves_keep", 3U},
                    {"moves_add", Json::array({move_json(3)})}};
    EXPECT_EQ(
        take_game_frame(have, {{"type", "event"}, {"game", "g1"}, {"version", 6}, {"delta", d}}),
        GameFrame::Gap);
    EXPECT_EQ(
        take_game_frame(have, {{"type", "event"}, {"game", "g1"}, {"version", 5}, {"delta", d}}),
        GameFrame::Applied);
    EXPECT_EQ(have, sample_state(4));
    EXPECT_EQ(
        take_game_frame(have, {{"type", "event"}, {"game", "g1"}, {"version", 5}, {"delta", d}}),
        GameFrame::Old);
    Json bad          = d;
    bad["moves_keep"] = 50;  // beyond the list
    EXPECT_EQ(
        take_game_frame(have, {{"type", "event"}, {"game", "g1"}, {"version", 6}, {"delta", bad}}),
        GameFrame::Gap);
    EXPECT_EQ(have, sample_state(4));  // unchanged by a delta that does not fit
    Json other;                        // another game's delta never applies to this state
    EXPECT_EQ(
        take_game_frame(other, {{"type", "event"}, {"game", "g2"}, {"version", 1}, {"delta", d}}),
        GameFrame::Gap);
}

// Hot-seat International games of seeded moves until one reaches ply 100: every move event is a
// delta without the move list, a move costs about as much at ply 100 as at ply 10, an undo cuts
// the list, and the state built from the deltas equals the one a fresh resume sends whole.
TEST(StateDeltaServer, MovesCostTheSameLateAsEarlyAndBuildTheServersState) {
    TempDir dir;
    ServerProcess server(dir.path(), {"--ws-rate", "0", "--creates-per-ip", "0"});
    WsClient c(server.port());
    c.hello("Delta");
    std::uint64_t seed = 7;
    for (int attempt = 0; attempt < 30; ++attempt) {
        Json st                = c.create({{"mode", "hotseat"}, {"variant", "international"}});
        const std::string game = st["game"];
        std::map<int, std::size_t> bytes;
        while (st["state"]["status"] == "playing" && st["state"]["ply"].get<int>() < 100) {
            const auto& legal = st["state"]["legal_moves"];
            seed              = seed * 6364136223846793005ULL + 1442695040888963407ULL;
            const auto pick   = static_cast<std::size_t>((seed >> 33) % legal.size());
            c.send(path_move(game, st["state"]["ply"], legal[pick]["path"]));
            st = c.recv_until([&](const Json& j) {
                return (j["type"] == "event" || j["type"] == "error") &&
                       j.value("game", game) == game;
            });
            ASSERT_EQ(st["type"], "event") << st.dump();
            ASSERT_TRUE(st.contains("delta")) << "a move event carries a delta";
            ASSERT_FALSE(st["delta"].contains("moves"));
            ASSERT_FALSE(st["state"].is_null()) << "the delta did not fit the state before it";
            EXPECT_EQ(st["delta"]["moves_add"].size(), 1U);
            bytes[st["state"]["ply"].get<int>()] = c.last_bytes;
        }
        if (st["state"]["ply"].get<int>() < 100) {
            continue;  // ended early: the next game
        }
        EXPECT_LT(bytes.at(100), 2 * bytes.at(10) + 1000)
            << "ply 10: " << bytes.at(10) << " B, ply 100: " << bytes.at(100) << " B";
        EXPECT_LT(bytes.at(100), 4000U);  // the whole state with 100 moves is over 8 KB
        c.send(Json{{"type", "undo"}, {"game", game}});
        st = c.recv_until([&](const Json& j) { return j["type"] == "event" && j["game"] == game; });
        EXPECT_EQ(st["event"]["kind"], "undo");
        EXPECT_EQ(st["delta"]["moves_keep"], 99);
        EXPECT_EQ(st["delta"]["moves_add"], Json::array());
        EXPECT_EQ(st["state"]["moves"].size(), 99U);
        WsClient fresh(server.port());
        fresh.hello("Watcher");
        fresh.send(Json{{"type", "resume"}, {"game", game}});
        const Json whole = fresh.recv_until(
            [&](const Json& j) { return j["type"] == "state" && j["game"] == game; });
        EXPECT_EQ(whole["state"], st["state"]);
        return;
    }
    FAIL() << "no game reached ply 100 in 30 tries";
}

}  // namespace
}  // namespace papan::test
