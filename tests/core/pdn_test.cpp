// PDN 3.0 reading and writing: every construct of the grammar (formats.md §1), both result
// styles, setups, errors that name game, move and line, round trips, and real published games
// (tests/data/pdn/*.pdn, sources cited at the top of each file) replayed through the rules.
#include <papan/core/notation/fen.hpp>
#include <papan/core/notation/move_text.hpp>
#include <papan/core/notation/pdn.hpp>
#include <papan/core/rules/registry.hpp>

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

namespace papan::core {
namespace {

std::string read_data(const std::string& name) {
    std::ifstream in(std::string(PAPAN_TEST_DATA_DIR) + "/pdn/" + name, std::ios::binary);
    EXPECT_TRUE(in.good()) << name;
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

std::vector<PdnGame> read_ok(std::string_view text, VariantId v = VariantId::International) {
    auto games = read_pdn(text, v);
    EXPECT_TRUE(games.ok()) << games.error();
    return games.ok() ? games.value() : std::vector<PdnGame>{};
}

std::string error_of(std::string_view text, VariantId v = VariantId::International) {
    auto games = read_pdn(text, v);
    EXPECT_FALSE(games.ok()) << "expected an error for:\n" << text;
    return games.ok() ? std::string() : games.error();
}

bool same_moves(const std::vector<Move>& a, const std::vector<Move>& b) {
    if (a.size() != b.size()) {
        return false;
    }
    for (std::size_t i = 0; i < a.size(); ++i) {
        if (!a[i].same_as(b[i])) {
            return false;
        }
    }
    return true;
}

std::vector<std::string> texts_of(const PdnGame& g) {
    std::vector<std::string> out;
    for (std::size_t i = 0; i < g.moves.size(); ++i) {
        out.push_back(move_text(g.position_before(i), g.moves[i]));
    }
    return out;
}

// write -> read gives the same game, and writing is a fixpoint.
void expect_round_trip(const PdnGame& g) {
    const std::string text = write_pdn_game(g);
    const auto back        = read_ok(text, g.variant);
    ASSERT_EQ(back.size(), 1U) << text;
    const PdnGame& h = back.front();
    EXPECT_EQ(h.variant, g.variant);
    EXPECT_EQ(h.start, g.start);
    EXPECT_TRUE(same_moves(h.moves, g.moves)) << text;
    EXPECT_EQ(h.setups, g.setups);
    EXPECT_EQ(h.comments, g.comments);
    EXPECT_EQ(convert_pdn_result(h.result, h.variant), convert_pdn_result(g.result, g.variant));
    EXPECT_EQ(h.final_position(), g.final_position());
    EXPECT_EQ(write_pdn_game(h), text);
    for (const auto& [name, value] : g.tags) {
        if (name == "Date" || name == "Result" || name == "GameType" || name == "FEN" ||
            value.empty() || g.tag(name) != &value) {
            continue;  // normalised by the writer, empty, or a repeated tag
        }
        const std::string* v = h.tag(name);
        ASSERT_NE(v, nullptr) << name;
        EXPECT_EQ(*v, value) << name;
    }
    std::istringstream lines(text);
    std::string line;
    while (std::getline(lines, line)) {
        if (!line.empty() && line.front() != '[') {
            EXPECT_LE(line.size(), 80U) << line;
        }
    }
}

// --- results and dates ------------------------------------------------------------------------

TEST(PdnResult, BothStylesParseAndConvert) {
    EXPECT_EQ(parse_pdn_result("1-0"), PdnResult::FirstWins);
    EXPECT_EQ(parse_pdn_result("2-0"), PdnResult::FirstWins);
    EXPECT_EQ(parse_pdn_result("0-1"), PdnResult::SecondWins);
    EXPECT_EQ(parse_pdn_result("0-2"), PdnResult::SecondWins);
    EXPECT_EQ(parse_pdn_result("1/2-1/2"), PdnResult::Draw);
    EXPECT_EQ(parse_pdn_result("1-1"), PdnResult::Draw);
    EXPECT_EQ(parse_pdn_result("0-0"), PdnResult::BothLose);
    EXPECT_EQ(parse_pdn_result("*"), PdnResult::Unknown);
    EXPECT_FALSE(parse_pdn_result("32-28"));
    EXPECT_FALSE(parse_pdn_result("3-0"));

    EXPECT_TRUE(uses_international_results(VariantId::International));
    EXPECT_FALSE(uses_international_results(VariantId::American));
    EXPECT_EQ(convert_pdn_result("1-0", VariantId::International), "2-0");
    EXPECT_EQ(convert_pdn_result("0-1", VariantId::International), "0-2");
    EXPECT_EQ(convert_pdn_result("1/2-1/2", VariantId::International), "1-1");
    EXPECT_EQ(convert_pdn_result("2-0", VariantId::American), "1-0");
    EXPECT_EQ(convert_pdn_result("0-2", VariantId::Russian), "0-1");
    EXPECT_EQ(convert_pdn_result("1-1", VariantId::Pool), "1/2-1/2");
    EXPECT_EQ(convert_pdn_result("0-0", VariantId::Russian), "0-0");
    EXPECT_EQ(convert_pdn_result("*", VariantId::International), "*");
    EXPECT_EQ(convert_pdn_result("nonsense", VariantId::American), "*");
}

TEST(PdnDate, NormalisedToPdnForm) {
    EXPECT_EQ(normalize_pdn_date("2003.05.23"), "2003.05.23");
    EXPECT_EQ(normalize_pdn_date("1995.11.1"), "1995.11.01");
    EXPECT_EQ(normalize_pdn_date("1841-?\?-?\?"), "1841.??.??");
    EXPECT_EQ(normalize_pdn_date("1950."), "1950.??.??");
    EXPECT_EQ(normalize_pdn_date(""), "????.??.??");
    EXPECT_EQ(normalize_pdn_date("?"), "????.??.??");
    EXPECT_EQ(normalize_pdn_date("23.05.2003"), "2003.05.23");
    EXPECT_EQ(normalize_pdn_date("2003.13.40"), "2003.??.??");
}

// --- the grammar ------------------------------------------------------------------------------

TEST(PdnRead, SimpleGameWithTags) {
    const auto games = read_ok(R"([Event "Test \"quoted\" event"]
[White "A"]
[Black "B"]
[Result "2-0"]
[GameType "20"]

1. 32-28 19-23 2. 28x19 14x23 2-0
)");
    ASSERT_EQ(games.size(), 1U);
    const PdnGame& g = games[0];
    EXPECT_EQ(*g.tag("Event"), "Test \"quoted\" event");
    EXPECT_EQ(g.variant, VariantId::International);
    EXPECT_EQ(g.moves.size(), 4U);
    EXPECT_EQ(g.result, "2-0");
    EXPECT_EQ(g.comments.size(), 5U);
    EXPECT_EQ(texts_of(g), (std::vector<std::string>{"32-28", "19-23", "28x19", "14x23"}));
    EXPECT_EQ(g.line, 1);
}

TEST(PdnRead, EveryConstructOfTheGrammar) {
    // BOM, CRLF, % line comments, comments (also between a number and its move), nested
    // variations holding comments with parentheses, NAGs, numbers attached or not, "12...",
    // strengths, a stray space after a separator, separators - x : *.
    const std::string text =
        "\xEF\xBB\xBF% a line comment\r\n"
        "[Event \"Constructs\"]\r\n"
        "[GameType \"20,W,10,10,N2,0\"]\r\n"
        "\r\n"
        "{intro} 1.32-28! 19-23? 2. 28x19 $1 (2. 33-29 (2. 34-29 {x (y) z}) 23x34) 14x23!?\r\n"
        "3. 37-32 (!) 3... 10-14 (?) 4. 41-37 {after 4.} 4... 14-19 5. 34-29 23:34 6. 40*29 5- 10"
        " 1-1\r\n";
    const auto games = read_ok(text);
    ASSERT_EQ(games.size(), 1U);
    const PdnGame& g = games[0];
    EXPECT_EQ(texts_of(g),
              (std::vector<std::string>{"32-28",
                                        "19-23",
                                        "28x19",
                                        "14x23",
                                        "37-32",
                                        "10-14",
                                        "41-37",
                                        "14-19",
                                        "34-29",
                                        "23x34",
                                        "40x29",
                                        "5-10"}));
    EXPECT_EQ(g.comments[0], "intro");
    EXPECT_EQ(g.comments[7], "after 4.");
    EXPECT_EQ(g.result, "1-1");
    EXPECT_EQ(*g.tag("GameType"), "20,W,10,10,N2,0");
    expect_round_trip(g);
}

TEST(PdnRead, EveryResultEndsAGameInBothStyles) {
    const auto games = read_ok("1. 32-28 1-0 1. 32-28 0-1 1. 32-28 1/2-1/2 1. 32-28 2-0\n"
                               "1. 32-28 0-2 1. 32-28 1-1 1. 32-28 0-0 1. 32-28 *\n");
    ASSERT_EQ(games.size(), 8U);
    const std::vector<std::string> want = {
        "1-0", "0-1", "1/2-1/2", "2-0", "0-2", "1-1", "0-0", "*"};
    for (std::size_t i = 0; i < games.size(); ++i) {
        EXPECT_EQ(games[i].result, want[i]);
        EXPECT_EQ(games[i].moves.size(), 1U);
    }
}

TEST(PdnRead, MultipleGamesAndHeadersWithoutMoveText) {
    const auto games = read_ok(R"([Event "only a result tag"]
[Result "1-0"]

[Event "no terminator"]
[Result "0-1"]
1. 32-28 19-23
[Event "third"]
1. 31-27 *
*
[Event "fourth"]
[Result "2-0"]
2-0
)");
    ASSERT_EQ(games.size(), 4U);
    EXPECT_EQ(*games[0].tag("Event"), "only a result tag");
    EXPECT_TRUE(games[0].moves.empty());
    EXPECT_EQ(games[0].result, "1-0");  // from the tag: there is no move text
    EXPECT_EQ(games[1].moves.size(), 2U);
    EXPECT_EQ(games[1].result, "0-1");
    EXPECT_EQ(*games[2].tag("Event"), "third");
    EXPECT_EQ(games[2].moves.size(), 1U);
    EXPECT_EQ(games[3].result, "2-0");
    EXPECT_EQ(games[3].line, 10);
}

TEST(PdnRead, GameTypeChoosesTheVariantElseTheDefault) {
    const std::string american = "1. 11-15 23-19 *";
    EXPECT_EQ(read_ok(american, VariantId::American)[0].variant, VariantId::American);
    EXPECT_EQ(read_ok("[GameType \"21\"]\n" + american)[0].variant, VariantId::American);
    EXPECT_EQ(read_ok("[GameType \"21,B,8,8,N1,0\"]\n" + american)[0].variant, VariantId::American);
    const auto ru = read_ok("[GameType \"25\"]\n1. c3-d4 f6-g5 2. d4-c5 b6:d4 *");
    EXPECT_EQ(ru[0].variant, VariantId::Russian);
    EXPECT_EQ(ru[0].moves.size(), 4U);
    // Without a GameType the default applies: 11-15 is not a move of the 10x10 start.
    EXPECT_NE(error_of(american).find("International draughts"), std::string::npos);
}

TEST(PdnRead, FenTagAndSetupsInsideTheMoveText) {
    // FEN with ranges; then a mid-game setup and a null move.
    const auto games = read_ok(R"([GameType "20"]
[FEN "B:W31-35:B16-20"]
1... 16-21 2. 31-26 /FEN "W:W26,32:B21,5"/ 3. 26x17 /FEN "W::"/ 4. 17-11 *
)");
    ASSERT_EQ(games.size(), 1U);
    const PdnGame& g = games[0];
    EXPECT_EQ(to_fen(g.start), "B:W31,32,33,34,35:B16,17,18,19,20");
    ASSERT_EQ(g.moves.size(), 4U);
    ASSERT_EQ(g.setups.size(), 2U);
    EXPECT_EQ(g.setups[0].ply, 2U);
    EXPECT_EQ(to_fen(g.setups[0].position), "W:W26,32:B5,21");
    EXPECT_EQ(g.setups[1].ply, 3U);
    EXPECT_EQ(g.setups[1].position.side, Color::White);  // the null move: White to move again
    EXPECT_EQ(to_fen(g.final_position()), "B:W11,32:B5");
    expect_round_trip(g);
    const std::string written = write_pdn_game(g);
    EXPECT_NE(written.find("[FEN \"B:W31,32,33,34,35:B16,17,18,19,20\"]"), std::string::npos);
    EXPECT_NE(written.find("1... 16-21 2. 31-26 /FEN"), std::string::npos) << written;
}

TEST(PdnRead, AlgebraicFenAndAmericanFirstMover) {
    // American: Black moves first, so "1. 11-15 23-19" is one move number.
    const auto g = read_ok("[GameType \"21\"]\n1. 11-15 23-19 2. 8-11 22-17 *")[0];
    EXPECT_EQ(g.start.side, Color::Black);
    EXPECT_EQ(g.moves.size(), 4U);
    const std::string text = write_pdn_game(g);
    EXPECT_NE(text.find("1. 11-15 23-19 2. 8-11 22-17 *"), std::string::npos) << text;

    // A setup where White (the second mover) starts: "1... ".
    const auto s = read_ok("[GameType \"21\"]\n[FEN \"W:W18,K30:B10,c7\"]\n1... 18-15 10x19 *")[0];
    EXPECT_EQ(s.moves.size(), 2U);
    const std::string stext = write_pdn_game(s);
    EXPECT_NE(stext.find("[FEN \"W:W18,K30:B6,10\"]"), std::string::npos) << stext;
    EXPECT_NE(stext.find("1... 18-15 2. 10x19 *"), std::string::npos) << stext;
    expect_round_trip(s);
}

TEST(PdnRead, CommentsStayWithTheirMoves) {
    const auto g = read_ok("1. 32-28 {good} 19-23 {also good} {and more} 2. 28x19 *")[0];
    EXPECT_EQ(g.comments, (std::vector<std::string>{"", "good", "also good and more", ""}));
    expect_round_trip(g);
}

TEST(PdnRead, MoveNumbersAreCheckedNeverTrustedForErrors) {
    // Numbers in the text are used for messages; an unnumbered game counts from 1.
    const std::string e = error_of("1. 32-28 19-23 2. 28x19 14x23 3. 33-28 23x32 4. 99-98 *");
    EXPECT_NE(e.find("game 1, move 4 (white)"), std::string::npos) << e;
}

// --- errors -----------------------------------------------------------------------------------

TEST(PdnErrors, IllegalMoveInGameTwoNamesGameMoveSideAndVariant) {
    const std::string text = R"([Event "one"]
[GameType "20"]
1. 32-28 19-23 2. 28x19 14x23 2-0

[Event "two"]
[GameType "20"]
1. 32-28 19-23 2. 28x19 14x23 3. 37-32
3... 23x14 4. 41-37 1-1
)";
    const std::string e    = error_of(text);
    EXPECT_NE(e.find("game 2, move 3 (black): illegal move '23x14'"), std::string::npos) << e;
    EXPECT_NE(e.find("International draughts"), std::string::npos) << e;
    EXPECT_NE(e.find("line 8"), std::string::npos) << e;

