// Hand-built rule tests for American / English checkers (docs/rules.md): men forward only, kings
// one square, free choice of captures, a man crowned by a capture stops. Squares: 8x8 a1 dark, 1 =
// b8, 29 = a1 (docs/notation.md).
#include "rules_test_util.hpp"

namespace papan::core {
namespace {

using rules_test::fen_after;
using rules_test::legal_moves;
using rules_test::position;
using rules_test::squares_of;

constexpr VariantId kV = VariantId::American;

TEST(RulesAmerican, StartPositionBlackMovesFirst) {
    // Black (1-12) moves first; its seven moves are the men of row 6 (9-12) stepping down.
    const Position start = start_position(kV);
    EXPECT_EQ(start.side, Color::Black);
    EXPECT_MOVES(kV, to_fen(start), "9-13", "9-14", "10-14", "10-15", "11-15", "11-16", "12-16");
}

TEST(RulesAmerican, WhiteManStepsDiagonallyForward) {
    // c3 (22) goes to b4 (17) or d4 (18), never backwards.
    EXPECT_MOVES(kV, "W:W22:B4", "22-17", "22-18");
}

TEST(RulesAmerican, BlackManStepsDiagonallyForward) {
    // Black's forward is down the board: f6 (11) goes to e5 (15) or g5 (16).
    EXPECT_MOVES(kV, "B:W32:B11", "11-15", "11-16");
}

TEST(RulesAmerican, ManDoesNotCaptureBackward) {
    // d4 (18) has black men behind it on c3/e3 with b2/f2 empty: no capture for a man, so
    // only the quiet moves of d4 and g1 remain.
    EXPECT_MOVES(kV, "W:W18,32:B22,23", "18-14", "18-15", "32-27", "32-28");
}

TEST(RulesAmerican, KingStepsOneSquareAllFourWays) {
    // A king on d4 reaches only the four adjacent squares.
    EXPECT_MOVES(kV, "W:WK18:B4", "18-14", "18-15", "18-22", "18-23");
}

TEST(RulesAmerican, KingCapturesOnlyAdjacentPieces) {
    // A short king: c3 (22) is two squares from a1 with b2 empty, so no capture; a1 -> b2 only.
    EXPECT_MOVES(kV, "W:WK29:B22", "29-25");
}

TEST(RulesAmerican, KingCapturesForwardAndBackward) {
    // King d4 jumps c5 (lands b6) or e3 (lands f2); neither landing continues.
    EXPECT_MOVES(kV, "W:WK18:B14,23", "18x9 [14]", "18x27 [23]");
}

TEST(RulesAmerican, FreeChoiceAmongCaptures) {
    // No majority rule: a3 takes b4 (1), c3 takes b4 (1) or d4+f6 (2); all three are legal.
    EXPECT_MOVES(kV, "W:W21,22:B17,18,11", "21x14 [17]", "22x13 [17]", "22x8 [11,18]");
}

TEST(RulesAmerican, ManMayCaptureKing) {
    // c3 takes the black king on d4 landing e5.
    EXPECT_MOVES(kV, "W:W22:BK18", "22x15 [18]");
}

TEST(RulesAmerican, CrowningByCaptureEndsTheMove) {
    // b6 takes c7 and reaches d8: crowned, the move ends (no jump of e7 as a new king).
    const char* fen = "W:W9:B6,7";
    EXPECT_MOVES(kV, fen, "9x2 [6]=K");
    EXPECT_EQ(fen_after(kV, fen, "9x2 [6]=K"), "B:WK2:B7");
}

TEST(RulesAmerican, QuietPromotionCrownsAfterMakeMove) {
    // a7 -> b8 is the only move and crowns the man.
    const char* fen = "W:W5:B12";
    EXPECT_MOVES(kV, fen, "5-1=K");
    EXPECT_EQ(fen_after(kV, fen, "5-1=K"), "B:WK1:B12");
}

TEST(RulesAmerican, BlackQuietPromotion) {
    // Black's man on f2 (27) steps to e1 (31) or g1 (32), both crowning it.
    const char* fen = "B:W5:B27";
    EXPECT_MOVES(kV, fen, "27-31=K", "27-32=K");
    EXPECT_EQ(fen_after(kV, fen, "27-32=K"), "W:W5:BK32");
}

TEST(RulesAmerican, KingLoopCountedOnce) {
    // King a3 around b4, d4, d2, b2 back to a3, clockwise or anticlockwise: one move
    // (same from, to and captured set), two routes.
    const char* fen = "W:WK21:B17,18,25,26";
    EXPECT_MOVES(kV, fen, "21x21 [17,18,25,26]");
    MoveList routes;
    generate_routes(position(kV, fen), routes);
    EXPECT_EQ(routes.size(), 2U);
}

TEST(RulesAmerican, CaptureIsForcedByDefault) {
    // c3 can take d4: the quiet moves of c3 and e1 are not legal.
    EXPECT_MOVES(kV, "W:W22,31:B18", "22x15 [18]");
}

TEST(RulesAmerican, NoForcedCaptureHouseRuleAddsQuietMoves) {
    // With captures optional the capture stands beside every quiet move (c3-b4, e1-d2, e1-f2).
    EXPECT_MOVES_OPT(kV,
                     "W:W22,31:B18",
                     MoveGenOptions{.forced_capture = false},
                     "22x15 [18]",
                     "22-17",
                     "31-26",
                     "31-27");
}

TEST(RulesAmerican, CapturersRingEveryPieceThatCanCapture) {
    // Free choice: both a3 and c3 may capture, e1 may not.
    const Position pos = position(kV, "W:W21,22,31:B17,18,11");
    EXPECT_TRUE(has_capture(pos));
    EXPECT_EQ(squares_of(kV, capturers(pos)), (std::vector<int>{21, 22}));
}

TEST(RulesAmerican, NoCapturersWithoutCapture) {
    const Position pos = position(kV, "W:W22:B4");
    EXPECT_FALSE(has_capture(pos));
    EXPECT_EQ(capturers(pos), Bitboard{0});
}

TEST(RulesAmerican, BlockedSideHasNoMoves) {
    // White's only man, a3 (21), faces b4 (17) with c5 (14) occupied: no move at all.
    EXPECT_MOVES(kV, "W:W21:B17,14");
}

}  // namespace
}  // namespace papan::core
