// End-to-end tests of `papan hub`: the real binary runs as a subprocess behind pipes
// (subprocess.hpp) and the test plays the GUI. Every read has a timeout, so a hang fails the test
// instead of blocking it.
// Moves the engine answers are checked for legality with the rules core.
#include "subprocess.hpp"

#include <papan/core/game.hpp>
#include <papan/core/notation/fen.hpp>
#include <papan/core/notation/move_text.hpp>
#include <papan/core/position.hpp>

#include <gtest/gtest.h>

#include <chrono>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace {

using namespace std::chrono_literals;

// `papan hub` behind two pipes.
struct HubProcess : papan::test::Subprocess {
    HubProcess() : Subprocess({"hub"}, Stdin::Pipe) {}

    explicit HubProcess(const std::vector<std::string>& args) : Subprocess(args, Stdin::Pipe) {}

    // Sends `quit` and expects a clean exit.
    void quit() {
        send("quit");
        EXPECT_EQ(wait_exit(), 0);
    }
};

// The value of `name=` in a Hub line (unquoted, or the quoted text).
std::optional<std::string> arg(const std::string& line, const std::string& name) {
    const std::string key = " " + name + "=";
    const auto at         = line.find(key);
    if (at == std::string::npos) {
        return std::nullopt;
    }
    std::size_t i = at + key.size();
    if (i < line.size() && line[i] == '"') {
        const auto end = line.find('"', i + 1);
        return line.substr(i + 1, end - i - 1);
    }
    const auto end = line.find(' ', i);
    return line.substr(i, end == std::string::npos ? std::string::npos : end - i);
}

// Checks that `text` is in strict Hub form and names a legal move of `pos`; returns the move.
std::optional<papan::core::Move> legal_hub_move(const papan::core::Position& pos,
                                                const std::string& text) {
    std::vector<int> numbers;
    std::string current;
    char separator = 0;
    for (const char c : text + "\n") {
        if (c >= '0' && c <= '9') {
            current += c;
            continue;
        }
        if (current.empty()) {
            ADD_FAILURE() << "malformed move text " << text;
            return std::nullopt;
        }
        numbers.push_back(std::stoi(current));
        current.clear();
        if (c != '\n') {
            if (separator != 0 && separator != c) {
                ADD_FAILURE() << "mixed separators in " << text;
                return std::nullopt;
            }
            separator = c;
        }
    }
    if (numbers.size() < 2 || (separator == '-' && numbers.size() != 2) ||
        (separator == 'x' && numbers.size() < 3)) {
        ADD_FAILURE() << "not a Hub move: " << text;
        return std::nullopt;
    }
    const std::vector<int> captured(numbers.begin() + 2, numbers.end());
    const auto m = papan::core::find_move(pos, numbers[0], numbers[1], captured);
    if (!m) {
        ADD_FAILURE() << "illegal move " << text << ": " << m.error();
        return std::nullopt;
    }
    return *m;
}

std::string start_string(char side, int black_men, int empty, int white_men, int tail = 0) {
    return std::string(1, side) + std::string(static_cast<std::size_t>(black_men), 'b') +
           std::string(static_cast<std::size_t>(empty), 'e') +
           std::string(static_cast<std::size_t>(white_men), 'w') +
           std::string(static_cast<std::size_t>(tail), 'e');
}

const std::string kInternationalStart = start_string('W', 20, 10, 20);

void handshake(HubProcess& hub, const std::string& variant = "") {
    hub.send("hub");
    ASSERT_TRUE(hub.expect("wait"));
    if (!variant.empty()) {
        hub.send("set-param name=variant value=" + variant);
    }
    hub.send("init");
    ASSERT_TRUE(hub.expect("ready"));
}

// Searches `pos_line` and returns the move of `done`, checked legal in `pos`.
std::optional<papan::core::Move> search_and_check(HubProcess& hub,
                                                  const std::string& pos_line,
                                                  const papan::core::Position& pos,
                                                  const std::string& level = "level depth=3") {
    hub.send(pos_line);
    hub.send(level);
    hub.send("go think");
    std::vector<std::string> info;
    const auto done = hub.expect("done", &info);
    if (!done) {
        return std::nullopt;
    }
    for (const auto& l : info) {
        EXPECT_EQ(l.rfind("info ", 0), 0U) << "unexpected line during search: " << l;
        EXPECT_TRUE(arg(l, "depth") && arg(l, "score") && arg(l, "nodes")) << l;
    }
    const auto move = arg(*done, "move");
    if (!move) {
        ADD_FAILURE() << "done without move: " << *done;
        return std::nullopt;
    }
    auto m = legal_hub_move(pos, *move);
    if (m) {
        if (const auto ponder = arg(*done, "ponder")) {
            legal_hub_move(papan::core::make_move(pos, *m), *ponder);
        }
    }
    return m;
}

