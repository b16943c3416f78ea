// Hand-built rule tests for Thai draughts (docs/rules.md): 8 men each, men forward only, flying
// kings that land right behind the captured piece, captured pieces removed one by one (a king
// may cross or reverse over an emptied square), free choice, a man crowned by a capture stops.
// 8x8 a1 dark: 1 = b8, 29 = a1.
#include "rules_test_util.hpp"

namespace papan::core {
namespace {

using rules_test::fen_after;
using rules_test::position;
using rules_test::squares_of;

constexpr VariantId kV = VariantId::Thai;

TEST(RulesThai, PinnedKingReversesThroughEmptiedSquares) {
    // docs/rules.md table: king d4 takes e5 (to f6) then comes back over d4 to take c3 (to b2), or
    // the other way round: two moves, each taking both.
    EXPECT_MOVES(kV, "W:WK18:B15,22", "18x11 [15,22]", "18x25 [15,22]");
}

TEST(RulesThai, PinnedKingLandsRightBehind) {
    // docs/rules.md table: king a1 takes c3 and must land on d4.
    EXPECT_MOVES(kV, "W:WK29:B22", "29x18 [22]");
}

TEST(RulesThai, StartPosition) {
    // White on 25-32 moves first; only row 2 (25-28) can move: 25 has two targets ... 28 one.
    const Position start = start_position(kV);
    EXPECT_EQ(start.side, Color::White);
    EXPECT_EQ(to_fen(start), "W:W25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8");
    EXPECT_MOVES(kV, to_fen(start), "25-21", "25-22", "26-22", "26-23", "27-23", "27-24", "28-24");
}

TEST(RulesThai, KingCapturesFromADistance) {
    // King a1, black e5 three squares away: it flies to it and lands on f6 right behind.
    EXPECT_MOVES(kV, "W:WK29:B15", "29x11 [15]");
}

TEST(RulesThai, KingCannotJumpWhenTheSquareBehindIsTaken) {
    // c3 and d4 both black: the square right behind c3 is occupied, no capture; a1-b2 only.
    EXPECT_MOVES(kV, "W:WK29:B22,18", "29-25");
}

TEST(RulesThai, KingQuietMovesFly) {
    EXPECT_MOVES(kV, "W:WK29:B4", "29-25", "29-22", "29-18", "29-15", "29-11", "29-8");
}

TEST(RulesThai, ManStepsForwardOnly) {
    EXPECT_MOVES(kV, "W:W18:B4", "18-14", "18-15");
}

TEST(RulesThai, ManDoesNotCaptureBackward) {
    EXPECT_MOVES(kV, "W:W18:B22,23", "18-14", "18-15");
}

TEST(RulesThai, FreeChoiceNoMajority) {
    EXPECT_MOVES(kV, "W:W21,22:B17,18,11", "21x14 [17]", "22x13 [17]", "22x8 [11,18]");
}

TEST(RulesThai, CapturersUnderFreeChoice) {
    const Position pos = position(kV, "W:W21,22:B17,18,11");
    EXPECT_EQ(squares_of(kV, capturers(pos)), (std::vector<int>{21, 22}));
}

TEST(RulesThai, CrowningByCaptureEndsTheMove) {
    const char* fen = "W:W9:B6,7";
    EXPECT_MOVES(kV, fen, "9x2 [6]=K");
    EXPECT_EQ(fen_after(kV, fen, "9x2 [6]=K"), "B:WK2:B7");
}

TEST(RulesThai, QuietPromotion) {
    const char* fen = "W:W5:B12";
    EXPECT_MOVES(kV, fen, "5-1=K");
    EXPECT_EQ(fen_after(kV, fen, "5-1=K"), "B:WK1:B12");
}

TEST(RulesThai, NoForcedCaptureHouseRule) {
    // King a1 may take c3 (landing d4) or make any quiet move: b2 only, since c3 blocks.
    EXPECT_MOVES_OPT(
        kV, "W:WK29:B22", MoveGenOptions{.forced_capture = false}, "29x18 [22]", "29-25");
}

}  // namespace
}  // namespace papan::core
