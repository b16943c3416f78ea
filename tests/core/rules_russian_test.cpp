// Hand-built rule tests for Russian draughts (docs/rules.md): men capture backward, flying kings
// that must stop where they can go on capturing, free choice of captures, Turkish strike, a man
// crowned mid-capture goes on as a king. 8x8 a1 dark: 1 = b8, 29 = a1; algebraic text.
#include "rules_test_util.hpp"

namespace papan::core {
namespace {

using rules_test::fen_after;
using rules_test::position;
using rules_test::squares_of;

constexpr VariantId kV = VariantId::Russian;

TEST(RulesRussian, PinnedManCrownedMidCaptureGoesOnAsKing) {
    // docs/rules.md table: b6 takes c7 reaching d8, is crowned and flies on over f6 to g5 or h4.
    const char* fen = "W:W9:B6,11";
    EXPECT_MOVES(kV, fen, "9x16 [6,11]=K", "9x20 [6,11]=K");
    EXPECT_EQ(fen_after(kV, fen, "9x20 [6,11]=K"), "B:WK20:B");
}

TEST(RulesRussian, PinnedCrownedManTakesBackwardAsKing) {
    // b6 takes c7 to d8, crowned, then takes e7 as a king and may stop on f6, g5 or h4.
    EXPECT_MOVES(kV, "W:W9:B6,7", "9x11 [6,7]=K", "9x16 [6,7]=K", "9x20 [6,7]=K");
}

TEST(RulesRussian, ManStepsForwardOnly) {
    EXPECT_MOVES(kV, "W:W18:B4", "18-14", "18-15");
}

TEST(RulesRussian, ManCapturesBackward) {
    // d4 takes c3 (to b2) or e3 (to f2).
    EXPECT_MOVES(kV, "W:W18:B22,23", "18x25 [22]", "18x27 [23]");
}

TEST(RulesRussian, FreeChoiceNoMajority) {
    // a3: b4 then d4 (2); c3: b4 (1) or d4 then f6 (2). Any may be chosen; a started capture
    // must be finished (a3 cannot stop on c5).
    EXPECT_MOVES(kV, "W:W21,22:B17,18,11", "21x23 [17,18]", "22x13 [17]", "22x8 [11,18]");
}

TEST(RulesRussian, FreeChoiceBetweenKingCaptures) {
    // King d4: c5 then c7 (2) or e5 alone landing f6/g7/h8 (1): all legal.
    EXPECT_MOVES(kV, "W:WK18:B6,14,15", "18x2 [6,14]", "18x11 [15]", "18x8 [15]", "18x4 [15]");
}

TEST(RulesRussian, FlyingKingLandsOnAnyEmptySquareBeyond) {
    EXPECT_MOVES(
        kV, "W:WK29:B22", "29x18 [22]", "29x15 [22]", "29x11 [22]", "29x8 [22]", "29x4 [22]");
}

TEST(RulesRussian, KingMustStopWhereItCanContinue) {
    // King a1 takes c3; of the landings d4..h8 only e5 sees g3 (landing h2), so it must stop on
    // e5 and go on: the one-piece captures are not legal even without a majority rule.
    EXPECT_MOVES(kV, "W:WK29:B22,24", "29x28 [22,24]");
}

TEST(RulesRussian, TurkishStrikeNoReversalOverDeadPiece) {
    // King d4 between e5 and c3: the dead piece blocks the way back, so one piece only.
    EXPECT_MOVES(
        kV, "W:WK18:B15,22", "18x11 [15]", "18x8 [15]", "18x4 [15]", "18x25 [22]", "18x29 [22]");
}

TEST(RulesRussian, QuietPromotion) {
    const char* fen = "W:W5:B12";
    EXPECT_MOVES(kV, fen, "5-1=K");
    EXPECT_EQ(fen_after(kV, fen, "5-1=K"), "B:WK1:B12");
}

TEST(RulesRussian, NoForcedCaptureHouseRule) {
    // Captures optional: c3xe5 stands beside c3-b4, e1-d2 and e1-f2.
    EXPECT_MOVES(kV, "W:W22,31:B18", "22x15 [18]");
    EXPECT_MOVES_OPT(kV,
                     "W:W22,31:B18",
                     MoveGenOptions{.forced_capture = false},
                     "22x15 [18]",
                     "22-17",
                     "31-26",
                     "31-27");
}

TEST(RulesRussian, CapturersUnderFreeChoice) {
    // Every piece with any capture is ringed: a3 and c3, not g1.
    const Position pos = position(kV, "W:W21,22,32:B17,18,11");
    EXPECT_EQ(squares_of(kV, capturers(pos)), (std::vector<int>{21, 22}));
}

}  // namespace
}  // namespace papan::core
