// The puzzle store's contract and the puzzle service on it, against SQLite (a file beside the
// game store's) and PostgreSQL (a fresh database per test, env PAPAN_TEST_PG): the shipped set
// added once, puzzles near a rating without those attempted, one rated attempt per solver and
// puzzle, the puzzle's rating moved by accounts only, a guest's ratings taken over by an
// account, the daily puzzle stored first-wins, the finished games the miner reads.
#include "harness.hpp"
#include "pg_test_db.hpp"
#include "puzzles/service.hpp"
#include "store/puzzle_store.hpp"

#include <papan/core/rules/registry.hpp>
#include <papan/server/store.hpp>

#include <gtest/gtest.h>

#include <ostream>

namespace papan::server {
namespace {

enum class Kind {
    Sqlite,
    Postgres
};

void PrintTo(Kind k, std::ostream* os) {
    *os << (k == Kind::Sqlite ? "sqlite" : "postgres");
}

// A real puzzle (American; proven by the miner): its line replays in check_attempt.
Puzzle american_puzzle(const std::string& fen, std::vector<std::string> solution, int rating) {
    Puzzle p;
    p.variant  = core::VariantId::American;
    p.fen      = fen;
    p.id       = puzzle_id(p.variant, p.fen);
    p.solution = std::move(solution);
    p.rating   = rating;
    p.source   = "test";
    return p;
}

PuzzleRow row(const Puzzle& p, const std::string& origin = "set") {
    PuzzleRow r;
    r.id       = p.id;
    r.variant  = std::string(core::rules(p.variant).key);
    r.body     = puzzle_to_json(p);
    r.origin   = origin;
    r.rating   = {static_cast<double>(p.rating), 350, 0.06};
    r.added_ms = 1;
    return r;
}

class PuzzleStoreTest : public ::testing::TestWithParam<Kind> {
protected:
    void SetUp() override {
        if (GetParam() == Kind::Postgres) {
            if (test::pg_base_url().empty()) {
                FAIL() << test::pg_missing_message();
            }
            db_ = std::make_unique<test::PgDatabase>();
        }
        games_ = GetParam() == Kind::Sqlite ? open_sqlite_store(dir_.path() / "papan.db")
                                            : open_postgres_store(db_->url());
        store_ = open();
    }

    [[nodiscard]] std::unique_ptr<PuzzleStore> open() const {
        return GetParam() == Kind::Sqlite ? open_sqlite_puzzle_store(dir_.path() / "papan.db")
                                          : open_postgres_puzzle_store(db_->url());
    }