TEST(HubTest, HandshakeAnnouncesIdParamsAndWait) {
    HubProcess hub;
    hub.send("hub");
    const auto id = hub.line();
    ASSERT_TRUE(id);
    EXPECT_EQ(id->rfind("id name=Papan version=", 0), 0U) << *id;
    EXPECT_TRUE(arg(*id, "author"));
    EXPECT_TRUE(arg(*id, "country"));
    std::vector<std::string> params;
    ASSERT_TRUE(hub.expect("wait", &params));
    bool variant = false;
    bool level   = false;
    for (const auto& p : params) {
        ASSERT_EQ(p.rfind("param name=", 0), 0U) << p;
        if (arg(p, "name") == "variant") {
            variant = true;
            EXPECT_EQ(arg(p, "value"), "international");
            EXPECT_EQ(arg(p, "type"), "enum");
            EXPECT_EQ(arg(p, "values"),
                      "american international brazilian russian pool spanish italian czech thai "
                      "turkish");
        }
        if (arg(p, "name") == "level") {
            level = true;
            EXPECT_EQ(arg(p, "value"), "max");
            EXPECT_EQ(arg(p, "values"), "easy normal hard max");
        }
    }
    EXPECT_TRUE(variant);
    EXPECT_TRUE(level);
    hub.send("set-param name=level value=hard");
    hub.send("init");
    ASSERT_TRUE(hub.expect("ready"));
    hub.quit();
}

TEST(HubTest, InternationalStartDepth3GivesLegalMove) {
    HubProcess hub;
    handshake(hub);
    const auto pos = papan::core::start_position(papan::core::VariantId::International);
    EXPECT_TRUE(search_and_check(hub, "pos pos=" + kInternationalStart, pos));
    hub.quit();
}

TEST(HubTest, AmericanUses32SquarePositions) {
    HubProcess hub;
    handshake(hub, "english");  // alias of american
    const auto pos = papan::core::start_position(papan::core::VariantId::American);
    ASSERT_EQ(pos.side, papan::core::Color::Black);  // Black (on 1-12) moves first
    const auto m = search_and_check(hub, "pos pos=" + start_string('B', 12, 8, 12), pos);
    ASSERT_TRUE(m);
    EXPECT_EQ(pos.side, papan::core::Color::Black);
    hub.quit();
}

TEST(HubTest, TurkishUses64SquarePositions) {
    HubProcess hub;
    handshake(hub, "turkish");
    // Squares 1-64 from a1: rank 1 empty, White men on ranks 2-3, Black men on ranks 6-7.
    std::string pos_text = "W";
    pos_text += std::string(8, 'e');
    pos_text += std::string(16, 'w');
    pos_text += std::string(16, 'e');
    pos_text += std::string(16, 'b');
    pos_text += std::string(8, 'e');
    const auto pos = papan::core::start_position(papan::core::VariantId::Turkish);
    EXPECT_TRUE(search_and_check(hub, "pos pos=" + pos_text, pos));
    hub.quit();
}

TEST(HubTest, MovesAreAppliedInHubAndPathForm) {
    using papan::core::VariantId;
    papan::core::Game game(VariantId::International);
    ASSERT_TRUE(game.play("32-28"));
    ASSERT_TRUE(game.play("19-23"));
    ASSERT_TRUE(game.play("28x19"));
    // Black must recapture on 19 (14x23 or 13x24): the answer shows the moves were applied.
    HubProcess hub;
    handshake(hub);
    const auto m = search_and_check(
        hub, "pos pos=" + kInternationalStart + " moves=\"32-28 19-23 28x19x23\"", game.position());
    ASSERT_TRUE(m);
    EXPECT_TRUE(m->is_capture());
    // The PDN path form of the same capture is tolerated.
    const auto m2 = search_and_check(
        hub, "pos pos=" + kInternationalStart + " moves=\"32-28 19-23 28x19\"", game.position());
    ASSERT_TRUE(m2);
    EXPECT_TRUE(m2->is_capture());
    hub.quit();
}

// A 10x10 position string from lists of square numbers.
std::string board50(char side, const std::vector<int>& white, const std::vector<int>& black) {
    std::string s(51, 'e');
    s[0] = side;
    for (const int w : white) {
        s[static_cast<std::size_t>(w)] = 'w';
    }
    for (const int b : black) {
        s[static_cast<std::size_t>(b)] = 'b';
    }
    return s;
}

