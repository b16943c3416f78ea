// Hand-built rule tests for Brazilian draughts (docs/rules.md): International rules on the 8x8
// board (a1 dark, 1 = b8, 29 = a1): men capture backward, flying kings, majority capture, a man
// passing the last row mid-capture stays a man.
#include "rules_test_util.hpp"

namespace papan::core {
namespace {

using rules_test::fen_after;
using rules_test::position;
using rules_test::squares_of;

constexpr VariantId kV = VariantId::Brazilian;

TEST(RulesBrazilian, StartPositionWhiteMovesFirst) {
    // White's row 3 (21-24) steps up: 21 has one target, 22-24 two each.
    EXPECT_EQ(start_position(kV).side, Color::White);
    EXPECT_MOVES(kV,
                 std::string(rules(kV).start_fen),
                 "21-17",
                 "22-17",
                 "22-18",
                 "23-18",
                 "23-19",
                 "24-19",
                 "24-20");
}

TEST(RulesBrazilian, ManStepsForwardOnly) {
    // With nothing to take, d4 steps forward only: c5 or e5.
    EXPECT_MOVES(kV, "W:W18:B4", "18-14", "18-15");
}

TEST(RulesBrazilian, ManCapturesBackward) {
    // d4 takes c3 (landing b2) or e3 (landing f2), both behind it.
    EXPECT_MOVES(kV, "W:W18:B22,23", "18x25 [22]", "18x27 [23]");
}

TEST(RulesBrazilian, MajorityWithBackwardCaptures) {
    // a3 takes b4 then d4 backward (2); c3 takes d4 then f6 (2) or b4 alone (1): the one-piece
    // capture is dropped.
    EXPECT_MOVES(kV, "W:W21,22:B17,18,11", "21x23 [17,18]", "22x8 [11,18]");
}

TEST(RulesBrazilian, MajorityBeatsAShorterKingCapture) {
    // King d4: c5 then c7 (2, ending d8) or e5 alone (1): only the longer one.
    EXPECT_MOVES(kV, "W:WK18:B6,14,15", "18x2 [6,14]");
}

TEST(RulesBrazilian, FlyingKingLandsOnAnyEmptySquareBeyond) {
    // King a1 takes c3 and may stop on d4, e5, f6, g7 or h8.
    EXPECT_MOVES(
        kV, "W:WK29:B22", "29x18 [22]", "29x15 [22]", "29x11 [22]", "29x8 [22]", "29x4 [22]");
}

TEST(RulesBrazilian, ManPassingTheLastRowStaysAMan) {
    // b6 takes c7 to d8, then as a man takes e7 backward to f6: not crowned.
    const char* fen = "W:W9:B6,7";
    EXPECT_MOVES(kV, fen, "9x11 [6,7]");
    EXPECT_EQ(fen_after(kV, fen, "9x11 [6,7]"), "B:W11:B");
}

TEST(RulesBrazilian, ManEndingOnTheLastRowIsCrowned) {
    // b6 takes c7 to d8; f6 is not adjacent to d8 for a man, so the move ends crowned.
    const char* fen = "W:W9:B6,11";
    EXPECT_MOVES(kV, fen, "9x2 [6]=K");
    EXPECT_EQ(fen_after(kV, fen, "9x2 [6]=K"), "B:WK2:B11");
}

TEST(RulesBrazilian, CapturersFollowTheMajorityRule) {
    // a3 and c3 both have maximal captures (2 pieces).
    const Position pos = position(kV, "W:W21,22:B17,18,11");
    EXPECT_EQ(squares_of(kV, capturers(pos)), (std::vector<int>{21, 22}));
}

TEST(RulesBrazilian, NoForcedCaptureHouseRule) {
    // Captures optional: d4's backward capture and its two forward steps are all legal.
    EXPECT_MOVES_OPT(
        kV, "W:W18:B22", MoveGenOptions{.forced_capture = false}, "18x25 [22]", "18-14", "18-15");
}

}  // namespace
}  // namespace papan::core
