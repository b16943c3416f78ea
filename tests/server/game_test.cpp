// Integration tests: the real `papan serve` binary on a free port, driven over real WebSockets.
#include "server_test.hpp"

#include <gtest/gtest.h>

#include <map>
#include <regex>
#include <set>
#include <thread>

namespace papan::test {
namespace {

using namespace std::chrono_literals;

TEST_F(ServerTest, FullGameAgainstTheComputerToAResult) {
    start();
    auto c                 = client("Ann");
    Json st                = c->create({{"mode", "computer"},
                                        {"variant", "american"},
                                        {"level", "easy"},
                                        {"color", "black"}});  // Black moves first in American checkers
    const std::string game = st["game"];
    EXPECT_EQ(st["state"]["players"]["white"]["computer"], true);
    for (int i = 0; i < 400 && !is_over(st["state"]); ++i) {
        const Json s = st["state"];
        if (s["turn"] == "black") {
            // The last legal move, so the two players do not mirror each other.
            c->send(move_msg(st, s["legal_moves"].size() - 1));
            st = c->wait_version(game, s["version"].get<std::int64_t>() + 1);
        } else {
            st = c->wait_state(
                game, [](const Json& x) { return x["turn"] == "black" || x["status"] == "over"; });
        }
    }
    ASSERT_TRUE(is_over(st["state"])) << st.dump();
    EXPECT_FALSE(st["state"]["result"]["text"].get<std::string>().empty());
    EXPECT_GT(st["state"]["moves"].size(), 4U);
}

TEST_F(ServerTest, UndoAgainstTheComputerTakesBackBothMoves) {
    start();
    auto c  = client("Ann");
    Json st = c->create({{"mode", "computer"}, {"variant", "international"}, {"level", "easy"}});
    const std::string game = st["game"];
    c->send(move_msg(st));
    st = c->wait_state(game, [](const Json& s) { return s["ply"] == 2; });
    EXPECT_EQ(st["state"]["undo_allowed"], true);
    c->send(Json{{"type", "undo"}, {"game", game}});
    st = c->wait_state(game, [](const Json& s) { return s["ply"] == 0; });
    EXPECT_EQ(st["event"]["kind"], "undo");
    EXPECT_EQ(st["state"]["turn"], "white");
    EXPECT_EQ(st["state"]["undo_allowed"], false);
    // Undo is for games against the computer only; nothing left to undo here either.
    c->send(Json{{"type", "undo"}, {"game", game}});
    const Json e = c->recv_until([](const Json& j) { return j["type"] == "error"; });
    EXPECT_EQ(e["code"], "nothing_to_undo");
}

TEST_F(ServerTest, HotseatUndoTakesBackOnePly) {
    start();
    auto c                 = client("Ann");
    Json st                = c->create({{"mode", "hotseat"}, {"variant", "russian"}});
    const std::string game = st["game"];
    EXPECT_EQ(st["state"]["undo_allowed"], false);
    c->send(move_msg(st));
    st = c->wait_state(game, [](const Json& s) { return s["ply"] == 1; });
    c->send(move_msg(st));
    st = c->wait_state(game, [](const Json& s) { return s["ply"] == 2; });
    EXPECT_EQ(st["state"]["undo_allowed"], true);
    c->send(Json{{"type", "undo"}, {"game", game}});
    st = c->wait_state(game, [](const Json& s) { return s["ply"] == 1; });
    EXPECT_EQ(st["event"]["kind"], "undo");
    EXPECT_EQ(st["event"]["plies"], 1);
    EXPECT_EQ(st["state"]["turn"], "black");
    c->send(Json{{"type", "undo"}, {"game", game}});
    st = c->wait_state(game, [](const Json& s) { return s["ply"] == 0; });
    EXPECT_EQ(st["state"]["undo_allowed"], false);
    c->send(Json{{"type", "undo"}, {"game", game}});
    EXPECT_EQ(c->recv_until([](const Json& j) { return j["type"] == "error"; })["code"],
              "nothing_to_undo");
    // Resigned: undo does not reopen the game.
    c->send(move_msg(st));
    c->wait_state(game, [](const Json& s) { return s["ply"] == 1; });
    c->send(Json{{"type", "resign"}, {"game", game}});
    st = c->wait_state(game, is_over);
    EXPECT_EQ(st["state"]["undo_allowed"], false);
    c->send(Json{{"type", "undo"}, {"game", game}});
    EXPECT_EQ(c->recv_until([](const Json& j) { return j["type"] == "error"; })["code"],
              "game_over");
}

TEST_F(ServerTest, UndoIsNotForGamesBetweenPeople) {
    start();
    auto a                 = client("Ann");
    auto b                 = client("Bob");
    const std::string game = friend_game(*a, *b);
    Json st = a->wait_state(game, [](const Json& s) { return s["status"] == "playing"; });
    a->send(move_msg(st));
    st = a->wait_state(game, [](const Json& s) { return s["ply"] == 1; });
    EXPECT_EQ(st["state"]["undo_allowed"], false);
    a->send(Json{{"type", "undo"}, {"game", game}});
    EXPECT_EQ(a->recv_until([](const Json& j) { return j["type"] == "error"; })["code"],
              "undo_not_allowed");
}

// Takebacks between people (docs/protocol.md, "Takebacks"): asked, declined, accepted (one ply,
// or two once the opponent answered), answered by a move, and refused where they do not belong.
TEST_F(ServerTest, TakebackAskedDeclinedAndAcceptedBetweenFriends) {
    start();
    auto a                 = client("Ann");
    auto b                 = client("Bob");
    const std::string game = friend_game(*a, *b);
    const auto error_of    = [](WsClient& w) {
        return w.recv_until([](const Json& j) { return j["type"] == "error"; })["code"];
    };
    const auto event_of = [&](WsClient& w, const std::string& kind) {
        return w.recv_until([&](const Json& j) {
            return j["type"] == "event" && j["game"] == game && j["event"]["kind"] == kind;
        });
    };
    // The next move event reaching ply `ply` (never a message read before: wait_state would
    // take the last one read, which may be from before a takeback).
    const auto moved_to = [&](WsClient& w, int ply) {
        return w.recv_until([&](const Json& j) {
            return j["type"] == "event" && j["game"] == game && j["event"]["kind"] == "move" &&
                   j["state"]["ply"] == ply;
        });
    };
    const auto ask = [&](WsClient& w, const char* type) {
        w.send(Json{{"type", type}, {"game", game}});
    };
    Json st = a->wait_state(game, [](const Json& s) { return s["status"] == "playing"; });
    EXPECT_TRUE(st["state"]["takeback_offer"].is_null());
    ask(*a, "takeback_offer");
    EXPECT_EQ(error_of(*a), "nothing_to_undo");
    a->send(move_msg(st));
    st = moved_to(*b, 1);
    ask(*b, "takeback_offer");  // Bob has not moved
    EXPECT_EQ(error_of(*b), "nothing_to_undo");
    ask(*b, "takeback_accept");
    EXPECT_EQ(error_of(*b), "no_takeback_offer");

    ask(*a, "takeback_offer");
    Json ev = event_of(*b, "takeback_offer");
    EXPECT_EQ(ev["event"]["by"], "white");
    EXPECT_EQ(ev["state"]["takeback_offer"], "white");
    ask(*a, "takeback_offer");
    EXPECT_EQ(error_of(*a), "already_offered");
    ask(*a, "takeback_accept");  // not one's own request
    EXPECT_EQ(error_of(*a), "no_takeback_offer");
    ask(*b, "takeback_decline");
    ev = event_of(*a, "takeback_decline");
    EXPECT_EQ(ev["event"]["by"], "black");
    EXPECT_TRUE(ev["state"]["takeback_offer"].is_null());
    EXPECT_EQ(ev["state"]["ply"], 1);

    ask(*a, "takeback_offer");
    event_of(*b, "takeback_offer");
    ask(*b, "takeback_accept");
    ev = event_of(*a, "undo");
    EXPECT_EQ(ev["event"]["plies"], 1);
    EXPECT_EQ(ev["event"]["by"], "black");
    EXPECT_EQ(ev["state"]["ply"], 0);
    EXPECT_EQ(ev["state"]["turn"], "white");
    EXPECT_TRUE(ev["state"]["takeback_offer"].is_null());

    // Ann moves, Bob answers: Ann's takeback takes back both.
    a->send(move_msg(ev));
    st = moved_to(*b, 1);
    b->send(move_msg(st));
    st = moved_to(*a, 2);
    ask(*a, "takeback_offer");
    event_of(*b, "takeback_offer");
    ask(*b, "takeback_accept");
    ev = event_of(*a, "undo");
    EXPECT_EQ(ev["event"]["plies"], 2);
    EXPECT_EQ(ev["state"]["ply"], 0);
    EXPECT_EQ(ev["state"]["moves"].size(), 0U);

    // A move answers a request: Ann asks, Bob plays on instead.
    a->send(move_msg(ev));
    st = moved_to(*b, 1);
    ask(*a, "takeback_offer");
    event_of(*b, "takeback_offer");
    b->send(move_msg(st));
    st = moved_to(*a, 2);
    EXPECT_TRUE(st["state"]["takeback_offer"].is_null());
    ask(*b, "takeback_accept");
    EXPECT_EQ(error_of(*b), "no_takeback_offer");
}

TEST_F(ServerTest, TakebackIsNotForComputerOrHotSeatGames) {
    start();
    auto c  = client("Ann");
    Json st = c->create({{"mode", "hotseat"}, {"variant", "russian"}});
    c->send(move_msg(st));
    c->wait_state(st["game"], [](const Json& s) { return s["ply"] == 1; });
    c->send(Json{{"type", "takeback_offer"}, {"game", st["game"]}});
    EXPECT_EQ(c->recv_until([](const Json& j) { return j["type"] == "error"; })["code"],
              "takeback_not_allowed");
    st = c->create({{"mode", "computer"}, {"variant", "russian"}, {"level", "easy"}});
    c->send(Json{{"type", "takeback_offer"}, {"game", st["game"]}});
    EXPECT_EQ(c->recv_until([](const Json& j) { return j["type"] == "error"; })["code"],
              "takeback_not_allowed");
}

// Chat (docs/protocol.md, "Chat"): the players of a friend game write, a spectator reads; lines
// are cleaned as nicknames are, at most 200 characters, 5 per 10 s per player; the event's delta
// carries the new line (chat_add), and the lines are stored with the game (a restart keeps them).
TEST_F(ServerTest, ChatBetweenFriendsIsSentLimitedAndStored) {
    start();
    auto a                 = client("Ann");
    auto b                 = client("Bob");
    const std::string game = friend_game(*a, *b);
    auto carl              = client("Carl");
    carl->send(Json{{"type", "resume"}, {"game", game}});
    Json st = carl->recv_until([&](const Json& j) { return j["type"] == "state"; });
    ASSERT_TRUE(st["state"]["chat"].is_array());
    EXPECT_EQ(st["state"]["chat"].size(), 0U);
    const auto error_of = [](WsClient& w) {
        return w.recv_until([](const Json& j) { return j["type"] == "error"; })["code"];
    };
    const auto chat_event = [&](WsClient& w) {
        return w.recv_until([&](const Json& j) {
            return j["type"] == "event" && j["game"] == game && j["event"]["kind"] == "chat";
        });
    };
    const auto say = [&](WsClient& w, const std::string& text) {
        w.send(Json{{"type", "chat"}, {"game", game}, {"text", text}});
    };

    say(*a, "  good luck!  ");
    for (WsClient* w : {b.get(), carl.get(), a.get()}) {
        const Json ev = chat_event(*w);
        EXPECT_EQ(ev["event"]["by"], "white");
        EXPECT_EQ(ev["event"]["text"], "good luck!");
        EXPECT_TRUE(ev["event"]["time_ms"].is_number_integer());
        EXPECT_FALSE(ev["delta"].contains("chat")) << ev["delta"].dump();
        ASSERT_EQ(ev["delta"]["chat_add"].size(), 1U) << ev["delta"].dump();
        ASSERT_EQ(ev["state"]["chat"].size(), 1U);
        EXPECT_EQ(ev["state"]["chat"][0]["by"], "white");
        EXPECT_EQ(ev["state"]["chat"][0]["ply"], 0);
        EXPECT_EQ(ev["state"]["chat"][0]["text"], "good luck!");
    }
    say(*carl, "hello");  // spectators read only
    EXPECT_EQ(error_of(*carl), "not_your_game");
    say(*b, "\u202Egg\u200B\n");  // a bidi override, an invisible character, a newline
    EXPECT_EQ(chat_event(*a)["event"]["text"], "gg");
    say(*b, " \u200B\t ");
    EXPECT_EQ(error_of(*b), "chat_empty");
    std::string longest;
    for (int i = 0; i < 200; ++i) {
        longest += "\u00E9";  // 200 characters, 400 bytes
    }
    say(*b, longest + "\u00E9");
    EXPECT_EQ(error_of(*b), "chat_too_long");
    say(*b, " " + longest + " ");
    EXPECT_EQ(chat_event(*a)["event"]["text"], longest);

    // Ann has written one line: four more pass, the sixth within 10 s does not.
    for (int i = 2; i <= 5; ++i) {
        say(*a, "line " + std::to_string(i));
        EXPECT_EQ(chat_event(*a)["event"]["text"], "line " + std::to_string(i));
    }
    say(*a, "line 6");
    EXPECT_EQ(error_of(*a), "chat_rate");
    a->send(move_msg(st));  // a move does not lose the chat
    st = b->wait_state(game, [](const Json& s) { return s["ply"] == 1; });
    EXPECT_EQ(st["state"]["chat"].size(), 7U);
    EXPECT_FALSE(st["delta"].contains("chat_add")) << st["delta"].dump();

    a.reset();
    b.reset();
    carl.reset();
    server.reset();
    start();
    auto d = client("Dan");
    d->send(Json{{"type", "resume"}, {"game", game}});
    st = d->recv_until([&](const Json& j) { return j["type"] == "state"; });
    ASSERT_EQ(st["state"]["chat"].size(), 7U) << st.dump();
    EXPECT_EQ(st["state"]["chat"][0]["text"], "good luck!");
    EXPECT_EQ(st["state"]["chat"][1]["by"], "black");
    EXPECT_EQ(st["state"]["chat"][2]["text"], longest);
    EXPECT_EQ(st["state"]["chat"][6]["text"], "line 5");
}

TEST_F(ServerTest, ChatIsNotForComputerOrHotSeatGames) {
    start();
    auto c = client("Ann");
    for (const Json& create :
         {Json{{"mode", "hotseat"}, {"variant", "russian"}},
          Json{{"mode", "computer"}, {"variant", "russian"}, {"level", "easy"}}}) {
        const Json st = c->create(create);
        EXPECT_FALSE(st["state"].contains("chat")) << st.dump();
        c->send(Json{{"type", "chat"}, {"game", st["game"]}, {"text", "hi"}});
        EXPECT_EQ(c->recv_until([](const Json& j) { return j["type"] == "error"; })["code"],
                  "chat_not_allowed");
    }
}

TEST_F(ServerTest, UndoWhileTheComputerThinksCancelsItsMove) {
    start({"--ai-nodes", "50000000"});
    auto c  = client("Ann");
    Json st = c->create({{"mode", "computer"}, {"variant", "international"}, {"level", "hard"}});
    const std::string game = st["game"];
    c->send(move_msg(st));
    c->wait_state(game, [](const Json& s) { return s["ply"] == 1; });
    c->send(Json{{"type", "undo"}, {"game", game}});
    st = c->wait_state(game, [](const Json& s) { return s["ply"] == 0; });
    EXPECT_EQ(st["event"]["plies"], 1);
    // The search that was running is ignored when it ends: nothing is played.
    std::this_thread::sleep_for(3500ms);
    c->send(Json{{"type", "resume"}, {"game", game}});
    st = c->recv_until([&](const Json& j) { return j["type"] == "state" && j["game"] == game; });
    EXPECT_EQ(st["state"]["ply"], 0);
    EXPECT_EQ(st["state"]["turn"], "white");
}

TEST_F(ServerTest, RematchSwapsColours) {
    start();
    auto c  = client("Ann");
    Json st = c->create({{"mode", "computer"}, {"variant", "brazilian"}, {"color", "white"}});
    const std::string game = st["game"];
    const Json me          = st["state"]["players"]["white"]["id"];
    c->send(Json{{"type", "resign"}, {"game", game}});
    st = c->wait_state(game, is_over);
    EXPECT_EQ(st["state"]["result"]["outcome"], "black_wins");
    EXPECT_EQ(st["state"]["result"]["reason"], "resignation");
    c->send(Json{{"type", "rematch"}, {"game", game}});
    const Json next =
        c->recv_until([&](const Json& j) { return j["type"] == "state" && j["game"] != game; });
    EXPECT_EQ(next["state"]["players"]["black"]["id"], me);
    EXPECT_EQ(next["state"]["players"]["white"]["computer"], true);
    // The computer (now white) opens the new game.
    c->wait_state(next["game"], [](const Json& s) { return s["ply"] == 1; });
}

TEST_F(ServerTest, FriendGameByLinkEndsByResignation) {
    start();
    auto a                 = client("Ann");
    auto b                 = client("Bob");
    const std::string game = friend_game(*a, *b);
    Json st                = a->wait_state(game, [](const Json&) { return true; });
    a->send(move_msg(st));
    st = b->wait_state(game, [](const Json& s) { return s["ply"] == 1; });
    b->send(Json{{"type", "resign"}, {"game", game}});
    st = a->wait_state(game, is_over);
    EXPECT_EQ(st["state"]["result"]["outcome"], "white_wins");
    EXPECT_EQ(st["event"]["kind"], "resign");
    // PDN of the finished game.
    const auto pdn = http_request(server->port(), "GET", "/api/games/" + game + "/pdn");
    EXPECT_EQ(pdn.status, 200U);
    EXPECT_NE(pdn.body.find("[White \"Ann\"]"), std::string::npos) << pdn.body;
    EXPECT_NE(pdn.body.find("2-0"), std::string::npos) << pdn.body;
    // A rematch between people starts when both ask; colours swap, the clocks start afresh.
    a->send(Json{{"type", "rematch"}, {"game", game}});
    b->recv_until([](const Json& j) {
        return j["type"] == "event" && j["event"]["kind"] == "rematch_offer";
    });
    b->send(Json{{"type", "rematch"}, {"game", game}});
    const Json next =
        a->recv_until([&](const Json& j) { return j["type"] == "state" && j["game"] != game; });
    EXPECT_EQ(next["state"]["players"]["white"]["name"], "Bob");
    EXPECT_EQ(next["state"]["players"]["black"]["name"], "Ann");
    EXPECT_EQ(next["state"]["status"], "playing");
    EXPECT_GT(next["state"]["clock"]["white"]["main_ms"].get<std::int64_t>(), 290'000);
    const auto is_rematch = [&](const Json& j) {
        return j["type"] == "event" && j["game"] == game && j["event"]["kind"] == "rematch";
    };
    Json ev;
    for (const auto& j : a->seen) {
        if (is_rematch(j)) {
            ev = j;
        }
    }
    if (ev.is_null()) {
        ev = a->recv_until(is_rematch);
    }
    EXPECT_EQ(ev["event"]["kind"], "rematch");
    EXPECT_EQ(ev["event"]["game"], next["game"]);
}

TEST_F(ServerTest, FriendGameEndsByDrawAgreement) {
    start();
    auto a                 = client("Ann");
    auto b                 = client("Bob");
    const std::string game = friend_game(*a, *b);
    a->send(Json{{"type", "draw_offer"}, {"game", game}});
    b->wait_state(game, [](const Json& s) { return s["draw_offer"] == "white"; });
    b->send(Json{{"type", "draw_accept"}, {"game", game}});
    const Json st = a->wait_state(game, is_over);
    EXPECT_EQ(st["state"]["result"]["outcome"], "draw");
    EXPECT_EQ(st["state"]["result"]["reason"], "agreement");
}

TEST_F(ServerTest, FriendGameEndsByADrawRule) {
    start();
    auto a = client("Ann");
    auto b = client("Bob");
    // American checkers, two lone kings far apart: they shuttle until threefold repetition.
    const std::string game =
        friend_game(*a, *b, {{"variant", "american"}, {"fen", "W:WK32:BK1"}, {"clock", nullptr}});
    Json st = a->wait_state(game, [](const Json&) { return true; });
    std::map<std::string, Json> home;
    home["white"] = Json::array({32});
    home["black"] = Json::array({1});
    for (int i = 0; i < 40 && !is_over(st["state"]); ++i) {
        const Json s           = st["state"];
        const std::string turn = s["turn"];
        WsClient& mover        = turn == "white" ? *a : *b;
        const int at           = s["position"][turn + "_kings"][0];
        Json path;
        if (at == home[turn][0]) {
            path = s["legal_moves"][0]["path"];
        } else {
            path = Json::array({at, home[turn][0]});
        }
        mover.send(path_move(game, s["ply"], path));
        st = mover.wait_version(game, s["version"].get<std::int64_t>() + 1);
        if (!s["move_limits"].empty()) {
            EXPECT_TRUE(s["move_limits"][0].contains("moves_left"));
        }
    }
    ASSERT_TRUE(is_over(st["state"])) << st.dump();
    EXPECT_EQ(st["state"]["result"]["outcome"], "draw");
    EXPECT_EQ(st["state"]["result"]["reason"], "repetition");
}

// The friend who opens the link names their seat with the join, cleaned as
// a hello's nickname is; without a name the hello's nickname stays.
TEST_F(ServerTest, TheJoiningFriendNamesTheirSeat) {
    start();
    auto a  = client("Ann");
    auto b  = client("Bob");
    Json st = a->create({{"mode", "friend"}, {"variant", "russian"}, {"color", "white"}});
    const std::string game = st["game"];
    b->send(
        Json{{"type", "join"}, {"invite", st["created"]["invite"]}, {"name", "  Budi\u202e  "}});
    const Json seated = a->wait_state(game, [](const Json& s) { return s["status"] == "playing"; });
    EXPECT_EQ(seated["state"]["players"]["black"]["name"], "Budi");
    EXPECT_EQ(seated["state"]["players"]["white"]["name"], "Ann");
    auto c = client("Carl");
    auto d = client("Dewi");
    st     = c->create({{"mode", "friend"}, {"variant", "russian"}, {"color", "white"}});
    d->send(Json{{"type", "join"}, {"invite", st["created"]["invite"]}});
    const Json plain =
        c->wait_state(st["game"], [](const Json& s) { return s["status"] == "playing"; });
    EXPECT_EQ(plain["state"]["players"]["black"]["name"], "Dewi");
}

TEST_F(ServerTest, FriendGameEndsByTime) {
    start();
    auto a                 = client("Ann");
    auto b                 = client("Bob");
    const std::string game = friend_game(
        *a, *b, {{"clock", {{"kind", "byoyomi"}, {"main", 1}, {"periods", 1}, {"period", 1}}}});
    Json st = a->wait_state(game, [](const Json&) { return true; });
    EXPECT_EQ(st["state"]["clock"]["running"], nullptr);  // each side's first move is not timed
    a->send(move_msg(st));
    st = b->wait_state(game, [](const Json& s) { return s["ply"] == 1; });
    b->send(move_msg(st));
    st = a->wait_state(game, [](const Json& s) { return s["ply"] == 2 || is_over(s); });
    EXPECT_EQ(st["state"]["clock"]["running"], "white");  // White's clock runs from Black's move
    st = b->wait_state(game, is_over);
    EXPECT_EQ(st["state"]["result"]["outcome"], "black_wins");
    EXPECT_EQ(st["state"]["result"]["reason"], "timeout");
}

TEST_F(ServerTest, ReconnectAndResumeWithLastVersion) {
    start();
    auto a                   = client("Ann");
    const Json hello         = a->seen.back();
    const std::string secret = hello["secret"];
    auto b                   = client("Bob");
    const std::string game   = friend_game(*a, *b);
    Json st                  = a->wait_state(game, [](const Json&) { return true; });
    const auto last          = st["version"].get<std::int64_t>();
    a.reset();  // Ann drops
    b->send(Json{{"type", "draw_offer"}, {"game", game}});
    b->wait_version(game, last + 1);
    auto again = client("Ann", secret);
    again->know(st);  // the browser kept the state it had
    again->send(Json{{"type", "resume"}, {"game", game}, {"last_version", last}});
    // Not the presence messages: Ann's return is told too when the room had seen her away.
    const auto of_game = [&](const Json& j) {
        return j["game"] == game && j["type"] != "presence";
    };
    const Json missed = again->recv_until(of_game);
    EXPECT_EQ(missed["type"], "event");
    EXPECT_EQ(missed["version"], last + 1);
    EXPECT_EQ(missed["event"]["kind"], "draw_offer");
    // Same identity: Ann can play on.
    again->send(Json{{"type", "draw_decline"}, {"game", game}});
    again->wait_state(game, [](const Json& s) { return s["draw_offer"].is_null(); });
    // Without a version: the full state.
    auto c = client("Carl");
    c->send(Json{{"type", "resume"}, {"game", game}});
    const Json full = c->recv_until(of_game);
    EXPECT_EQ(full["type"], "state");
}

TEST_F(ServerTest, HotSeatOnePlayerBothSides) {
    start();
    auto a                 = client("Ann");
    Json st                = a->create({{"mode", "hotseat"}, {"variant", "turkish"}});
    const std::string game = st["game"];
    for (int i = 0; i < 4; ++i) {
        a->send(move_msg(st));
        st = a->wait_version(game, st["version"].get<std::int64_t>() + 1);
    }
    EXPECT_EQ(st["state"]["ply"], 4);
    Json stale   = move_msg(st, 0);
    stale["ply"] = 1;
    a->send(stale);
    const Json e = a->recv_until([](const Json& j) { return j["type"] == "error"; });
    EXPECT_EQ(e["code"], "stale_ply");
}

TEST_F(ServerTest, RandomPairingWithAWaitingOpponent) {
    start({"--pairing-wait", "30"});
    auto a = client("Ann");
    auto b = client("Bob");
    a->send(Json{{"type", "seek"}, {"variant", "russian"}});
    a->recv_until([](const Json& j) { return j["type"] == "seeking"; });
    b->send(Json{{"type", "seek"}, {"variant", "russian"}});
    const Json pa = a->recv_until([](const Json& j) { return j["type"] == "paired"; });
    const Json pb = b->recv_until([](const Json& j) { return j["type"] == "paired"; });
    EXPECT_EQ(pa["game"], pb["game"]);
    EXPECT_EQ(pa["computer"], false);  // a person: no level
    EXPECT_FALSE(pa.contains("level"));
    const Json st = a->wait_state(pa["game"], [](const Json&) { return true; });
    EXPECT_EQ(st["state"]["mode"], "random");
    EXPECT_EQ(st["state"]["players"]["white"]["computer"], false);
    EXPECT_EQ(st["state"]["players"]["black"]["computer"], false);
    EXPECT_FALSE(st["state"]["players"]["black"].contains("level"));
    EXPECT_EQ(st["state"]["clock"]["time_control"]["main"], 300.0);
    std::set<std::string> names{st["state"]["players"]["white"]["name"],
                                st["state"]["players"]["black"]["name"]};
    EXPECT_EQ(names, (std::set<std::string>{"Ann", "Bob"}));
}

TEST_F(ServerTest, RandomPairingWithNobodyWaitingGetsAComputer) {
    start({"--pairing-wait", "0.5"});
    auto a = client("Ann");
    a->send(Json{{"type", "seek"},
                 {"variant", "international"},
                 {"clock", {{"kind", "fischer"}, {"main", 60}, {"increment", 1}}}});
    const Json p     = a->recv_until([](const Json& j) { return j["type"] == "paired"; });
    Json st          = a->wait_state(p["game"], [](const Json&) { return true; });
    const bool white = st["state"]["players"]["white"]["name"] == "Ann";
    const Json opp   = st["state"]["players"][white ? "black" : "white"];
    // Shown as the computer, with its strength, before the board opens and on the board.
    EXPECT_EQ(p["computer"], true);
    EXPECT_EQ(p["level"], "normal");
    EXPECT_EQ(opp["computer"], true);
    EXPECT_EQ(opp["level"], "normal");
    EXPECT_EQ(opp["id"], "ai");
    EXPECT_EQ(opp["account"], false);
    EXPECT_NE(opp["name"], "Ann");
    EXPECT_EQ(st["state"]["rated"], false);
    EXPECT_FALSE(st["state"]["players"][white ? "white" : "black"].contains("level"));
    // The opponent moves.
    if (white) {
        a->send(move_msg(st));
    }
    a->wait_state(p["game"], [&](const Json& s) { return s["ply"].get<int>() >= (white ? 2 : 1); });
}

TEST_F(ServerTest, RatedGameMovesBothRatings) {
    start();
    const auto r1 = http_request(
        server->port(), "POST", "/api/register", R"({"username":"ann","password":"password1"})");
    const auto r2 = http_request(
        server->port(), "POST", "/api/register", R"({"username":"bob","password":"password2"})");
    ASSERT_EQ(r1.status, 201U) << r1.body;
    ASSERT_EQ(r2.status, 201U) << r2.body;
    auto a = std::make_unique<WsClient>(server->port());
    auto b = std::make_unique<WsClient>(server->port());
    EXPECT_EQ(a->hello_token(r1.json()["token"])["player"]["name"], "ann");
    EXPECT_EQ(b->hello_token(r2.json()["token"])["player"]["name"], "bob");
    const std::string game = friend_game(*a, *b, {{"rated", true}});
    // 16 plies, so both earn reward points (15 for the win, 5 for the loss).
    Json st = a->wait_state(game, [](const Json&) { return true; });
    for (int i = 0; i < 16; ++i) {
        WsClient& mover = st["state"]["turn"] == "white" ? *a : *b;
        mover.send(move_msg(st));
        st = mover.wait_version(game, st["version"].get<std::int64_t>() + 1);
    }
    b->send(Json{{"type", "resign"}, {"game", game}});
    // The ending's result carries both ratings, before and after.
    const Json over   = a->wait_state(game, is_over);
    const Json expect = {{"white", {{"before", 1200}, {"after", 1216}}},
                         {"black", {{"before", 1200}, {"after", 1184}}}};
    EXPECT_EQ(over["state"]["result"]["ratings"], expect) << over.dump();
    // So does a later state of the game.
    b->send(Json{{"type", "resume"}, {"game", game}});
    const Json later = b->recv_until([](const Json& j) { return j["type"] == "state"; });
    EXPECT_EQ(later["state"]["result"]["ratings"], expect) << later.dump();
    // The leaderboard without a variant names the variants with rated players.
    const auto variants = http_request(server->port(), "GET", "/api/leaderboard").json();
    EXPECT_EQ(variants, (Json{{"variants", {{{"variant", "international"}, {"players", 2}}}}}));
    Json board;
    for (int i = 0; i < 50; ++i) {
        board =
            http_request(server->port(), "GET", "/api/leaderboard?variant=international").json();
        if (board["players"].size() == 2) {
            break;
        }
        std::this_thread::sleep_for(100ms);
    }
    ASSERT_EQ(board["players"].size(), 2U) << board.dump();
    EXPECT_EQ(board["players"][0]["username"], "ann");
    EXPECT_EQ(board["players"][0]["rating"], 1216);
    EXPECT_EQ(board["players"][1]["rating"], 1184);
    const auto me = http_request(server->port(), "GET", "/api/me", "", r2.json()["token"]).json();
    EXPECT_EQ(me["ratings"]["international"]["rating"], 1184);
    EXPECT_EQ(me["reward_points"], 5);
    const auto me_a = http_request(server->port(), "GET", "/api/me", "", r1.json()["token"]).json();
    EXPECT_EQ(me_a["reward_points"], 15);
    const auto hist = http_request(server->port(), "GET", "/api/games?player=ann").json();
    ASSERT_EQ(hist["games"].size(), 1U);
    EXPECT_EQ(hist["games"][0]["id"], game);
    EXPECT_EQ(hist["games"][0]["rating_change"], 16);  // the list says what the game did
    const auto hist_b = http_request(server->port(), "GET", "/api/games?player=bob").json();
    EXPECT_EQ(hist_b["games"][0]["rating_change"], -16);
}

// A forged secret with the id of a real game that waits for its friend tells nothing about that
// game (it is invite_invalid, as for a game that does not exist, not invite_used), and the game
// still waits for its friend; the right link of a game that has started is invite_used.
TEST_F(ServerTest, AForgedInviteSaysNothingAboutTheGameItNames) {
    start();
    auto a           = client("Ann");
    auto b           = client("Bob");
    auto c           = client("Carl");
    const auto error = [](WsClient& w) {
        return w.recv_until([](const Json& j) { return j["type"] == "error"; });
    };
    const Json waiting    = a->create({{"mode", "friend"}});
    const std::string id  = waiting["game"];
    const std::string url = waiting["created"]["invite"];
    c->send(Json{{"type", "join"}, {"invite", id + "-0123456789abcdef0123456789abcdef"}});
    EXPECT_EQ(error(*c)["code"], "invite_invalid");
    c->send(Json{{"type", "join"}, {"invite", id + "-x"}});
    EXPECT_EQ(error(*c)["code"], "invite_invalid");
    c->send(
        Json{{"type", "join"}, {"invite", "ffffffffffffffff-0123456789abcdef0123456789abcdef"}});
    EXPECT_EQ(error(*c)["code"], "invite_invalid");
    b->send(Json{{"type", "join"}, {"invite", url}});
    const Json started = b->wait_state(id, [](const Json& s) { return s["status"] == "playing"; });
    EXPECT_EQ(started["state"]["players"]["black"]["name"], "Bob");
    c->send(Json{{"type", "join"}, {"invite", url}});
    EXPECT_EQ(error(*c)["code"], "invite_used");
}

TEST_F(ServerTest, BadInputGetsAClearErrorAndChangesNothing) {
    start({"--invite-ttl", "1"});
    auto a           = client("Ann");
    auto b           = client("Bob");
    auto c           = client("Carl");
    const auto error = [](WsClient& w) {
        return w.recv_until([](const Json& j) { return j["type"] == "error"; });
    };
    a->send_raw("{this is not json");
    EXPECT_EQ(error(*a)["code"], "bad_json");
    a->send(Json{{"type", "fly"}});
    EXPECT_EQ(error(*a)["code"], "unknown_type");

    const std::string game = friend_game(*a, *b);
    Json st                = a->wait_state(game, [](const Json&) { return true; });
    const auto v           = st["version"].get<std::int64_t>();
    a->send(path_move(game, 0, Json::array({31, 22})));
    Json e = error(*a);
    EXPECT_EQ(e["code"], "illegal_move");
    EXPECT_NE(e["message"].get<std::string>().find("not a legal move"), std::string::npos);
    b->send(move_msg(st));
    EXPECT_EQ(error(*b)["code"], "not_your_turn");
    c->send(move_msg(st));
    EXPECT_EQ(error(*c)["code"], "not_your_game");
    a->send(move_msg(st));
    st = a->wait_version(game, v + 1);
    a->send(path_move(game, 0, Json::array({32, 28})));  // ply 0 is over, with another move
    EXPECT_EQ(error(*a)["code"], "stale_ply");
    // A resend of the applied move is idempotent: the current state, nothing applied twice.
    a->send(path_move(game, 0, st["event"]["move"]["path"]));
    const Json again =
        a->recv_until([](const Json& j) { return j["type"] == "state" || j["type"] == "error"; });
    EXPECT_EQ(again["type"], "state");
    EXPECT_EQ(again["state"]["ply"], 1);
    EXPECT_EQ(again["version"], v + 1);
    a->send(path_move(game, 5, Json::array({32, 28})));
    EXPECT_EQ(error(*a)["code"], "bad_ply");
    // Forged and expired invitations.
    c->send(Json{{"type", "join"}, {"invite", "00000000000000000000000000000000"}});
    EXPECT_EQ(error(*c)["code"], "invite_invalid");

    const Json other = c->create({{"mode", "friend"}});
    std::this_thread::sleep_for(1500ms);
    b->send(Json{{"type", "join"}, {"invite", other["created"]["invite"]}});
    EXPECT_EQ(error(*b)["code"], "invite_expired");
    // Nothing changed in the first game.
    c->send(Json{{"type", "resume"}, {"game", game}});
    const Json now =
        c->recv_until([&](const Json& j) { return j["type"] == "state" && j["game"] == game; });
    EXPECT_EQ(now["state"]["ply"], 1);
    EXPECT_EQ(now["version"], v + 1);
    // An oversized frame closes the socket with 1009 (message too big).
    a->send_raw(std::string(70 * 1024, ' '));
    EXPECT_EQ(a->wait_close(), 1009);
}

TEST_F(ServerTest, KilledServerKeepsEveryAcknowledgedMove) {
    start();
    std::string game;
    std::string secret;
    Json last;
    {
        auto a = client("Ann");
        secret = a->seen.back()["secret"];
        Json st =
            a->create({{"mode", "computer"}, {"variant", "international"}, {"level", "easy"}});
        game = st["game"];
        for (int i = 0; i < 3; ++i) {
            a->send(move_msg(st));
            st = a->wait_state(game, [&](const Json& s) { return s["ply"] == 2 * (i + 1); });
        }
        last = st;
        server->kill_hard();
    }
    server = std::make_unique<ServerProcess>(dir.path());
    auto a = client("Ann", secret);
    a->send(Json{{"type", "resume"}, {"game", game}});
    Json st =
        a->recv_until([&](const Json& j) { return j["type"] == "state" && j["game"] == game; });
    EXPECT_EQ(st["state"]["moves"], last["state"]["moves"]);
    EXPECT_EQ(st["state"]["fen"], last["state"]["fen"]);
    // The stored version is that of the last stored event: the versions go on from it, and a
    // client that saw that event has missed nothing.
    EXPECT_EQ(st["state"]["version"], last["state"]["version"]);
    a->send(Json{{"type", "resume"}, {"game", game}, {"last_version", last["state"]["version"]}});
    EXPECT_EQ(a->recv_until([](const Json& j) { return j["type"] == "resumed"; })["version"],
              last["state"]["version"]);
    a->send(move_msg(st));
    const Json next = a->wait_state(game, [](const Json& s) { return s["ply"] == 8; });
    EXPECT_GT(next["state"]["version"].get<std::int64_t>(),
              last["state"]["version"].get<std::int64_t>());
}

TEST_F(ServerTest, ManyComputerGamesDoNotDelayHumanMoves) {
    start({"--ai-nodes", "300000"});
    // Forty computer games thinking at once (the computer moves first in each).
    std::vector<std::unique_ptr<WsClient>> crowd;
    for (int i = 0; i < 4; ++i) {
        crowd.push_back(client("Crowd" + std::to_string(i)));
        for (int g = 0; g < 10; ++g) {
            crowd.back()->send(Json{{"type", "create"},
                                    {"mode", "computer"},
                                    {"variant", "international"},
                                    {"level", "hard"},
                                    {"color", "black"}});
        }
    }
    auto a                 = client("Ann");
    auto b                 = client("Bob");
    const std::string game = friend_game(*a, *b);
    Json st                = a->wait_state(game, [](const Json&) { return true; });
    for (int i = 0; i < 6; ++i) {
        WsClient& mover  = st["state"]["turn"] == "white" ? *a : *b;
        const auto begin = std::chrono::steady_clock::now();
        mover.send(move_msg(st));
        st = mover.wait_version(game, st["version"].get<std::int64_t>() + 1);
        EXPECT_LT(std::chrono::steady_clock::now() - begin, 2s)
            << "a human move waited for the computer";
    }
}

TEST_F(ServerTest, ASlowClientIsDroppedNotBuffered) {
    const auto log = dir.path() / "server.log";
    server         = std::make_unique<ServerProcess>(dir.path(), std::vector<std::string>{}, log);
    auto slow      = client("Slow");
    const Json st  = slow->create({{"mode", "hotseat"}, {"variant", "international"}});
    // Thousands of replies the client never reads: the server's queue for it is bounded.
    try {
        for (int i = 0; i < 20000; ++i) {
            slow->send(Json{{"type", "resume"}, {"game", st["game"]}});
        }
    } catch (const std::exception&) {
        // Dropped while still sending: fine.
    }
    // Still not reading until the server has given up on us: its queue for us overflows (or the
    // message rate closes us) however fast it works through the flood; a server slowed by a
    // sanitizer takes far longer than a release build.
    EXPECT_TRUE(log_has(log, std::regex("dropping a client|closing: over"), 120s));
    std::size_t received = 0;
    try {
        for (;;) {
            (void)slow->recv(10s);
            ++received;
        }
    } catch (const std::exception&) {
    }
    EXPECT_LT(received, 20000U);
    // The server carries on.
    EXPECT_EQ(http_request(server->port(), "GET", "/healthz").status, 200U);
    auto other = client("Other");
    other->send(Json{{"type", "resume"}, {"game", st["game"]}});
    // Its resume waits behind the room's backlog of the flood's requests, which a sanitizer
    // build works through slowly (TSan: more than 30 s).
    other->recv_until([](const Json& j) { return j["type"] == "state"; }, 180s);
}

TEST_F(ServerTest, ShutsDownOnSigterm) {
    start();
    auto a = client("Ann");
    EXPECT_EQ(http_request(server->port(), "GET", "/healthz").status, 200U);
    EXPECT_EQ(server->terminate(), 0);
}

}  // namespace
}  // namespace papan::test