TEST(HubTest, CapturedSquaresInAnyOrder) {
    using papan::core::VariantId;
    // White 33 takes 28 and 18, landing on 13 (33x22x13).
    const std::string text = board50('W', {33, 48}, {1, 2, 18, 28});
    const auto start = papan::core::parse_fen(VariantId::International, "W:W33,48:B1,2,18,28");
    ASSERT_TRUE(start);
    papan::core::Game game(*start);
    ASSERT_TRUE(game.play("33x13"));
    HubProcess hub;
    handshake(hub);
    for (const char* moves : {"33x13x28x18", "33x13x18x28", "33x22x13"}) {
        hub.send(std::string("pos pos=") + text + " moves=\"" + moves + "\"");
        hub.send("level depth=2");
        hub.send("go think");
        std::vector<std::string> lines;
        const auto done = hub.expect("done", &lines);
        ASSERT_TRUE(done);
        for (const auto& l : lines) {
            EXPECT_EQ(l.rfind("error", 0), std::string::npos) << moves << ": " << l;
        }
        const auto move = arg(*done, "move");
        ASSERT_TRUE(move) << *done;
        EXPECT_TRUE(legal_hub_move(game.position(), *move)) << moves;
    }
    hub.quit();
}

// Starts a search of the International start position with `level`, then `go`.
void start_search(HubProcess& hub, const std::string& level, const std::string& go = "go think") {
    hub.send("pos pos=" + kInternationalStart);
    hub.send(level);
    hub.send(go);
}

// Reads up to `done` (the lines before it go to `before`) and checks that its move is legal in
// the International start position.
void expect_done_from_start(HubProcess& hub, std::vector<std::string>* before = nullptr) {
    const auto done = hub.expect("done", before);
    ASSERT_TRUE(done);
    const auto move = arg(*done, "move");
    ASSERT_TRUE(move) << *done;
    EXPECT_TRUE(
        legal_hub_move(papan::core::start_position(papan::core::VariantId::International), *move));
}

TEST(HubTest, PingDuringInfiniteSearchThenStop) {
    HubProcess hub;
    handshake(hub);
    start_search(hub, "level infinite");
    std::this_thread::sleep_for(300ms);  // let the search get going
    hub.send("ping");
    std::vector<std::string> before;
    ASSERT_TRUE(hub.expect("pong", &before));
    for (const auto& l : before) {
        EXPECT_EQ(l.rfind("info ", 0), 0U) << "unexpected line before pong: " << l;
    }
    // Still searching: no `done` yet; then `stop` ends it with a legal move.
    hub.send("stop");
    expect_done_from_start(hub);
    // The engine still answers afterwards.
    hub.send("ping");
    ASSERT_TRUE(hub.expect("pong"));
    hub.quit();
}

// Whether `info` lines report an iteration of depth `depth`.
bool reached_depth(const std::vector<std::string>& info, int depth) {
    for (const auto& l : info) {
        if (l.rfind("info ", 0) == 0 && arg(l, "depth") == std::to_string(depth)) {
            return true;
        }
    }
    return false;
}

// The `threads` parameter (and `papan hub --threads`): announced with its range, a bad value is
// an error that changes nothing, and a four-thread search stops on `stop` with a legal move.
TEST(HubTest, ThreadsParam_AndAFourThreadSearchStops) {
    HubProcess hub({"hub", "--threads", "2"});
    hub.send("hub");
    std::vector<std::string> params;
    ASSERT_TRUE(hub.expect("wait", &params));
    bool threads = false;
    for (const auto& p : params) {
        if (arg(p, "name") == "threads") {
            threads = true;
            EXPECT_EQ(arg(p, "value"), "2");  // from --threads
            EXPECT_EQ(arg(p, "type"), "int");
            EXPECT_EQ(arg(p, "min"), "1");
            EXPECT_EQ(arg(p, "max"), "64");
        }
    }
    EXPECT_TRUE(threads);
    for (const char* bad : {"0", "65", "two"}) {
        hub.send(std::string("set-param name=threads value=") + bad);
        hub.send("ping");
        std::vector<std::string> lines;
        ASSERT_TRUE(hub.expect("pong", &lines));
        ASSERT_EQ(lines.size(), 1U) << bad;
        EXPECT_EQ(lines[0].rfind("error message=", 0), 0U) << lines[0];
    }
    hub.send("set-param name=threads value=4");
    hub.send("init");
    ASSERT_TRUE(hub.expect("ready"));
    start_search(hub, "level infinite");
    std::this_thread::sleep_for(300ms);
    hub.send("stop");
    expect_done_from_start(hub);
    start_search(hub, "level depth=5");
    std::vector<std::string> info;
    expect_done_from_start(hub, &info);
    EXPECT_TRUE(reached_depth(info, 5));
    hub.quit();
}

