// Move text (docs/notation.md): numeric "32-28" / "28x19" or algebraic "c3-d4" / "c3:e5" (Russian),
// "d3-d4" / "d3xd5" (Turkish); the full path only when two distinct moves share from and to;
// parse_move reads "-", "x", ":", numbers or names, full or partial paths, and reports
// malformed, illegal and ambiguous text as errors.
#include "rules_test_util.hpp"

#include <papan/core/notation/move_text.hpp>
#include <papan/core/notation/squares.hpp>

#include <string>
#include <vector>

namespace papan::core {
namespace {

using rules_test::find_legal;
using rules_test::position;

// The text of the legal move `wanted` (a rules_test move string) in the FEN.
std::string text_of(VariantId v, const char* fen, const char* wanted) {
    const Position pos = position(v, fen);
    return move_text(pos, find_legal(v, fen, wanted));
}

// The move string of what parse_move makes of `text`, or "error: ...".
std::string parsed(VariantId v, const char* fen, std::string_view text, MoveGenOptions o = {}) {
    const auto m = parse_move(position(v, fen), text, o);
    if (!m.ok()) {
        return "error: " + m.error();
    }
    return rules_test::move_string(v, *m);
}

bool contains(const std::string& s, std::string_view part) {
    return s.find(part) != std::string::npos;
}

TEST(MoveText, SquareNamesPerBoard) {
    EXPECT_EQ(algebraic_name(VariantId::American, 1), "b8");
    EXPECT_EQ(algebraic_name(VariantId::American, 29), "a1");
    EXPECT_EQ(algebraic_name(VariantId::American, 32), "g1");
    EXPECT_EQ(algebraic_name(VariantId::American, 11), "f6");
    EXPECT_EQ(algebraic_name(VariantId::American, 15), "e5");
    EXPECT_EQ(algebraic_name(VariantId::Russian, 22), "c3");
    EXPECT_EQ(algebraic_name(VariantId::Russian, 18), "d4");
    EXPECT_EQ(algebraic_name(VariantId::International, 1), "b10");
    EXPECT_EQ(algebraic_name(VariantId::International, 5), "j10");
    EXPECT_EQ(algebraic_name(VariantId::International, 46), "a1");
    EXPECT_EQ(algebraic_name(VariantId::International, 50), "i1");
    EXPECT_EQ(algebraic_name(VariantId::Italian, 1), "a8");
    EXPECT_EQ(algebraic_name(VariantId::Italian, 4), "g8");
    EXPECT_EQ(algebraic_name(VariantId::Italian, 29), "b1");
    EXPECT_EQ(algebraic_name(VariantId::Italian, 32), "h1");
    EXPECT_EQ(algebraic_name(VariantId::Spanish, 1), "h1");
    EXPECT_EQ(algebraic_name(VariantId::Spanish, 4), "b1");
    EXPECT_EQ(algebraic_name(VariantId::Spanish, 5), "g2");
    EXPECT_EQ(algebraic_name(VariantId::Spanish, 29), "g8");
    EXPECT_EQ(algebraic_name(VariantId::Spanish, 32), "a8");
    EXPECT_EQ(algebraic_name(VariantId::Turkish, 1), "a1");
    EXPECT_EQ(algebraic_name(VariantId::Turkish, 8), "h1");
    EXPECT_EQ(algebraic_name(VariantId::Turkish, 57), "a8");
    EXPECT_EQ(algebraic_name(VariantId::Turkish, 64), "h8");
    EXPECT_EQ(algebraic_name(VariantId::Turkish, 20), "d3");
    EXPECT_EQ(square_from_algebraic(VariantId::Russian, "c3"), 22);
    EXPECT_EQ(square_from_algebraic(VariantId::Turkish, "d5"), 36);
    EXPECT_EQ(square_from_algebraic(VariantId::Russian, "a2"), std::nullopt);  // light square
}

TEST(MoveText, InternationalNumeric) {
    const char* start = "W:W31-50:B1-20";
    EXPECT_EQ(text_of(VariantId::International, start, "32-28"), "32-28");
    EXPECT_EQ(text_of(VariantId::International, "W:W28:B32,33", "28x37 [32]"), "28x37");
}

TEST(MoveText, AmericanBlackNumeric) {
    // American 11-15 is Black's f6-e5.
    const Position start = start_position(VariantId::American);
    const auto m         = parse_move(start, "11-15");
    ASSERT_TRUE(m.ok()) << m.error();
    EXPECT_EQ(path_squares(VariantId::American, *m), (std::vector<int>{11, 15}));
    EXPECT_EQ(move_text(start, *m), "11-15");
    EXPECT_EQ(square_text(VariantId::American, 11), "11");
}

TEST(MoveText, RussianAlgebraic) {
    // c3-d4 is 22-18; a capture is written with ':' (c3:e5).
    const Position start = start_position(VariantId::Russian);
    const auto m         = parse_move(start, "c3-d4");
    ASSERT_TRUE(m.ok()) << m.error();
    EXPECT_EQ(path_squares(VariantId::Russian, *m), (std::vector<int>{22, 18}));
    EXPECT_EQ(move_text(start, *m), "c3-d4");
    EXPECT_EQ(text_of(VariantId::Russian, "W:W22:B18", "22x15 [18]"), "c3:e5");
    EXPECT_EQ(parsed(VariantId::Russian, "W:W22:B18", "c3:e5"), "22x15 [18]");
    EXPECT_EQ(parsed(VariantId::Russian, "W:W22:B18", "22x15"), "22x15 [18]");  // numbers too
}

TEST(MoveText, AlgebraicVariantsUseSquareNames) {
    // Brazilian, Pool and Czech write squares as names too (docs/notation.md).
    for (const VariantId v : {VariantId::Brazilian, VariantId::Pool, VariantId::Czech}) {
        const std::string quiet = text_of(v, "W:W22:B4", "22-18");
        EXPECT_EQ(quiet, "c3-d4") << rules(v).key;
        const std::string capture = text_of(v, "W:W22:B18", "22x15 [18]");
        EXPECT_TRUE(capture == "c3:e5" || capture == "c3xe5") << rules(v).key << ": " << capture;
        EXPECT_EQ(parsed(v, "W:W22:B18", capture), "22x15 [18]") << rules(v).key;
    }
}

TEST(MoveText, TurkishAlgebraic) {
    // d3-d4 from the start; d3xd5 takes d4.
    const Position start = start_position(VariantId::Turkish);
    const auto m         = parse_move(start, "d3-d4");
    ASSERT_TRUE(m.ok()) << m.error();
    EXPECT_EQ(path_squares(VariantId::Turkish, *m), (std::vector<int>{20, 28}));
    EXPECT_EQ(move_text(start, *m), "d3-d4");
    EXPECT_EQ(text_of(VariantId::Turkish, "W:W20:B28", "20x36 [28]"), "d3xd5");
    EXPECT_EQ(parsed(VariantId::Turkish, "W:W20:B28", "d3xd5"), "20x36 [28]");
}

TEST(MoveText, MirroredBoardsNumeric) {
    // Italian b3-a4 is 21-17; Spanish h3-g4 is 9-13; Thai b2-a3 is 25-21.
    EXPECT_EQ(text_of(VariantId::Italian, "W:W21-32:B1-12", "21-17"), "21-17");
    EXPECT_EQ(text_of(VariantId::Spanish, "W:W1-12:B21-32", "9-13"), "9-13");
    EXPECT_EQ(text_of(VariantId::Thai, "W:W25-32:B1-8", "25-21"), "25-21");
    EXPECT_EQ(text_of(VariantId::Italian, "W:W22:B18", "22x13 [18]"), "22x13");
}

TEST(MoveText, EveryStartMoveRoundTripsInEveryVariant) {
    for (const RuleSet& r : all_variants()) {
        const Position start = start_position(r.id);
        MoveList legal;
        generate_moves(start, legal);
        ASSERT_FALSE(legal.empty()) << r.key;
        for (const Move& m : legal) {
            const std::string text = move_text(start, m, legal);
            const auto back        = parse_move(start, text);
            ASSERT_TRUE(back.ok()) << r.key << " '" << text << "': " << back.error();
            EXPECT_TRUE(back->same_as(m)) << r.key << " " << text;
            EXPECT_EQ(move_text_full(start, m), text) << r.key;  // quiet: path = from, to
        }
    }
}

// American: man c1 (30) to e7 (7) by two routes taking different pieces:
// 30-21-14-7 over b2, b4, d6 and 30-23-14-7 over d2, d4, d6.
constexpr const char* kTwoRoutes = "W:W30:B10,17,18,25,26";

TEST(MoveText, AmbiguousCapturesAreWrittenWithTheFullPath) {
    constexpr VariantId v = VariantId::American;
    EXPECT_MOVES(v, kTwoRoutes, "30x7 [10,17,25]", "30x7 [10,18,26]");
    EXPECT_EQ(text_of(v, kTwoRoutes, "30x7 [10,17,25]"), "30x21x14x7");
    EXPECT_EQ(text_of(v, kTwoRoutes, "30x7 [10,18,26]"), "30x23x14x7");
}

TEST(MoveText, UnambiguousCapturesAreShort) {
    // A three-piece capture with one route is written from x to.
    constexpr VariantId v = VariantId::American;
    const char* fen       = "W:W30:B10,17,25";
    EXPECT_MOVES(v, fen, "30x7 [10,17,25]");
    EXPECT_EQ(text_of(v, fen, "30x7 [10,17,25]"), "30x7");
    const Position pos = position(v, fen);
    EXPECT_EQ(move_text_full(pos, find_legal(v, fen, "30x7 [10,17,25]")), "30x21x14x7");
}

TEST(MoveText, ParseFullAndPartialPaths) {
    constexpr VariantId v = VariantId::American;
    EXPECT_EQ(parsed(v, kTwoRoutes, "30x21x14x7"), "30x7 [10,17,25]");
    EXPECT_EQ(parsed(v, kTwoRoutes, "30x23x14x7"), "30x7 [10,18,26]");
    EXPECT_EQ(parsed(v, kTwoRoutes, "30x21x7"), "30x7 [10,17,25]");  // partial path
    EXPECT_EQ(parsed(v, kTwoRoutes, "30x23x7"), "30x7 [10,18,26]");
    EXPECT_EQ(parsed(v, kTwoRoutes, "30-21-14-7"), "30x7 [10,17,25]");  // any separator
    EXPECT_EQ(parsed(v, kTwoRoutes, "30:23:14:7"), "30x7 [10,18,26]");
    EXPECT_EQ(parsed(v, kTwoRoutes, " 30x21x7 "), "30x7 [10,17,25]");  // surrounding space
}

TEST(MoveText, ParseAmbiguousIsAnError) {
    constexpr VariantId v        = VariantId::American;
    const std::string short_form = parsed(v, kTwoRoutes, "30x7");
    EXPECT_TRUE(contains(short_form, "ambiguous")) << short_form;
    const std::string via14 = parsed(v, kTwoRoutes, "30x14x7");  // both routes pass 14
    EXPECT_TRUE(contains(via14, "ambiguous")) << via14;
}

TEST(MoveText, ParseSeparators) {
    constexpr VariantId v = VariantId::International;
    const char* fen       = "W:W28:B32,33";
    EXPECT_EQ(parsed(v, fen, "28x37"), "28x37 [32]");
    EXPECT_EQ(parsed(v, fen, "28-37"), "28x37 [32]");
    EXPECT_EQ(parsed(v, fen, "28:37"), "28x37 [32]");
    EXPECT_EQ(parsed(v, fen, "28X39"), "28x39 [33]");
}

TEST(MoveText, ParseMalformedIsAnError) {
    constexpr VariantId v = VariantId::International;
    const char* fen       = "W:W31-50:B1-20";
    for (const char* bad :
         {"", "   ", "32", "32-", "-28", "32--28", "abc", "32-99", "32-0", "3228", "32-28-", "x"}) {
        const std::string r = parsed(v, fen, bad);
        EXPECT_TRUE(contains(r, "error: ")) << "'" << bad << "' gave " << r;
        EXPECT_FALSE(contains(r, "illegal")) << "'" << bad << "' gave " << r;
    }
    EXPECT_TRUE(contains(parsed(v, fen, "abc"), "malformed"));
}

TEST(MoveText, ParseIllegalIsAnError) {
    constexpr VariantId v = VariantId::International;
    const char* start     = "W:W31-50:B1-20";
    for (const char* bad : {"32-27x", "32-23", "46-41", "28-23", "17-22", "32x23"}) {
        const std::string r = parsed(v, start, bad);
        EXPECT_TRUE(contains(r, "error: ")) << "'" << bad << "' gave " << r;
    }
    EXPECT_TRUE(contains(parsed(v, start, "32-23"), "illegal"));
    EXPECT_TRUE(contains(parsed(v, start, "17-22"), "illegal"));  // Black's move, White to play
    // A quiet move while a capture is compulsory.
    EXPECT_TRUE(contains(parsed(VariantId::American, "W:W22,31:B18", "31-26"), "illegal"));
    // A partial path through a square the move does not visit.
    EXPECT_TRUE(contains(parsed(VariantId::American, kTwoRoutes, "30x22x7"), "error: "));
}

TEST(MoveText, ParseHonoursTheNoForcedCaptureOption) {
    constexpr VariantId v = VariantId::American;
    EXPECT_EQ(parsed(v, "W:W22,31:B18", "31-26", MoveGenOptions{.forced_capture = false}), "31-26");
}

TEST(MoveText, FindMoveByIdentity) {
    constexpr VariantId v = VariantId::American;
    const Position pos    = position(v, kTwoRoutes);
    const auto a          = find_move(pos, 30, 7, {10, 17, 25});
    ASSERT_TRUE(a.ok()) << a.error();
    EXPECT_EQ(rules_test::move_string(v, *a), "30x7 [10,17,25]");
    const auto b = find_move(pos, 30, 7, {25, 10, 17});  // order does not matter
    ASSERT_TRUE(b.ok()) << b.error();
    EXPECT_TRUE(b->same_as(*a));
    EXPECT_FALSE(find_move(pos, 30, 7, {10, 18, 25}).ok());
    EXPECT_FALSE(find_move(pos, 30, 7, {}).ok());
    EXPECT_FALSE(find_move(pos, 30, 99, {10}).ok());
    EXPECT_FALSE(find_move(pos, 30, 7, {0}).ok());
}

TEST(MoveText, ItalianRouteShownIsTheLegalOne) {
    // docs/rules.md: 24x24 is legal only by 24-15-22-31-24; its full text shows that route.
    constexpr VariantId v = VariantId::Italian;
    const char* fen       = "W:WK24:BK11,K19,K20,27,K28";
    const Position pos    = position(v, fen);
    const Move m          = find_legal(v, fen, "24x24 [19,20,27,28]");
    EXPECT_EQ(move_text(pos, m), "24x24");
    EXPECT_EQ(move_text_full(pos, m), "24x15x22x31x24");
    EXPECT_EQ(parsed(v, fen, "24x24"), "24x24 [19,20,27,28]");
}

TEST(MoveText, TextOfEveryMoveReadsBackToIt) {
    // Found by fuzzing (tests/data/fuzz-regressions/fen/k1-thai-ambiguous-path): the one-piece
    // capture 23-5 shares from and to with 23-16-7-14-5, so its text is its whole path "23-5",
    // which must not read as ambiguous.
    constexpr VariantId v = VariantId::Thai;
    const Position pos    = position(v, "W:WK23:B9,K10,K11,19");
    MoveList legal;
    generate_moves(pos, legal);
    ASSERT_EQ(legal.size(), 2U);
    for (const Move& m : legal) {
        const std::string text = move_text(pos, m, legal);
        const auto back        = parse_move(pos, text);
        ASSERT_TRUE(back.ok()) << text << ": " << back.error();
        EXPECT_TRUE(back->same_as(m)) << text;
    }
}

}  // namespace
}  // namespace papan::core
