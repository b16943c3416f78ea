// FEN reading and writing (docs/notation.md, docs/pdn.md): start FENs of every variant round-trip;
// ranges, K prefixes, lidraughts counters, algebraic squares on 8x8 boards, empty sides, a
// trailing dot and whitespace are read; bad input is an error, never a crash.
#include <papan/core/notation/fen.hpp>
#include <papan/core/rules/registry.hpp>

#include <gtest/gtest.h>

#include <string>
#include <string_view>

namespace papan::core {
namespace {

// "a,a+1,...,b" as to_fen writes a run of squares.
std::string run(int a, int b) {
    std::string s;
    for (int n = a; n <= b; ++n) {
        if (n > a) {
            s += ',';
        }
        s += std::to_string(n);
    }
    return s;
}

std::string written(VariantId v, std::string_view fen) {
    const auto pos = parse_fen(v, fen);
    if (!pos.ok()) {
        return "error: " + pos.error();
    }
    return to_fen(*pos);
}

TEST(Fen, StartFensRoundTripForEveryVariant) {
    // to_fen writes no ranges: W list then B list, ascending.
    struct Case {
        VariantId v;
        std::string expected;
    };

    const Case cases[] = {
        {VariantId::American, "B:W" + run(21, 32) + ":B" + run(1, 12)},
        {VariantId::International, "W:W" + run(31, 50) + ":B" + run(1, 20)},
        {VariantId::Brazilian, "W:W" + run(21, 32) + ":B" + run(1, 12)},
        {VariantId::Russian, "W:W" + run(21, 32) + ":B" + run(1, 12)},
        {VariantId::Pool, "B:W" + run(21, 32) + ":B" + run(1, 12)},
        {VariantId::Spanish, "W:W" + run(1, 12) + ":B" + run(21, 32)},
        {VariantId::Italian, "W:W" + run(21, 32) + ":B" + run(1, 12)},
        {VariantId::Czech, "W:W" + run(21, 32) + ":B" + run(1, 12)},
        {VariantId::Thai, "W:W" + run(25, 32) + ":B" + run(1, 8)},
        {VariantId::Turkish, "W:W" + run(9, 24) + ":B" + run(41, 56)},
    };
    for (const Case& c : cases) {
        const RuleSet& r = rules(c.v);
        const auto pos   = parse_fen(c.v, r.start_fen);
        ASSERT_TRUE(pos.ok()) << r.key << ": " << pos.error();
        EXPECT_EQ(*pos, start_position(c.v)) << r.key;
        EXPECT_TRUE(pos->is_consistent()) << r.key;
        EXPECT_EQ(to_fen(*pos), c.expected) << r.key;
        EXPECT_EQ(written(c.v, c.expected), c.expected) << r.key;  // written form reads back
        EXPECT_EQ(popcount(pos->of(Color::White)), r.men_per_side) << r.key;
        EXPECT_EQ(popcount(pos->of(Color::Black)), r.men_per_side) << r.key;
    }
}

TEST(Fen, RangesAndKings) {
    EXPECT_EQ(written(VariantId::International, "W:W31-35,K40:B1-3,K18"),
              "W:W31,32,33,34,35,K40:B1,2,3,K18");
    EXPECT_EQ(written(VariantId::American, "B:WK1,K2,30:BK31,5"), "B:WK1,K2,30:B5,K31");
}

TEST(Fen, KingsAreKings) {
    const auto pos = parse_fen(VariantId::International, "W:WK46,31:BK5");
    ASSERT_TRUE(pos.ok()) << pos.error();
    EXPECT_EQ(popcount(pos->kings), 2);
    EXPECT_EQ(popcount(pos->kings_of(Color::White)), 1);
    EXPECT_EQ(popcount(pos->kings_of(Color::Black)), 1);
}

TEST(Fen, LidraughtsCountersAreAccepted) {
    const auto info = parse_fen_info(VariantId::International, "W:W31-50:B1-20:H0:F1");
    ASSERT_TRUE(info.ok()) << info.error();
    EXPECT_EQ(info->halfmove_clock, 0);
    EXPECT_EQ(info->fullmove_number, 1);
    EXPECT_EQ(info->position, start_position(VariantId::International));
    EXPECT_EQ(written(VariantId::International, "B:W31:B1:H12:F30"), "B:W31:B1");
}

TEST(Fen, AlgebraicSquaresOn8x8Boards) {
    // Russian c3 = 22, e1 = 31, d6 = 10 (a1 dark).
    EXPECT_EQ(written(VariantId::Russian, "W:Wc3,Ke1:Bd6"), "W:W22,K31:B10");
    // Italian (a1 light) d3 = 22, c6 = 10; Spanish e4 = 14, a8 = 32.
    EXPECT_EQ(written(VariantId::Italian, "W:Wd3:Bc6"), "W:W22:B10");
    EXPECT_EQ(written(VariantId::Spanish, "W:We4:BKa8"), "W:W14:BK32");
    // Turkish d4 = 28, d5 = 36.
    EXPECT_EQ(written(VariantId::Turkish, "W:Wd4:Bd5"), "W:W28:B36");
    // Numbers and names may be mixed.
    EXPECT_EQ(written(VariantId::Brazilian, "W:Wc3,23:B1"), "W:W22,23:B1");
}

TEST(Fen, EmptySides) {
    EXPECT_EQ(written(VariantId::International, "W:W31:B"), "W:W31:B");
    EXPECT_EQ(written(VariantId::International, "B:W:B12"), "B:W:B12");
    const auto pos = parse_fen(VariantId::American, "W:W:B");
    ASSERT_TRUE(pos.ok()) << pos.error();
    EXPECT_EQ(pos->occupied(), Bitboard{0});
}

TEST(Fen, TrailingDotAndWhitespace) {
    EXPECT_EQ(written(VariantId::International, "W:W31-33:B1-3."), "W:W31,32,33:B1,2,3");
    EXPECT_EQ(written(VariantId::International, "  W:W31, 32:B1, 2  \n"), "W:W31,32:B1,2");
    EXPECT_EQ(written(VariantId::International, "\tB:W31:B1.\n"), "B:W31:B1");
}

TEST(Fen, EitherColourListFirst) {
    EXPECT_EQ(written(VariantId::International, "W:B1-3:W31-33"), "W:W31,32,33:B1,2,3");
}

TEST(Fen, SideToMove) {
    const auto w = parse_fen(VariantId::Russian, "W:W22:B10");
    const auto b = parse_fen(VariantId::Russian, "B:W22:B10");
    ASSERT_TRUE(w.ok() && b.ok());
    EXPECT_EQ(w->side, Color::White);
    EXPECT_EQ(b->side, Color::Black);
    EXPECT_EQ(w->variant, VariantId::Russian);
}

struct BadFen {
    VariantId v;
    const char* fen;
    const char* why;
};

TEST(Fen, BadInputIsAnError) {
    const BadFen cases[] = {
        {VariantId::International, "", "empty string"},
        {VariantId::International, "   ", "only whitespace"},
        {VariantId::International, "X:W31:B1", "bad side letter"},
        {VariantId::International, "W:W0:B1", "square 0"},
        {VariantId::International, "W:W51:B1", "square 51 on 10x10"},
        {VariantId::American, "W:W33:B1", "square 33 on 8x8"},
        {VariantId::Turkish, "W:W65:B41", "square 65 on the Turkish board"},
        {VariantId::International, "W:W31,31:B1", "square given twice in one list"},
        {VariantId::International, "W:W31:B31", "square given to both colours"},
        {VariantId::International, "W:W31-35:B33", "range overlapping a square"},
        {VariantId::International, "W:W3:B20", "white man on row 10"},
        {VariantId::International, "W:W31:B48", "black man on row 1"},
        {VariantId::American, "W:W2:B12", "white man on its promotion row"},
        {VariantId::Turkish, "W:W60:B41", "white man on rank 8"},
        {VariantId::Turkish, "W:W9:B4", "black man on rank 1"},
        {VariantId::Spanish, "W:W30:B21", "white man on Spanish rank 8"},
        {VariantId::International, "hello", "garbage"},
        {VariantId::International, "W:Wxyz:B1", "garbage square"},
        {VariantId::International, "W:W31:Q5", "unknown field"},
        {VariantId::International, "W:W35-31:B1", "reversed range"},
        {VariantId::International, "W:W31-:B1", "open range"},
        {VariantId::International, "W:W31,,32:B1", "empty list item"},
        {VariantId::International, "W:WK:B1", "king prefix without square"},
        {VariantId::Russian, "W:Wz9:B1", "not a square name"},
        {VariantId::International, "W:W31:B1:Hx", "bad counter"},
        {VariantId::International, "W:W-5:B1", "negative square"},
        {VariantId::International, "W:W99999999999:B1", "huge number"},
    };
    for (const BadFen& c : cases) {
        const auto pos = parse_fen(c.v, c.fen);
        EXPECT_FALSE(pos.ok()) << c.why << ": '" << c.fen << "' parsed as " << to_fen(*pos);
        if (!pos.ok()) {
            EXPECT_FALSE(pos.error().empty()) << c.why;
        }
    }
}

TEST(Fen, KingMayStandOnAnyRow) {
    // A king on the promotion row is fine (only men are barred from it).
    EXPECT_EQ(written(VariantId::International, "W:WK3:BK48"), "W:WK3:BK48");
    EXPECT_EQ(written(VariantId::Turkish, "W:WK60:BK4"), "W:WK60:BK4");
}

TEST(Fen, ParsedPositionsAreConsistent) {
    const auto pos = parse_fen(VariantId::Italian, "W:WK3,K4,5,17,20,K27,K28:BK7,K13,14,K15,21,24");
    ASSERT_TRUE(pos.ok()) << pos.error();
    EXPECT_TRUE(pos->is_consistent());
    EXPECT_EQ(to_fen(*pos), "W:WK3,K4,5,17,20,K27,K28:BK7,K13,14,K15,21,24");
}

}  // namespace
}  // namespace papan::core