    test::TempDir dir_;
    std::unique_ptr<test::PgDatabase> db_;
    std::unique_ptr<Store> games_;  // applies the migrations
    std::unique_ptr<PuzzleStore> store_;
};

// Three American puzzles: positions with a legal first move (their solutions replay).
const Puzzle kA = american_puzzle("W:W27,28:B19,20", {"28-24"}, 1200);
const Puzzle kB = american_puzzle("W:W27,31:B18,19", {"27-24"}, 1500);
const Puzzle kC = american_puzzle("W:W26,30:B17,18", {"26-22"}, 1900);

TEST_P(PuzzleStoreTest, PuzzlesAddedOnceReadNearARatingAndUpdated) {
    auto& s = *store_;
    EXPECT_EQ(s.add_puzzles({row(kA), row(kB), row(kC)}), 3);
    EXPECT_EQ(s.add_puzzles({row(kA), row(kB)}), 0);  // the set loaded again at the next start
    EXPECT_EQ(s.count_puzzles("american", "set"), 3);
    EXPECT_EQ(s.count_puzzles("american", "site"), 0);
    const auto b = s.puzzle(kB.id);
    ASSERT_TRUE(b);
    EXPECT_EQ(b->body, puzzle_to_json(kB));
    EXPECT_DOUBLE_EQ(b->rating.rating, 1500);
    EXPECT_FALSE(s.puzzle("p000000000000"));
    const auto ids = s.puzzle_ids("american", "set");
    ASSERT_EQ(ids.size(), 3U);
    EXPECT_TRUE(std::is_sorted(ids.begin(), ids.end()));

    auto near = s.puzzles_between("american", 1400, 1600, "u1", "", 10);
    ASSERT_EQ(near.size(), 1U);
    EXPECT_EQ(near[0].id, kB.id);
    EXPECT_EQ(s.puzzles_between("american", 0, 5000, "u1", "", 10).size(), 3U);
    EXPECT_EQ(s.puzzles_between("american", 0, 5000, "u1", "", 2).size(), 2U);
    EXPECT_EQ(s.puzzles_between("american", 0, 5000, "u1", ids[2], 10).size(), 1U);
    s.add_attempt({0, "u1", kB.id, "american", true, true, 1520, 20, 5});
    EXPECT_TRUE(s.puzzles_between("american", 1400, 1600, "u1", "", 10).empty());
    EXPECT_EQ(s.puzzles_between("american", 1400, 1600, "u2", "", 10).size(), 1U);

    s.update_puzzle(kB.id, {1480.5, 300, 0.059}, 1, 0);
    const auto b2 = s.puzzle(kB.id);
    EXPECT_DOUBLE_EQ(b2->rating.rating, 1480.5);
    EXPECT_EQ(b2->plays, 1);
}

TEST_P(PuzzleStoreTest, AttemptsAreRatedOncePerSolverAndPuzzle) {
    auto& s = *store_;
    ASSERT_EQ(s.add_puzzles({row(kA), row(kB)}), 2);
    EXPECT_FALSE(s.has_rated_attempt("u1", kA.id));
    s.add_attempt({0, "u1", kA.id, "american", false, true, 1450, -50, 10});
    EXPECT_TRUE(s.has_rated_attempt("u1", kA.id));
    EXPECT_FALSE(s.has_rated_attempt("u2", kA.id));
    s.add_attempt({0, "u1", kA.id, "american", true, false, 1450, 0, 11});  // unrated replay
    EXPECT_THROW(s.add_attempt({0, "u1", kA.id, "american", true, true, 1460, 10, 12}),
                 std::exception);  // the unique index: never two rated attempts
    s.add_attempt({0, "u1", kB.id, "american", true, true, 1470, 20, 13});
    const auto h = s.attempts_of("u1", 10);
    ASSERT_EQ(h.size(), 3U);
    EXPECT_EQ(h[0].puzzle_id, kB.id);  // newest first
    EXPECT_FALSE(h[1].rated);
    EXPECT_EQ(h[2].delta, -50);

    EXPECT_FALSE(s.rating("u1", "american"));
    s.set_rating({"u1", "american", {1470, 200, 0.06}, 3, 1, 4, 13});
    s.set_rating({"u1", "russian", {1600, 100, 0.06}, 9, 6, 0, 14});
    ASSERT_TRUE(s.rating("u1", "american"));
    EXPECT_EQ(s.rating("u1", "american")->best_streak, 4);
    EXPECT_EQ(s.ratings_of("u1").size(), 2U);
}

TEST_P(PuzzleStoreTest, AGuestsRatingsGoToTheAccountWhereItHasNone) {
    auto& s = *store_;
    ASSERT_EQ(s.add_puzzles({row(kA), row(kB)}), 2);
    s.set_rating({"gabc", "american", {1650, 150, 0.06}, 2, 2, 0, 1});
    s.set_rating({"gabc", "russian", {1300, 150, 0.06}, 2, 0, 0, 1});
    s.set_rating({"u7", "russian", {1500, 100, 0.06}, 5, 3, 0, 1});
    s.add_attempt({0, "gabc", kA.id, "american", true, true, 1600, 100, 1});
    s.add_attempt({0, "gabc", kB.id, "american", true, true, 1650, 50, 2});
    s.add_attempt({0, "u7", kB.id, "american", false, true, 1450, -50, 3});
    const auto moved = s.move_player("gabc", "u7");
    EXPECT_EQ(moved, (std::vector<std::string>{"american"}));
    EXPECT_DOUBLE_EQ(s.rating("u7", "american")->rating.rating, 1650);
    EXPECT_DOUBLE_EQ(s.rating("u7", "russian")->rating.rating, 1500);  // the account's own kept
    EXPECT_TRUE(s.has_rated_attempt("u7", kA.id));
    EXPECT_EQ(s.attempts_of("u7", 10).size(), 2U);  // kB stays the guest's (the account had one)
    EXPECT_TRUE(s.move_player("gabc", "u7").empty());
}

TEST_P(PuzzleStoreTest, TheDailyPuzzleIsStoredFirstWins) {
    auto& s = *store_;
    ASSERT_EQ(s.add_puzzles({row(kA), row(kB)}), 2);
    EXPECT_EQ(s.daily("american", "2026-12-07", kA.id), kA.id);
    EXPECT_EQ(s.daily("american", "2026-12-07", kB.id), kA.id);
    EXPECT_EQ(open()->daily("american", "2026-12-07", kB.id), kA.id);  // another node
    EXPECT_EQ(s.daily("american", "2026-12-08", kB.id), kB.id);
}

TEST_P(PuzzleStoreTest, TheMinerReadsFinishedGamesInOrderWithTheirMoves) {
    const auto game = [](const std::string& id, GameStatus status, std::int64_t at) {
        GameRecord g;
        g.id         = id;
        g.variant    = "american";
        g.mode       = GameMode::Computer;
        g.start_fen  = "B:W21-32:B1-12";
        g.status     = status;
        g.created_ms = at;
        g.updated_ms = at;
        g.moves      = {{0, "11-15", at}, {1, "23-19", at}};
        return g;
    };
    games_->insert_game_with_moves(game("g2", GameStatus::Over, 20));
    games_->insert_game_with_moves(game("g1", GameStatus::Over, 20));
    games_->insert_game_with_moves(game("g3", GameStatus::Playing, 10));
    games_->insert_game_with_moves(game("g4", GameStatus::Over, 30));
    auto& s  = *store_;
    auto all = s.finished_games_after(0, "", 10);
    ASSERT_EQ(all.size(), 3U);
    EXPECT_EQ(all[0].id, "g1");
    EXPECT_EQ(all[1].id, "g2");
    EXPECT_EQ(all[2].id, "g4");
    EXPECT_EQ(all[0].moves, (std::vector<std::string>{"11-15", "23-19"}));
    const auto rest = s.finished_games_after(20, "g1", 10);
    ASSERT_EQ(rest.size(), 2U);
    EXPECT_EQ(rest[0].id, "g2");
    // The cursor: claimed by one node, the other's claim from the same place fails.
    const MiningCursor start = s.mining_cursor("games");
    EXPECT_EQ(start.games, 0);
    EXPECT_TRUE(s.claim_mining("games", start, 20, "g2"));
    EXPECT_FALSE(open()->claim_mining("games", start, 20, "g1"));
    s.add_mining_figures("games", 2, 40, 1);
    const auto c = s.mining_cursor("games");
    EXPECT_EQ(c.id, "g2");
    EXPECT_EQ(c.at_ms, 20);
    EXPECT_EQ(c.games, 2);
    EXPECT_EQ(c.positions, 40);
    EXPECT_EQ(s.finished_games_after(c.at_ms, c.id, 10).size(), 1U);
}

TEST_P(PuzzleStoreTest, TheServiceRatesTheFirstAttemptAndMovesThePuzzleForAccountsOnly) {
    ManualClock clock;
    PuzzleSettings settings;
    settings.mine = false;
    PuzzleService service(open(), clock, settings);
    ASSERT_EQ(store_->add_puzzles({row(kA), row(kB), row(kC)}), 3);

    const auto first = service.attempt("u1", kB.id, {"27-24"}, false);
    EXPECT_TRUE(first.found);
    EXPECT_TRUE(first.error.empty()) << first.error;
    EXPECT_TRUE(first.solved);
    EXPECT_TRUE(first.rated);
    EXPECT_GT(first.after.rating, 1500);
    EXPECT_LT(first.puzzle_after.rating, 1500);  // a solved puzzle gets easier
    const auto again = service.attempt("u1", kB.id, {"27-24"}, false);
    EXPECT_FALSE(again.rated);
    EXPECT_DOUBLE_EQ(again.after.rating, first.after.rating);
    const auto wrong = service.attempt("u2", kB.id, {"31-26"}, false);
    EXPECT_FALSE(wrong.solved);
    EXPECT_EQ(wrong.wrong_step, 0);
    EXPECT_LT(wrong.after.rating, 1500);
    const auto guest = service.attempt("gabc", kC.id, {"26-22"}, false);
    EXPECT_TRUE(guest.rated);
    EXPECT_DOUBLE_EQ(store_->puzzle(kC.id)->rating.rating, 1900);  // a guest moves no puzzle
    EXPECT_FALSE(service.attempt("", kC.id, {"26-22"}, false).rated);
    EXPECT_FALSE(service.attempt("u1", "p000000000000", {}, false).found);
    EXPECT_FALSE(service.attempt("u1", kA.id, {"1-2"}, false).error.empty());
    EXPECT_EQ(service.history("u1", 10).size(), 2U);

    // The next puzzle: near the solver's rating, not one attempted.
    const auto next = service.next("american", 1200, "u1");
    ASSERT_TRUE(next);
    EXPECT_EQ(next->puzzle.id, kA.id);
    EXPECT_TRUE(service.attempt("u1", kA.id, {"28-24"}, false).found);
    EXPECT_TRUE(service.attempt("u1", kC.id, {"26-22"}, false).found);
    const auto any = service.next("american", 1200, "u1");  // every one attempted: any
    EXPECT_TRUE(any);
    EXPECT_FALSE(service.next("turkish", 1500, "u1"));
    EXPECT_EQ(service.record_streak("u1", "american", 5), 5);
    EXPECT_EQ(service.record_streak("u1", "american", 3), 5);
    const auto daily = service.daily("american", "2026-12-07");
    ASSERT_TRUE(daily);
    EXPECT_EQ(service.daily("american", "2026-12-07")->puzzle.id, daily->puzzle.id);
    service.stop();
}

INSTANTIATE_TEST_SUITE_P(Sqlite, PuzzleStoreTest, ::testing::Values(Kind::Sqlite));
INSTANTIATE_TEST_SUITE_P(Postgres, PuzzleStoreTest, ::testing::Values(Kind::Postgres));

}  // namespace
}  // namespace papan::server
