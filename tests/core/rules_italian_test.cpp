// Hand-built rule tests for Italian draughts (docs/rules.md): mirrored board (1 = a8, 4 = g8,
// 29 = b1, 32 = h1; White on 21-32 moves up), men forward only and unable to capture kings,
// one-square kings, precedence: most pieces, capture with a king, most kings, kings earliest;
// a man crowned by a capture stops.
#include "rules_test_util.hpp"

namespace papan::core {
namespace {

using rules_test::fen_after;
using rules_test::path_of;
using rules_test::position;
using rules_test::squares_of;

constexpr VariantId kV = VariantId::Italian;

TEST(RulesItalian, PinnedKingsMetEarliestOverTheWholeSequence) {
    // docs/rules.md table: among the maximal king captures, 3x10 meets the kings earliest.
    EXPECT_MOVES(kV, "W:WK3,K4,5,17,20,K27,K28:BK7,K13,14,K15,21,24", "3x10 [7,14,15]");
}

TEST(RulesItalian, PinnedPrecedenceAppliesPerRoute) {
    // docs/rules.md table: 24x24 over 19, 20, 27, 28; only the route 24-15-22-31-24 is legal.
    const char* fen = "W:WK24:BK11,K19,K20,27,K28";
    EXPECT_MOVES(kV, fen, "24x24 [19,20,27,28]");
    EXPECT_EQ(path_of(kV, fen, "24x24 [19,20,27,28]"), (std::vector<int>{24, 15, 22, 31, 24}));
}

TEST(RulesItalian, StartPosition) {
    // White's row 3 is b3 (21), d3 (22), f3 (23), h3 (24); b3/d3/f3 have two targets, h3 one.
    EXPECT_MOVES(kV,
                 std::string(rules(kV).start_fen),
                 "21-17",
                 "21-18",
                 "22-18",
                 "22-19",
                 "23-19",
                 "23-20",
                 "24-20");
}

TEST(RulesItalian, ManStepsForward) {
    // d3 (22) steps to c4 (18) or e4 (19).
    EXPECT_MOVES(kV, "W:W22:B5", "22-18", "22-19");
}

TEST(RulesItalian, ManDoesNotCaptureBackward) {
    // d5 (14) has black men behind on c4/e4 with b3/f3 empty: no capture.
    EXPECT_MOVES(kV, "W:W14:B18,19", "14-10", "14-11");
}

TEST(RulesItalian, KingStepsOneSquare) {
    // King a2 (25): b3 or b1; the black man on c4 is two squares away, no capture.
    EXPECT_MOVES(kV, "W:WK25:B18", "25-21", "25-29");
}

TEST(RulesItalian, ManCannotCaptureKing) {
    // d3 faces the black king on c4 with b5 empty: a man may not take a king; only d3-e4.
    EXPECT_MOVES(kV, "W:W22:BK18", "22-19");
}

TEST(RulesItalian, ManStopsBeforeAKingMidCapture) {
    // d3 takes c4 to b5; the king on c6 next to it may not be taken by a man, so it stops.
    EXPECT_MOVES(kV, "W:W22:B18,K10", "22x13 [18]");
}

TEST(RulesItalian, KingMayCaptureKing) {
    // The same with a white king: it takes c4 landing b5.
    EXPECT_MOVES(kV, "W:WK22:BK18", "22x13 [18]");
}

TEST(RulesItalian, CaptureWithKingBeatsCaptureWithMan) {
    // d3 (man) takes c4 or king e2 takes f3, one piece each: the king's capture is compulsory.
    EXPECT_MOVES(kV, "W:W22,K27:B18,23", "27x20 [23]");
}

TEST(RulesItalian, MostPiecesBeatsCaptureWithKing) {
    // The man d3 takes c4 then c6 (2 pieces, ending d7); the king e2 takes only f3 (1).
    EXPECT_MOVES(kV, "W:W22,K27:B10,18,23", "22x6 [10,18]");
}

TEST(RulesItalian, MostKingsAmongKingCaptures) {
    // Kings d3 and e2 each take one piece; d3's is a king: most kings wins.
    EXPECT_MOVES(kV, "W:WK22,K27:BK18,23", "22x13 [18]");
}

TEST(RulesItalian, KingTakenEarliestWins) {
    // King b1 takes the king c2 then the man e4; king a8 takes the man b7 then the king d7.
    // Two pieces, one king each: the capture meeting the king first is the legal one.
    EXPECT_MOVES(kV, "W:WK29,K1:BK26,19,5,K6", "29x15 [19,26]");
}

TEST(RulesItalian, CapturersFollowThePriorities) {
    const Position pos = position(kV, "W:W22,K27:B18,23");
    EXPECT_EQ(squares_of(kV, capturers(pos)), (std::vector<int>{27}));
}

TEST(RulesItalian, CrowningByCaptureEndsTheMove) {
    // c6 (10) takes d7 (6) reaching e8 (3): crowned and stops (a king could go on over f7).
    const char* fen = "W:W10:B6,7";
    EXPECT_MOVES(kV, fen, "10x3 [6]=K");
    EXPECT_EQ(fen_after(kV, fen, "10x3 [6]=K"), "B:WK3:B7");
}

TEST(RulesItalian, QuietPromotion) {
    // b7 (5) steps to a8 (1) or c8 (2), both crowning.
    const char* fen = "W:W5:B24";
    EXPECT_MOVES(kV, fen, "5-1=K", "5-2=K");
    EXPECT_EQ(fen_after(kV, fen, "5-2=K"), "B:WK2:B24");
}

TEST(RulesItalian, NoForcedCaptureHouseRule) {
    // d3 takes c4 (landing b5) or, captures optional, steps to e4.
    EXPECT_MOVES_OPT(
        kV, "W:W22:B18", MoveGenOptions{.forced_capture = false}, "22x13 [18]", "22-19");
}

}  // namespace
}  // namespace papan::core
