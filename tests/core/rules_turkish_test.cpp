// Hand-built rule tests for Turkish dama (docs/rules.md): orthogonal board, square = (rank-1)*8 +
// file (a1 = 1, h8 = 64); men step forward or sideways and capture forward or sideways, never
// backward; flying kings along ranks and files landing anywhere beyond; captured pieces leave at
// once; no 180-degree turn between two captures; majority capture; a man reaching the last row
// mid-capture goes on as a man.
#include "rules_test_util.hpp"

namespace papan::core {
namespace {

using rules_test::fen_after;
using rules_test::position;
using rules_test::squares_of;

constexpr VariantId kV = VariantId::Turkish;

TEST(RulesTurkish, PinnedManGoesOnAsAManOnTheLastRow) {
    // docs/rules.md table: c6 takes c7 reaching c8; a king would fly on over f8, a man cannot (d8
    // is empty), so the move ends there and the man is crowned.
    const char* fen = "W:W43:B51,62";
    EXPECT_MOVES(kV, fen, "43x59 [51]=K");
    EXPECT_EQ(fen_after(kV, fen, "43x59 [51]=K"), "B:WK59:B62");
}

TEST(RulesTurkish, PinnedNoHalfTurnBetweenCaptures) {
    // docs/rules.md table: king d4 between d5 and d3 on the d-file: taking both needs a 180-degree
    // turn, so it takes one, landing anywhere beyond.
    EXPECT_MOVES(
        kV, "W:WK28:B36,20", "28x4 [20]", "28x12 [20]", "28x44 [36]", "28x52 [36]", "28x60 [36]");
}

TEST(RulesTurkish, StartPosition) {
    // White's rank 3 (17-24) moves: straight up (8), and a-h men cannot step sideways into
    // occupied squares, so only the eight forward steps.
    EXPECT_EQ(start_position(kV).side, Color::White);
    EXPECT_MOVES(kV,
                 std::string(rules(kV).start_fen),
                 "17-25",
                 "18-26",
                 "19-27",
                 "20-28",
                 "21-29",
                 "22-30",
                 "23-31",
                 "24-32");
}

TEST(RulesTurkish, ManStepsForwardOrSideways) {
    // d4 goes to d5, c4 or e4; never back to d3.
    EXPECT_MOVES(kV, "W:W28:B60", "28-36", "28-27", "28-29");
}

TEST(RulesTurkish, BlackManStepsDownOrSideways) {
    // Black d5 goes to d4, c5 or e5.
    EXPECT_MOVES(kV, "B:W1:B36", "36-28", "36-35", "36-37");
}

TEST(RulesTurkish, ManCapturesForwardAndSidewaysNotBackward) {
    // d4 takes c4 (to b4) or d5 (to d6); the black man on d3 behind it is safe.
    EXPECT_MOVES(kV, "W:W28:B20,27,36", "28x26 [27]", "28x44 [36]");
}

TEST(RulesTurkish, KingFliesAlongRankAndFile) {
    // King a1: the a-file a2..a8 and the first rank b1..h1 (h8 holds a black man, off its lines).
    EXPECT_MOVES(kV,
                 "W:WK1:B64",
                 "1-9",
                 "1-17",
                 "1-25",
                 "1-33",
                 "1-41",
                 "1-49",
                 "1-57",
                 "1-2",
                 "1-3",
                 "1-4",
                 "1-5",
                 "1-6",
                 "1-7",
                 "1-8");
}

TEST(RulesTurkish, ImmediateRemovalLetsTheKingCrossAnEmptiedSquare) {
    // King a1: up over a3 to a5, right over c5 to d5, down over d3 to d1, left over b1 to a1,
    // then up again through a3 (already removed) over a6 to a7 or a8: 5 pieces. With dead
    // pieces staying, a3 would block; every other route takes at most 4 (majority).
    EXPECT_MOVES(kV, "W:WK1:BK2,17,20,35,41", "1x49 [2,17,20,35,41]", "1x57 [2,17,20,35,41]");
}

TEST(RulesTurkish, MajorityCapture) {
    // Man d4 takes d5 and d7 (2 pieces, ending d8 crowned) or c4 (1): only the longer one.
    const char* fen = "W:W28:B27,36,52";
    EXPECT_MOVES(kV, fen, "28x60 [36,52]=K");
}

TEST(RulesTurkish, CapturersFollowTheMajorityRule) {
    // Men d4 (2 pieces) and h4 (1 piece, g4): only d4 must capture.
    const Position pos = position(kV, "W:W28,32:B31,36,52");
    EXPECT_EQ(squares_of(kV, capturers(pos)), (std::vector<int>{28}));
}

TEST(RulesTurkish, ManOnTheLastRowCapturesSideways) {
    // c6 takes c7 to c8, then as a man sideways over d8 to e8; crowned at the end.
    const char* fen = "W:W43:B51,60";
    EXPECT_MOVES(kV, fen, "43x61 [51,60]=K");
    EXPECT_EQ(fen_after(kV, fen, "43x61 [51,60]=K"), "B:WK61:B");
}

TEST(RulesTurkish, QuietPromotion) {
    // d7 steps to d8 (crowned) or sideways to c7 / e7.
    const char* fen = "W:W52:B40";
    EXPECT_MOVES(kV, fen, "52-60=K", "52-51", "52-53");
    EXPECT_EQ(fen_after(kV, fen, "52-60=K"), "B:WK60:B40");
}

TEST(RulesTurkish, BlackManCapturesDownAndSideways) {
    // Black d5 takes d4 (to d3) or e5 (to f5); the white man on d6 behind it is safe.
    EXPECT_MOVES(kV, "B:W28,37,44:B36", "36x20 [28]", "36x38 [37]");
}

}  // namespace
}  // namespace papan::core
