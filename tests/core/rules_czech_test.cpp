// Hand-built rule tests for Czech draughts (docs/rules.md): men forward only, flying kings, no
// majority rule but a king must capture when it can, a man crowned by a capture stops.
// 8x8 a1 dark: 1 = b8, 29 = a1.
#include "rules_test_util.hpp"

namespace papan::core {
namespace {

using rules_test::fen_after;
using rules_test::position;
using rules_test::squares_of;

constexpr VariantId kV = VariantId::Czech;

TEST(RulesCzech, PinnedKingMustCapture) {
    // docs/rules.md table: king a7 takes d4 (landing e3, f2, g1); the man c3's double capture
    // 22x8 is not allowed because a king can capture.
    EXPECT_MOVES(kV, "W:W22,K5:B18,11", "5x23 [18]", "5x27 [18]", "5x32 [18]");
}

TEST(RulesCzech, CapturersRingOnlyTheKing) {
    const Position pos = position(kV, "W:W22,K5:B18,11");
    EXPECT_EQ(squares_of(kV, capturers(pos)), (std::vector<int>{5}));
}

TEST(RulesCzech, MenCaptureWhenNoKingCan) {
    // The king a1 is shut in by its own man on c3 (b2 empty, no capture); the man takes d4
    // and f6.
    EXPECT_MOVES(kV, "W:W22,K29:B18,11", "22x8 [11,18]");
}

TEST(RulesCzech, ManStepsForwardOnly) {
    EXPECT_MOVES(kV, "W:W18:B4", "18-14", "18-15");
}

TEST(RulesCzech, ManDoesNotCaptureBackward) {
    // Black men on c3/e3 behind d4: no capture, only d4's forward steps.
    EXPECT_MOVES(kV, "W:W18:B22,23", "18-14", "18-15");
}

TEST(RulesCzech, FlyingKingLandsOnAnyEmptySquareBeyond) {
    EXPECT_MOVES(
        kV, "W:WK29:B22", "29x18 [22]", "29x15 [22]", "29x11 [22]", "29x8 [22]", "29x4 [22]");
}

TEST(RulesCzech, FreeChoiceAmongKingCaptures) {
    // King d4: c5 then c7 (2) or e5 alone (1, landing f6/g7/h8): no majority rule.
    EXPECT_MOVES(kV, "W:WK18:B6,14,15", "18x2 [6,14]", "18x11 [15]", "18x8 [15]", "18x4 [15]");
}

TEST(RulesCzech, FreeChoiceAmongManCaptures) {
    // a3 takes b4 (1); c3 takes b4 (1) or d4+f6 (2): all legal.
    EXPECT_MOVES(kV, "W:W21,22:B17,18,11", "21x14 [17]", "22x13 [17]", "22x8 [11,18]");
}

TEST(RulesCzech, CrowningByCaptureEndsTheMove) {
    // b6 takes c7 to d8 and stops crowned (a king could take e7 from there).
    const char* fen = "W:W9:B6,7";
    EXPECT_MOVES(kV, fen, "9x2 [6]=K");
    EXPECT_EQ(fen_after(kV, fen, "9x2 [6]=K"), "B:WK2:B7");
}

TEST(RulesCzech, QuietPromotion) {
    const char* fen = "W:W5:B12";
    EXPECT_MOVES(kV, fen, "5-1=K");
    EXPECT_EQ(fen_after(kV, fen, "5-1=K"), "B:WK1:B12");
}

TEST(RulesCzech, NoForcedCaptureHouseRule) {
    // Captures optional: c3 may take d4 (landing e5) or step to b4.
    EXPECT_MOVES_OPT(
        kV, "W:W22:B18", MoveGenOptions{.forced_capture = false}, "22x15 [18]", "22-17");
}

}  // namespace
}  // namespace papan::core