    // Keep going: every game gets an entry.
    PdnReadOptions options;
    const auto entries = read_pdn_entries(text + "1. 33-28 *\n", options);
    ASSERT_EQ(entries.size(), 3U);
    EXPECT_TRUE(entries[0].ok());
    EXPECT_FALSE(entries[1].ok());
    EXPECT_EQ(entries[1].number, 2);
    EXPECT_EQ(entries[1].game.moves.size(), 5U);  // the moves before the bad one
    EXPECT_TRUE(entries[2].ok());
    EXPECT_EQ(entries[2].game.moves.size(), 1U);
}

TEST(PdnErrors, UnterminatedCommentTagVariationSetup) {
    std::string e = error_of("[Event \"x\"]\n1. 32-28 {never closed\n19-23 *");
    EXPECT_NE(e.find("game 1, line 2: unterminated comment"), std::string::npos) << e;

    e = error_of("1. 32-28 19-23 2-0\n[Event \"x\n1. 32-28 *");
    EXPECT_NE(e.find("game 2, line 2: unterminated tag [Event"), std::string::npos) << e;

    e = error_of("[Event \"x\" \n1. 32-28 *");
    EXPECT_NE(e.find("unterminated tag"), std::string::npos) << e;

    e = error_of("1. 32-28 (1. 33-28 (1. 34-29) 19-23 *");
    EXPECT_NE(e.find("unterminated variation"), std::string::npos) << e;

    e = error_of("1. 32-28 /FEN \"W:W31:B1\" 19-23 *");
    EXPECT_NE(e.find("unterminated setup"), std::string::npos) << e;

    e = error_of("1. 32-28 /FEN \"W:W99:B1\"/ *");
    EXPECT_NE(e.find("bad setup"), std::string::npos) << e;
}

TEST(PdnErrors, UnknownGameTypeBadFenAndGarbage) {
    std::string e = error_of("[Event \"x\"]\n[GameType \"97\"]\n1. 32-28 *");
    EXPECT_NE(e.find("game 1, line 2: unknown GameType \"97\""), std::string::npos) << e;

    e = error_of("[FEN \"W:W51:B1\"]\n1. 32-28 *");
    EXPECT_NE(e.find("bad FEN tag"), std::string::npos) << e;

    e = error_of("hello world, this is not PDN");
    EXPECT_NE(e.find("game 1, move 1 (white): malformed move 'hello'"), std::string::npos) << e;

    e = error_of("1. 32-28 } 19-23 *");
    EXPECT_NE(e.find("unexpected '}'"), std::string::npos) << e;

    e = error_of("1. 32-28 32-28 *");
    EXPECT_NE(e.find("move 1 (black): illegal move '32-28'"), std::string::npos) << e;

    const char raw[] = "1. 32-28\0\x01\xff 19-23 *";
    e                = error_of(std::string(raw, sizeof raw - 1));
    EXPECT_FALSE(e.empty());

    // Nothing but white space and comments: no games, no error.
    EXPECT_TRUE(read_ok("% nothing\n{file comment}\n\n").empty());
    EXPECT_TRUE(read_ok("").empty());
}

// --- writing ----------------------------------------------------------------------------------

TEST(PdnWrite, MandatoryTagsFirstThenGameTypeFenAndOthers) {
    PdnGame g = make_pdn_game(VariantId::International);
    g.tags    = {{"Annotator", "me"}, {"White", "W. Player"}, {"Event", "Cup"}, {"Empty", ""}};
    g.result  = "1-0";
    const std::string text = write_pdn_game(g);
    EXPECT_EQ(text,
              "[Event \"Cup\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n"
              "[White \"W. Player\"]\n[Black \"?\"]\n[Result \"2-0\"]\n"
              "[GameType \"20,W,10,10,N2,0\"]\n[Annotator \"me\"]\n\n2-0\n");
    const auto back = read_ok(text);
    ASSERT_EQ(back.size(), 1U);
    EXPECT_EQ(*back[0].tag("Annotator"), "me");
    EXPECT_EQ(back[0].result, "2-0");
}

TEST(PdnWrite, ProgrammaticGameRoundTripsWithTagsAndWraps) {
    PdnGame g = make_pdn_game(VariantId::International);
    g.tags    = {{"Event", "Long game"},
                 {"Site", "Here"},
                 {"Date", "2024.01.02"},
                 {"Round", "3"},
                 {"White", "A, B."},
                 {"Black", "C \"D\" E"},
                 {"Result", "1-1"},
                 {"TimeControl", "40/7200:3600"}};
    g.result  = "1-1";
    // Play the first legal move 60 times (or until the game ends).
    Position pos = g.start;
    for (int i = 0; i < 60; ++i) {
        MoveList legal;
        generate_moves(pos, legal);
        if (legal.empty()) {
            break;
        }
        g.moves.push_back(legal[legal.size() / 2]);
        g.comments.emplace_back(i == 10 ? "a comment long enough to need wrapping over more "
                                          "than one line of eighty columns, surely"
                                        : "");
        pos = make_move(pos, g.moves.back());
    }
    expect_round_trip(g);
    const auto back = read_ok(write_pdn_game(g));
    for (const auto& [name, value] : g.tags) {
        ASSERT_NE(back[0].tag(name), nullptr) << name;
        EXPECT_EQ(*back[0].tag(name), value) << name;
    }
}

TEST(PdnWrite, AlgebraicNotationWithColonCaptures) {
    PdnGame p    = make_pdn_game(VariantId::Russian);
    Position pos = p.start;
    for (const char* t : {"c3-d4", "f6-g5", "d4-c5", "b6:d4", "e3:c5"}) {
        auto m = parse_move(pos, t);
        ASSERT_TRUE(m.ok()) << t << ": " << m.error();
        p.moves.push_back(*m);
        p.comments.emplace_back();
        pos = make_move(pos, *m);
    }
    const std::string text = write_pdn_game(p);
    EXPECT_NE(text.find("1. c3-d4 f6-g5 2. d4-c5 b6:d4 3. e3:c5 *"), std::string::npos) << text;
    expect_round_trip(p);
}

// --- real games -------------------------------------------------------------------------------

TEST(PdnRealGames, InternationalWorldChampionships) {
    const auto games = read_ok(read_data("international.pdn"), VariantId::International);
    ASSERT_EQ(games.size(), 5U);
    EXPECT_EQ(*games[0].tag("White"), "Ndjofang, J.M.");
    EXPECT_EQ(games[0].moves.size(), 80U);
    EXPECT_EQ(games[0].result, "1/2-1/2");
    EXPECT_EQ(games[2].result, "1-0");
    // The example stops at move 37 with "*" while the Result tag says 0-2: the known result
    // is the game's (the Result tag and the terminator never disagree).
    EXPECT_EQ(*games[3].tag("Result"), "0-2");
    EXPECT_EQ(games[3].result, "0-2");
    EXPECT_EQ(games[3].moves.size(), 74U);
    EXPECT_EQ(games[4].moves.size(), 111U);  // "1- 7" style moves read
    for (const PdnGame& g : games) {
        EXPECT_EQ(g.variant, VariantId::International);
        expect_round_trip(g);
    }
    // Jansen - Valneris: 48. 15x4 crowns White, 49... 20x49 crowns Black.
    const Position last = games[2].final_position();
    EXPECT_EQ(popcount(last.kings_of(Color::White)), 1);
    EXPECT_EQ(popcount(last.kings_of(Color::Black)), 1);
    // Written with International results.
    EXPECT_NE(write_pdn_game(games[0]).find("[Result \"1-1\"]"), std::string::npos);
}

TEST(PdnRealGames, EnglishMatchGames) {
    const auto games = read_ok(read_data("english.pdn"), VariantId::American);
    ASSERT_EQ(games.size(), 5U);
    // Game 5 ends in "*" under a Result tag of 1/2-1/2: read as the tag's draw.
    const std::vector<std::string> results = {"0-1", "0-1", "1/2-1/2", "1-0", "1/2-1/2"};
    for (std::size_t i = 0; i < games.size(); ++i) {
        EXPECT_EQ(games[i].variant, VariantId::American);
        EXPECT_EQ(games[i].result, results[i]);
        expect_round_trip(games[i]);
    }
    // Moorhead - Wyllie ends with White's triple jump written with its whole path.
    EXPECT_EQ(games[0].moves.size(), 44U);
    EXPECT_EQ(games[0].moves.back().capture_count(), 3);
    // Anderson - Wyllie, Carluke 1844: final position worked out by hand from the score.
    const auto want = parse_fen(VariantId::American, "B:W17-23,25,28,29:B1,3,5,6,7,9,10,11,12,14");
    ASSERT_TRUE(want.ok()) << want.error();
    EXPECT_EQ(games[1].final_position(), *want);
    // Double Corner Dyke: the comment after 3. 15-19 (ply 5) is kept.
    EXPECT_EQ(games[4].comments[5].rfind("Forms the Double Corner Dyke", 0), 0U)
        << games[4].comments[5];
    EXPECT_EQ(games[4].comments[19].rfind("It seems unwise", 0), 0U) << games[4].comments[19];
}

TEST(PdnRealGames, RussianChampionshipWithoutGameType) {
    const auto games = read_ok(read_data("russian.pdn"), VariantId::Russian);
    ASSERT_EQ(games.size(), 3U);
    const std::vector<std::size_t> plies = {61, 69, 58};
    for (std::size_t i = 0; i < games.size(); ++i) {
        EXPECT_EQ(games[i].variant, VariantId::Russian);
        EXPECT_EQ(games[i].moves.size(), plies[i]);
        EXPECT_EQ(games[i].start, start_position(VariantId::Russian));
        expect_round_trip(games[i]);
    }
    EXPECT_EQ(*games[0].tag("White"), "Блиндер Б.");
    EXPECT_EQ(games[0].result, "1-0");
    // Read as International, the first algebraic move is rejected with a clear message.
    const std::string e = error_of(read_data("russian.pdn"));
    EXPECT_NE(e.find("game 1, move 1 (white)"), std::string::npos) << e;
}

}  // namespace
}  // namespace papan::core
