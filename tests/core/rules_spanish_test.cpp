// Hand-built rule tests for Spanish draughts (docs/rules.md): mirrored board numbered the Spanish
// way (1 = h1, 4 = b1, 5 = g2, 29 = g8, 32 = a8; White on 1-12 moves up), men forward only,
// flying kings, most pieces then most kings (no priority for capturing with a king), a man
// crowned by a capture stops.
#include "rules_test_util.hpp"

namespace papan::core {
namespace {

using rules_test::fen_after;
using rules_test::position;
using rules_test::squares_of;

constexpr VariantId kV = VariantId::Spanish;

TEST(RulesSpanish, StartPositionWhiteOnOneToTwelve) {
    // White's row 3 is b3 (12), d3 (11), f3 (10), h3 (9): h3 has one target (g4 = 13).
    EXPECT_EQ(start_position(kV).side, Color::White);
    EXPECT_MOVES(kV,
                 std::string(rules(kV).start_fen),
                 "9-13",
                 "10-13",
                 "10-14",
                 "11-14",
                 "11-15",
                 "12-15",
                 "12-16");
}

TEST(RulesSpanish, ManStepsForward) {
    // f3 (10) steps to g4 (13) or e4 (14).
    EXPECT_MOVES(kV, "W:W10:B30", "10-13", "10-14");
}

TEST(RulesSpanish, ManDoesNotCaptureBackward) {
    // e4 (14) has black men behind on d3 (11) and f3 (10) with c2/g2 empty: no capture.
    EXPECT_MOVES(kV, "W:W14:B10,11", "14-18", "14-19");
}

TEST(RulesSpanish, FlyingKingLandsOnAnyEmptySquareBeyond) {
    // King h1 (1) takes f3 (10) on the long diagonal: it may stop on e4, d5, c6, b7 or a8.
    EXPECT_MOVES(kV, "W:WK1:B10", "1x14 [10]", "1x19 [10]", "1x23 [10]", "1x28 [10]", "1x32 [10]");
}

TEST(RulesSpanish, MostKingsAmongEqualMaxima) {
    // The man f3 takes the king e4 and c6 (2 pieces, 1 king); the king h3 takes f5 and c6
    // (2 pieces, no king). Most kings wins: only the man's capture.
    EXPECT_MOVES(kV, "W:W10,K9:BK14,18,23", "10x28 [14,23]");
}

TEST(RulesSpanish, NoPriorityForCapturingWithAKing) {
    // The same with e4 a man: 2 pieces and 0 kings each, so the man's and the king's captures
    // (king landing b5 or a4) are all legal.
    EXPECT_MOVES(kV, "W:W10,K9:B14,18,23", "10x28 [14,23]", "9x20 [18,23]", "9x16 [18,23]");
}

TEST(RulesSpanish, MostPiecesBeforeMostKings) {
    // King h3 takes f5 and c6 (2 men); the man f3 takes the king e4 but its own man on b7 (28)
    // stops it taking c6 (1 piece): most pieces comes first.
    EXPECT_MOVES(kV, "W:W10,28,K9:BK14,18,23", "9x20 [18,23]", "9x16 [18,23]");
}

TEST(RulesSpanish, CapturersFollowMostKings) {
    const Position pos = position(kV, "W:W10,K9:BK14,18,23");
    EXPECT_EQ(squares_of(kV, capturers(pos)), (std::vector<int>{10}));
}

TEST(RulesSpanish, CrowningByCaptureEndsTheMove) {
    // e6 (22) takes d7 (27) reaching c8 (31): crowned, the move ends although a king there
    // could take b7 (28).
    const char* fen = "W:W22:B27,28";
    EXPECT_MOVES(kV, fen, "22x31 [27]=K");
    EXPECT_EQ(fen_after(kV, fen, "22x31 [27]=K"), "B:WK31:B28");
}

TEST(RulesSpanish, QuietPromotion) {
    // h7 (25) steps to g8 (29) and is crowned.
    const char* fen = "W:W25:B16";
    EXPECT_MOVES(kV, fen, "25-29=K");
    EXPECT_EQ(fen_after(kV, fen, "25-29=K"), "B:WK29:B16");
}

TEST(RulesSpanish, NoForcedCaptureHouseRule) {
    // f3 (10) can take e4 (14) landing d5 (19); with captures optional g4 (13) is open too.
    EXPECT_MOVES(kV, "W:W10:B14", "10x19 [14]");
    EXPECT_MOVES_OPT(
        kV, "W:W10:B14", MoveGenOptions{.forced_capture = false}, "10x19 [14]", "10-13");
}

}  // namespace
}  // namespace papan::core