TEST(HubTest, StopRightAfterGoEndsThatSearchOnly) {
    HubProcess hub;
    handshake(hub);
    // `stop` at once, most likely before the worker's search has begun: it still ends it.
    for (int i = 0; i < 5; ++i) {
        start_search(hub, "level infinite");
        hub.send("stop");
        expect_done_from_start(hub);
    }
    // A search that ended on its own, then `stop`: the stop is for a finished search and must
    // not cut the next one short.
    for (int i = 0; i < 2; ++i) {
        start_search(hub, "level depth=5");
        std::vector<std::string> info;
        expect_done_from_start(hub, &info);
        EXPECT_TRUE(reached_depth(info, 5)) << hub.transcript();
        hub.send("stop");
    }
    hub.quit();
}

TEST(HubTest, AnalyzeAndPonderModes) {
    HubProcess hub;
    handshake(hub);
    // analyze: searches until stop.
    start_search(hub, "level depth=4", "go analyze");
    std::this_thread::sleep_for(200ms);
    hub.send("stop");
    expect_done_from_start(hub);
    // ponder with a clock: thinks until ponder-hit, then plays within its time.
    hub.send("level time=2 inc=0.1 moves=40");
    hub.send("go ponder");
    std::this_thread::sleep_for(200ms);
    hub.send("ponder-hit");
    expect_done_from_start(hub);
    hub.quit();
}

TEST(HubTest, EveryLevelFormFinishes) {
    const auto start = papan::core::start_position(papan::core::VariantId::International);
    HubProcess hub;
    handshake(hub);
    for (const char* level : {"level depth=2",
                              "level move-time=0.2",
                              "level time=1.5 inc=0.05",
                              "level moves=30 time=3",
                              "level nodes=2000"}) {
        SCOPED_TRACE(level);
        EXPECT_TRUE(search_and_check(hub, "pos pos=" + kInternationalStart, start, level));
    }
    hub.quit();
}

TEST(HubTest, MalformedInputGivesErrorAndEngineKeepsWorking) {
    HubProcess hub;
    handshake(hub);
    const auto start = papan::core::start_position(papan::core::VariantId::International);
    const std::vector<std::string> bad_lines = {
        "pos pos=Wbbb",
        "pos pos=X" + kInternationalStart.substr(1),
        "pos pos=" + kInternationalStart.substr(0, 50) + "q",
        "pos pos=" + kInternationalStart + " moves=\"32-23\"",
        "pos pos=" + kInternationalStart + " moves=\"99x12x3\"",
        std::string("set-param name=variant value=chess"),
        std::string("level depth=abc")};
    for (const std::string& bad : bad_lines) {
        hub.send(bad);
        hub.send("ping");
        std::vector<std::string> lines;
        ASSERT_TRUE(hub.expect("pong", &lines));
        ASSERT_EQ(lines.size(), 1U) << bad;
        EXPECT_EQ(lines[0].rfind("error message=", 0), 0U) << lines[0];
    }
    EXPECT_TRUE(search_and_check(hub, "pos pos=" + kInternationalStart, start, "level depth=2"));
    hub.quit();
}

TEST(HubTest, UnknownCommandsAndArgsAreIgnored) {
    HubProcess hub;
    handshake(hub);
    hub.send("frobnicate now=1 \"quoted thing\"");
    hub.send("xyzzy");
    hub.send("");
    hub.send("ping");
    const auto l = hub.line();
    ASSERT_TRUE(l);
    EXPECT_EQ(*l, "pong");
    // Unknown args next to known ones (lidraughts' handicap) are ignored too.
    const auto start = papan::core::start_position(papan::core::VariantId::International);
    EXPECT_TRUE(search_and_check(
        hub, "pos pos=" + kInternationalStart + " colour=blue", start, "level depth=2 handicap=1"));
    hub.send("new-game");
    hub.quit();
}

TEST(HubTest, EndOfInputQuits) {
    HubProcess hub;
    handshake(hub);
    hub.close_input();
    EXPECT_EQ(hub.wait_exit(), 0);
}

TEST(HubTest, QuitDuringSearchExits) {
    HubProcess hub;
    handshake(hub);
    start_search(hub, "level infinite");
    std::this_thread::sleep_for(200ms);
    hub.quit();
}

}  // namespace
