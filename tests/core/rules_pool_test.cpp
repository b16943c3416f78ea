// Hand-built rule tests for Pool checkers (docs/rules.md): Black moves first, men capture backward,
// flying kings, free choice, Turkish strike; a man passing the king row mid-capture goes on as
// a man and is crowned only if the move ends there (note P). 8x8 a1 dark: 1 = b8, 29 = a1.
#include "rules_test_util.hpp"

namespace papan::core {
namespace {

using rules_test::fen_after;
using rules_test::position;

constexpr VariantId kV = VariantId::Pool;

TEST(RulesPool, StartPositionBlackMovesFirst) {
    const Position start = start_position(kV);
    EXPECT_EQ(start.side, Color::Black);
    EXPECT_EQ(to_fen(start), "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12");
    EXPECT_MOVES(kV, to_fen(start), "9-13", "9-14", "10-14", "10-15", "11-15", "11-16", "12-16");
}

TEST(RulesPool, PinnedManIsNotCrownedInPassing) {
    // docs/rules.md table: b6 takes c7 to d8 and stops there (a man cannot reach f6); crowned.
    const char* fen = "W:W9:B6,11";
    EXPECT_MOVES(kV, fen, "9x2 [6]=K");
    EXPECT_EQ(fen_after(kV, fen, "9x2 [6]=K"), "B:WK2:B11");
}

TEST(RulesPool, PinnedManJumpsBackOutStillAMan) {
    // docs/rules.md table: b6 takes c7 to d8, then e7 backward as a man to f6: not crowned.
    const char* fen = "W:W9:B6,7";
    EXPECT_MOVES(kV, fen, "9x11 [6,7]");
    EXPECT_EQ(fen_after(kV, fen, "9x11 [6,7]"), "B:W11:B");
}

TEST(RulesPool, ManCapturesBackward) {
    EXPECT_MOVES(kV, "W:W18:B22,23", "18x25 [22]", "18x27 [23]");
}

TEST(RulesPool, FreeChoiceNoMajority) {
    EXPECT_MOVES(kV, "W:W21,22:B17,18,11", "21x23 [17,18]", "22x13 [17]", "22x8 [11,18]");
}

TEST(RulesPool, FlyingKingLandsOnAnyEmptySquareBeyond) {
    EXPECT_MOVES(
        kV, "W:WK29:B22", "29x18 [22]", "29x15 [22]", "29x11 [22]", "29x8 [22]", "29x4 [22]");
}

TEST(RulesPool, KingMustGoOnCapturing) {
    // Only the landing e5 continues (over g3 to h2); the capture must be completed.
    EXPECT_MOVES(kV, "W:WK29:B22,24", "29x28 [22,24]");
}

TEST(RulesPool, TurkishStrikeNoReversalOverDeadPiece) {
    EXPECT_MOVES(
        kV, "W:WK18:B15,22", "18x11 [15]", "18x8 [15]", "18x4 [15]", "18x25 [22]", "18x29 [22]");
}

TEST(RulesPool, BlackManCapturesBackward) {
    // Black e5 (15) takes d6 (10) backward (up the board) landing c7 (6), or f4 (19) forward
    // landing g3 (24).
    EXPECT_MOVES(kV, "B:W10,19:B15", "15x6 [10]", "15x24 [19]");
}

TEST(RulesPool, NoForcedCaptureHouseRule) {
    EXPECT_MOVES_OPT(kV,
                     "W:W22,31:B18",
                     MoveGenOptions{.forced_capture = false},
                     "22x15 [18]",
                     "22-17",
                     "31-26",
                     "31-27");
}

}  // namespace
}  // namespace papan::core
