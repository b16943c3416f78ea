// import_pdn (server/src/api/pdn_import.cpp) without a server: what a stored game needs beyond
// the core's reader (no setup in the middle, a replay the rules do not end early, the tags'
// names, the result), and the cap on games per import.
#include "api/pdn_import.hpp"

#include <gtest/gtest.h>

#include <string>

namespace papan::server {
namespace {

int ids = 0;

std::string next_id() {
    return "id" + std::to_string(++ids);
}

TEST(PdnImport, TheRulesResultWinsWhenTheLastMoveEndsTheGame) {
    // White's king takes Black's last piece: the rules end the game (no pieces) at the last move.
    const auto r = import_pdn(R"([GameType "20"][FEN "W:WK46:B41"][Result "*"]
1. 46x37 *
)",
                              5,
                              next_id);
    ASSERT_EQ(r.good.size(), 1U) << (r.rejected.empty() ? "" : r.rejected[0].reason);
    const GameRecord& g = r.good[0].record;
    EXPECT_EQ(g.mode, GameMode::Imported);
    EXPECT_EQ(g.status, GameStatus::Over);
    EXPECT_FALSE(g.rated);
    EXPECT_EQ(g.outcome, core::Outcome::WhiteWins);
    EXPECT_EQ(g.reason, EndReason::NoPieces);
    EXPECT_EQ(g.start_fen, "W:WK46:B41");
    EXPECT_EQ(g.seats[0].name, "?");
    EXPECT_EQ(g.seats[0].player_id, "imported");
    EXPECT_FALSE(g.seats[0].user_id.has_value());
    EXPECT_EQ(g.created_ms, 5);
    ASSERT_EQ(g.moves.size(), 1U);
    EXPECT_EQ(g.moves[0].text, "46x37");
}

TEST(PdnImport, AGameTheRulesEndBeforeTheFileDoesIsRejected) {
    // King against king in International: a draw after threefold repetition; the file goes on.
    std::string moves;
    for (int i = 1; i <= 8; ++i) {
        moves += std::to_string(i) + (i % 2 == 1 ? ". 47-42 1-6 " : ". 42-47 6-1 ");
    }
    const auto r = import_pdn(
        "[GameType \"20\"][FEN \"W:WK47:BK1\"][Result \"1-1\"]\n" + moves + "1-1\n", 0, next_id);
    EXPECT_TRUE(r.good.empty());
    ASSERT_EQ(r.rejected.size(), 1U);
    EXPECT_EQ(r.rejected[0].kind, "replay");
    EXPECT_GT(r.rejected[0].move, 1);
    EXPECT_NE(r.rejected[0].reason.find("the rules end the game"), std::string::npos)
        << r.rejected[0].reason;
}

TEST(PdnImport, ASetupInTheMiddleOfAGameIsRejected) {
    const auto r = import_pdn(R"([GameType "20"][Result "*"]
1. 32-28 19-23 /FEN "W:W28,31,33-50:B1-18,20,23"/ 2. 28x19 14x23 *
)",
                              0,
                              next_id);
    EXPECT_TRUE(r.good.empty());
    ASSERT_EQ(r.rejected.size(), 1U) << (r.good.empty() ? "" : "stored");
    EXPECT_EQ(r.rejected[0].kind, "setup_in_game");
    EXPECT_EQ(r.rejected[0].move, 2);
}

TEST(PdnImport, AtMostTheCapOfGamesIsStored) {
    std::string file;
    for (int i = 0; i < kMaxImportGames + 2; ++i) {
        file += "[GameType \"20\"][White \"W" + std::to_string(i) + "\"]\n1. 32-28 *\n\n";
    }
    const auto r = import_pdn(file, 0, next_id);
    EXPECT_EQ(r.games, kMaxImportGames + 2);
    EXPECT_EQ(static_cast<int>(r.good.size()), kMaxImportGames);
    ASSERT_EQ(r.rejected.size(), 2U);
    EXPECT_EQ(r.rejected[0].kind, "too_many_games");
    EXPECT_EQ(r.rejected[0].number, kMaxImportGames + 1);
    EXPECT_EQ(r.good[0].record.seats[0].name, "W0");
    EXPECT_EQ(r.good[0].result, "*");
    EXPECT_EQ(r.good[0].record.outcome, core::Outcome::Ongoing);
    EXPECT_EQ(r.good[0].record.result_text, "Result unknown (imported: *)");
}

TEST(PdnImport, NamesAreCleanedAndCut) {
    const std::string longname(100, 'a');
    const auto r = import_pdn("[GameType \"20\"][White \"  Ann\xE2\x80\xAE \"][Black \"" +
                                  longname + "\"][Result \"0-2\"]\n1. 32-28 0-2\n",
                              0,
                              next_id);
    ASSERT_EQ(r.good.size(), 1U);
    EXPECT_EQ(r.good[0].record.seats[0].name, "Ann");
    EXPECT_EQ(r.good[0].record.seats[1].name, std::string(kMaxImportedName, 'a'));
    EXPECT_EQ(r.good[0].record.outcome, core::Outcome::BlackWins);
}

}  // namespace
}  // namespace papan::server
