// Hand-built rule tests for International draughts 10x10 (FMJD, docs/rules.md): men capture
// backward, flying kings land on any empty square beyond, majority capture (a king counts 1),
// Turkish strike (dead pieces stay until the move ends), a man passing row 10 mid-capture stays
// a man. Squares 1-50: 1 = b10, 5 = j10, 46 = a1, 50 = i1; the long diagonal is
// 46-41-37-32-28-23-19-14-10-5 (a1..j10).
#include "rules_test_util.hpp"

namespace papan::core {
namespace {

using rules_test::fen_after;
using rules_test::position;
using rules_test::squares_of;

constexpr VariantId kV = VariantId::International;

TEST(RulesInternational, StartPositionHasNineMoves) {
    // White's front row 31-35 steps up: 31 has two targets, 35 one, 32-34 two each.
    EXPECT_MOVES(kV,
                 std::string(rules(kV).start_fen),
                 "31-26",
                 "31-27",
                 "32-27",
                 "32-28",
                 "33-28",
                 "33-29",
                 "34-29",
                 "34-30",
                 "35-30");
}

TEST(RulesInternational, ManStepsForwardOnly) {
    // f4 (33) goes to e5 (28) or g5 (29).
    EXPECT_MOVES(kV, "W:W33:B3", "33-28", "33-29");
}

TEST(RulesInternational, BlackManStepsForwardOnly) {
    // Black e7 (18) goes down to d6 (22) or f6 (23).
    EXPECT_MOVES(kV, "B:W48:B18", "18-22", "18-23");
}

TEST(RulesInternational, ManCapturesBackward) {
    // e5 (28) takes d4 (32) landing c3 (37) or f4 (33) landing g3 (39), both backwards.
    EXPECT_MOVES(kV, "W:W28:B32,33", "28x37 [32]", "28x39 [33]");
}

TEST(RulesInternational, FlyingKingLandsOnAnyEmptySquareBeyond) {
    // King a1 takes e5 on the long diagonal: it may stop on f6, g7, h8, i9 or j10.
    EXPECT_MOVES(
        kV, "W:WK46:B28", "46x23 [28]", "46x19 [28]", "46x14 [28]", "46x10 [28]", "46x5 [28]");
}

TEST(RulesInternational, KingQuietMovesFly) {
    // King a1 with nothing in the way: the whole long diagonal b2..i9 (j10 is occupied).
    EXPECT_MOVES(
        kV, "W:WK46:B5", "46-41", "46-37", "46-32", "46-28", "46-23", "46-19", "46-14", "46-10");
}

TEST(RulesInternational, MajorityForcesTheLandingThatContinues) {
    // After e5 only the landing f6 (23) lets the king go on over h4 (34); majority (2 > 1)
    // keeps just the two-piece captures, ending on i3 or j2.
    EXPECT_MOVES(kV, "W:WK46:B28,34", "46x40 [28,34]", "46x45 [28,34]");
}

TEST(RulesInternational, MajorityCaptureIsCompulsory) {
    // f4 can take e5+c7 (2, ending b8); a3 can take the king on b4 (1). A king counts as one
    // piece, so only the two-piece capture is legal.
    EXPECT_MOVES(kV, "W:W33,36:B17,28,K31", "33x11 [17,28]");
}

TEST(RulesInternational, EqualMaximaAreAFreeChoice) {
    // Both men take one piece (e5 backward over d4, e1 forward over f2): both legal.
    EXPECT_MOVES(kV, "W:W28,48:B32,43", "28x37 [32]", "48x39 [43]");
}

TEST(RulesInternational, CapturersRingOnlyThePiecesWithAMaximalCapture) {
    // Same position as MajorityCaptureIsCompulsory: a3 can capture but may not, so only f4.
    const Position pos = position(kV, "W:W33,36:B17,28,K31");
    EXPECT_EQ(squares_of(kV, capturers(pos)), (std::vector<int>{33}));
}

TEST(RulesInternational, TurkishStrikeDeadPieceBlocksTheWayBack) {
    // King d4 between e5 and c3 on one diagonal: after taking one it would have to jump the
    // other through the dead piece's square (or jump it twice); so only single captures.
    EXPECT_MOVES(kV,
                 "W:WK32:B28,37",
                 "32x23 [28]",
                 "32x19 [28]",
                 "32x14 [28]",
                 "32x10 [28]",
                 "32x5 [28]",
                 "32x41 [37]",
                 "32x46 [37]");
}

TEST(RulesInternational, ManPassingRowTenStaysAMan) {
    // f8 takes e9 reaching d10, then as a MAN takes c9 backward landing b8 (a king could also
    // stop on a7). The move ends on b8 uncrowned.
    const char* fen = "W:W13:B7,8";
    EXPECT_MOVES(kV, fen, "13x11 [7,8]");
    EXPECT_EQ(fen_after(kV, fen, "13x11 [7,8]"), "B:W11:B");
}

TEST(RulesInternational, ManEndingOnRowTenIsCrowned) {
    // f8 takes e9 and stops on d10 with nothing more to take: crowned.
    const char* fen = "W:W13:B8";
    EXPECT_MOVES(kV, fen, "13x2 [8]=K");
    EXPECT_EQ(fen_after(kV, fen, "13x2 [8]=K"), "B:WK2:B");
}

TEST(RulesInternational, QuietPromotion) {
    // g9 (9) steps to f10 (3) or h10 (4), both crowning.
    const char* fen = "W:W9:B45";
    EXPECT_MOVES(kV, fen, "9-3=K", "9-4=K");
    EXPECT_EQ(fen_after(kV, fen, "9-4=K"), "B:WK4:B45");
}

TEST(RulesInternational, FlyingKingLoopIsOneMove) {
    // King a3 around b4, d4, d2, b2 back to a3, either way round: one move ending on its start
    // square; the majority rule drops every shorter capture.
    const char* fen = "W:WK36:B31,32,41,42";
    EXPECT_MOVES(kV, fen, "36x36 [31,32,41,42]");
    MoveList routes;
    generate_routes(position(kV, fen), routes);
    EXPECT_EQ(routes.size(), 2U);
    for (const Move& m : routes) {
        EXPECT_EQ(m.capture_count(), 4);
        EXPECT_EQ(m.from, m.to);
    }
}

TEST(RulesInternational, KingLoopLeavesPositionWithoutTheCapturedPieces) {
    const char* fen = "W:WK36:B31,32,41,42";
    EXPECT_EQ(fen_after(kV, fen, "36x36 [31,32,41,42]"), "B:WK36:B");
}

}  // namespace
}  // namespace papan::core
