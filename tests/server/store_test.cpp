// The Store contract, run against SQLite (a file in a temporary directory) and PostgreSQL (a fresh
// database per test on the server of env PAPAN_TEST_PG; `scripts/services start`). Without
// PAPAN_TEST_PG the PostgreSQL cases fail: a test that did not run is not a pass.
#include "harness.hpp"
#include "pg_test_db.hpp"
#include "store/migrations.hpp"

#include <papan/server/store.hpp>
#include <papan/server/wire/names.hpp>

#include <gtest/gtest.h>

#include <array>
#include <atomic>
#include <filesystem>
#include <functional>
#include <latch>
#include <ostream>
#include <stdexcept>
#include <thread>

namespace papan::server {
namespace {

enum class Kind {
    Sqlite,
    Postgres
};

void PrintTo(Kind k, std::ostream* os) {
    *os << (k == Kind::Sqlite ? "sqlite" : "postgres");
}

// prefix + number (operator+ on a literal trips GCC 12's -Wrestrict false positive).
template <class N>
std::string numbered(const char* prefix, N n) {
    std::string s(prefix);
    s += std::to_string(n);
    return s;
}

class StoreTest : public ::testing::TestWithParam<Kind> {
protected:
    void SetUp() override {
        if (GetParam() == Kind::Postgres) {
            if (test::pg_base_url().empty()) {
                FAIL() << test::pg_missing_message();
            }
            db_ = std::make_unique<test::PgDatabase>();
        }
        store_ = open();
    }

    // Another connection to the same store (for SQLite: the same file).
    [[nodiscard]] std::unique_ptr<Store> open() const {
        return GetParam() == Kind::Sqlite ? open_sqlite_store(dir_.path() / "papan.db")
                                          : open_postgres_store(db_->url());
    }

    static GameRecord game(const std::string& id, const std::string& status, std::int64_t at) {
        GameRecord g;
        g.id         = id;
        g.variant    = "international";
        g.mode       = GameMode::Friend;
        g.start_fen  = "W:W31-50:B1-20";
        g.seats[0]   = SeatRecord{"u1", "ann", false, 1};
        g.seats[1]   = SeatRecord{"ai", "Computer", true, std::nullopt};
        g.status     = *wire::parse_status(status);
        g.created_ms = at;
        g.updated_ms = at;
        return g;
    }

    test::TempDir dir_;
    std::unique_ptr<test::PgDatabase> db_;
    std::unique_ptr<Store> store_;  // destroyed first: before its database is dropped
};

TEST_P(StoreTest, GamesMovesUsersRatingsRewards) {
    auto& store    = *store_;
    GameRecord g   = game("g1", "playing", 1);
    g.seats[1]     = SeatRecord{"g5f3", "guest", false, std::nullopt};
    g.time_control = default_time_control();
    g.clocks = ClockState{{PlayerClock{300'000, 3}, PlayerClock{281'500, 2}}, 1'764'000'000'001};
    g.level  = Level::Hard;
    g.draw_rules = core::DrawRuleSet::RussianOfficial;
    g.created_ms = 1'764'000'000'000;  // *_ms values exceed 32 bits
    store.insert_game(g);
    g.version = 2;
    store.append_move(g, MoveRecord{0, "32-28", 1'764'000'000'005});
    store.append_move(g, MoveRecord{1, "19-23", 6});
    auto back = store.load_game("g1");
    ASSERT_TRUE(back);
    EXPECT_EQ(back->moves.size(), 2U);
    EXPECT_EQ(back->moves.at(0), (MoveRecord{0, "32-28", 1'764'000'000'005}));
    EXPECT_EQ(back->seats[0], g.seats[0]);
    EXPECT_EQ(back->seats[1], g.seats[1]);
    EXPECT_EQ(back->clocks, g.clocks);
    EXPECT_EQ(back->time_control, g.time_control);
    EXPECT_EQ(back->level, Level::Hard);
    EXPECT_EQ(back->draw_rules, core::DrawRuleSet::RussianOfficial);
    EXPECT_EQ(back->created_ms, 1'764'000'000'000);
    EXPECT_EQ(back->version, 2);
    EXPECT_FALSE(store.load_game("nope"));
    store.truncate_moves(g, 1);
    EXPECT_EQ(store.load_game("g1")->moves.size(), 1U);
    const auto unfinished = store.unfinished_games(INT64_MAX, "", 1000);
    ASSERT_EQ(unfinished.size(), 1U);
    EXPECT_EQ(unfinished[0].id, "g1");
    EXPECT_TRUE(unfinished[0].moves.empty());                  // headers only
    EXPECT_TRUE(store.unfinished_games(1, "", 1000).empty());  // changed at 1: not before it
    EXPECT_EQ(store.unfinished_games(2, "", 1000).size(), 1U);
    EXPECT_EQ(store.count_unfinished("u1"), 1);
    EXPECT_EQ(store.count_unfinished("g5f3"), 1);
    EXPECT_EQ(store.count_unfinished("u2"), 0);
    EXPECT_EQ(store.games_of("u1", 10).size(), 1U);
    g.status  = GameStatus::Over;
    g.outcome = core::Outcome::Draw;
    g.reason  = EndReason::Agreement;
    g.clocks.reset();  // a game whose clocks never started
    store.update_game(g);
    EXPECT_TRUE(store.unfinished_games(INT64_MAX, "", 1000).empty());
    EXPECT_EQ(store.count_unfinished("u1"), 0);
    EXPECT_EQ(store.load_game("g1")->outcome, core::Outcome::Draw);
    EXPECT_EQ(store.load_game("g1")->reason, EndReason::Agreement);
    EXPECT_FALSE(store.load_game("g1")->clocks.has_value());

    const auto id = store.create_user(UserRecord{0, "Ann", "hash", 1});
    ASSERT_TRUE(id);
    EXPECT_FALSE(store.create_user(UserRecord{0, "ann", "hash", 1}));  // case-insensitive
    EXPECT_EQ(store.user_by_name("ANN")->id, *id);
    EXPECT_EQ(store.user_by_id(*id)->username, "Ann");
    const auto bob = store.create_user(UserRecord{0, "bob", "hash2", 2});
    ASSERT_TRUE(bob);
    EXPECT_NE(*bob, *id);
    store.create_session("th", *id, 2);
    EXPECT_EQ(store.session_user("th", 3, 1000), id);
    EXPECT_FALSE(store.session_user("other", 3, 1000));
    // Sliding expiry: used within the expiry it lives on (the use moves it), unused it dies.
    EXPECT_EQ(store.session_user("th", 900'000, 1'000'000), id);
    EXPECT_EQ(store.session_user("th", 1'800'000, 1'000'000), id);
    EXPECT_FALSE(store.session_user("th", 2'900'000, 1'000'000));
    EXPECT_FALSE(store.session_user("th", 2'900'001, 10'000'000));  // deleted once expired
    store.create_session("t1", *id, 10);
    store.create_session("t2", *id, 10);
    store.delete_other_sessions(*id, "t1");
    EXPECT_EQ(store.session_user("t1", 11, 1000), id);
    EXPECT_FALSE(store.session_user("t2", 11, 1000));
    store.delete_session("t1");
    EXPECT_FALSE(store.session_user("t1", 12, 1000));
    store.set_password(*id, "new-hash");
    EXPECT_EQ(store.user_by_id(*id)->password_hash, "new-hash");
    auto r = store.rating(*id, "international");
    EXPECT_EQ(r.rating, 1200);
    r.rating = 1216;
    r.games  = 1;
    store.set_rating(r);
    r.rating = 1230;
    r.games  = 2;
    store.set_rating(r);
    const auto board = store.leaderboard("international", 10);
    ASSERT_EQ(board.size(), 1U);
    EXPECT_EQ(board[0].rating, 1230);
    EXPECT_EQ(board[0].games, 2);
    EXPECT_EQ(board[0].username, "Ann");
    // The rating history: every rated game, oldest first, and the wins, losses and draws.
    store.add_rating_change({*id, "international", "gb", 1230, 14, 1, 20});
    store.add_rating_change({*id, "international", "ga", 1216, 16, 2, 10});
    store.add_rating_change({*id, "russian", "gc", 1184, -16, 0, 30});
    const auto history = store.rating_history(*id);
    ASSERT_EQ(history.size(), 3U);
    EXPECT_EQ(history[0], (RatingChangeRecord{*id, "international", "ga", 1216, 16, 2, 10}));
    EXPECT_EQ(history[2].change, -16);
    store.set_rating(RatingRecord{*id, "", "russian", 1184, 1});
    const auto mine = store.ratings_of(*id);
    ASSERT_EQ(mine.size(), 2U);
    EXPECT_EQ(mine[0].variant, "international");
    EXPECT_EQ(mine[0].rating, 1230);
    EXPECT_EQ(mine[0].wins, 1);
    EXPECT_EQ(mine[0].draws, 1);
    EXPECT_EQ(mine[0].losses, 0);
    EXPECT_EQ(mine[1].losses, 1);

    EXPECT_EQ(store.add_reward("u1", "2026-01-01", 60, 100), 60);
    EXPECT_EQ(store.add_reward("u1", "2026-01-01", 60, 100), 40);  // the daily cap
    EXPECT_EQ(store.add_reward("u1", "2026-01-01", 60, 100), 0);
    EXPECT_EQ(store.add_reward("u1", "2026-01-02", 6, 100), 6);
    EXPECT_EQ(store.reward_total("u1"), 106);
    EXPECT_EQ(store.reward_total("u2"), 0);
    EXPECT_EQ(latest_schema_version(), 20);  // 0020_puzzles.sql
}

TEST_P(StoreTest, UnfinishedGamesArePagedByIdAndWalkedWhole) {
    auto& store = *store_;
    // Seven unfinished games inserted out of id order, one finished, one changed too late.
    for (const char* id : {"g4", "g1", "g7", "g3", "g6", "g2", "g5"}) {
        store.insert_game(game(id, "playing", 10));
    }
    store.insert_game(game("g0", "over", 10));
    store.insert_game(game("g8", "playing", 50));
    const auto first = store.unfinished_games(20, "", 3);
    ASSERT_EQ(first.size(), 3U);
    EXPECT_EQ(first[0].id, "g1");
    EXPECT_EQ(first[2].id, "g3");
    const auto next = store.unfinished_games(20, first.back().id, 3);
    ASSERT_EQ(next.size(), 3U);
    EXPECT_EQ(next[0].id, "g4");
    EXPECT_EQ(store.unfinished_games(20, "g6", 3).size(), 1U);  // g7 only
    // The walk visits each game once, also when fn updates the games it is given (an update
    // moves updated_ms, not the id the pages follow) and when the last page is full.
    for (int page : {1, 2, 3, 7, 500}) {
        std::vector<std::string> seen;
        for_each_unfinished(
            store, 20, [&](GameRecord& rec) { seen.push_back(rec.id); }, page);
        EXPECT_EQ(seen, (std::vector<std::string>{"g1", "g2", "g3", "g4", "g5", "g6", "g7"}))
            << "page " << page;
    }
    int ended = 0;
    for_each_unfinished(
        store,
        20,
        [&](GameRecord& rec) {
            rec.status     = GameStatus::Over;
            rec.updated_ms = 30;
            store.update_game(rec);
            ++ended;
        },
        2);
    EXPECT_EQ(ended, 7);
    EXPECT_EQ(store.unfinished_games(INT64_MAX, "", 10).size(), 1U);  // g8 is left
}

TEST_P(StoreTest, AGameIsInsertedWithItsMovesAtOnce) {
    GameRecord g = game("imp1", "over", 3);
    g.mode       = GameMode::Imported;
    g.seats[0]   = SeatRecord{"imported", "Ann", false, std::nullopt};
    g.seats[1]   = SeatRecord{"imported", "Bob", false, std::nullopt};
    g.outcome    = core::Outcome::WhiteWins;
    g.reason     = EndReason::Imported;
    g.moves = {MoveRecord{0, "32-28", 3}, MoveRecord{1, "19-23", 3}, MoveRecord{2, "28x19", 3}};
    store_->insert_game_with_moves(g);
    const auto back = store_->load_game("imp1");
    ASSERT_TRUE(back);
    EXPECT_EQ(back->mode, GameMode::Imported);
    EXPECT_EQ(back->status, GameStatus::Over);
    EXPECT_EQ(back->moves, g.moves);
    EXPECT_EQ(back->seats[1], g.seats[1]);
    EXPECT_EQ(store_->games_of("imported", 10).size(), 1U);
    EXPECT_TRUE(store_->unfinished_games(INT64_MAX, "", 1000).empty());
    // All or nothing: a second insert of the same id fails and leaves no extra move.
    GameRecord again = g;
    again.moves.push_back(MoveRecord{3, "14x23", 3});
    EXPECT_ANY_THROW(store_->insert_game_with_moves(again));
    EXPECT_EQ(store_->load_game("imp1")->moves.size(), 3U);
}

// The chat of a game (migration 0006): lines in the order written with the header's version in
// the same transaction; a game reads back its last 100 lines, oldest first.
TEST_P(StoreTest, ChatLinesAreStoredWithTheGame) {
    GameRecord g = game("chat1", "playing", 5);
    g.seats[1]   = SeatRecord{"u2", "bob", false, 2};
    store_->insert_game(g);
    EXPECT_TRUE(store_->load_game("chat1")->chat.empty());
    for (int i = 0; i < 105; ++i) {
        g.version = i + 1;
        store_->append_chat(g, ChatRecord{i / 2, i % 2, 1000 + i, numbered("line ", i)});
    }
    const auto back = open()->load_game("chat1");
    ASSERT_TRUE(back);
    EXPECT_EQ(back->version, 105);
    ASSERT_EQ(back->chat.size(), 100U);
    EXPECT_EQ(back->chat.front(), (ChatRecord{2, 1, 1005, "line 5"}));
    EXPECT_EQ(back->chat.back(), (ChatRecord{52, 0, 1104, "line 104"}));
    // All or nothing: a line of an unknown game is refused (the game's foreign key).
    GameRecord none = g;
    none.id         = "nosuch";
    EXPECT_ANY_THROW(store_->append_chat(none, ChatRecord{0, 0, 1, "x"}));
}

// A finished rated game reads back its rating changes (migration 0007: found by the game), one
// per player, so that a reloaded room shows both ratings again; another game reads none.
TEST_P(StoreTest, AGameReadsBackItsRatingChanges) {
    auto& store    = *store_;
    const auto ann = store.create_user(UserRecord{0, "ann", "hash", 1});
    const auto bob = store.create_user(UserRecord{0, "bob", "hash", 1});
    ASSERT_TRUE(ann && bob);
    GameRecord g = game("rated1", "over", 5);
    g.seats[0]   = SeatRecord{numbered("u", *ann), "ann", false, *ann};
    g.seats[1]   = SeatRecord{numbered("u", *bob), "bob", false, *bob};
    g.rated      = true;
    store.insert_game(g);
    store.insert_game(game("other", "over", 5));
    const RatingChangeRecord won{*ann, "international", "rated1", 1216, 16, 2, 40};
    const RatingChangeRecord lost{*bob, "international", "rated1", 1184, -16, 0, 40};
    store.transaction([&] {
        store.add_rating_change(lost);
        store.add_rating_change(won);
        store.add_rating_change({*ann, "international", "later", 1230, 14, 2, 50});
    });
    const auto back = open()->load_game("rated1");
    ASSERT_TRUE(back);
    const std::vector<RatingChangeRecord> expected{won, lost};  // by user id
    EXPECT_EQ(back->rating_changes, expected);
    EXPECT_TRUE(store.load_game("other")->rating_changes.empty());
}

TEST_P(StoreTest, RatedVariantsMostPlayersFirst) {
    auto& store = *store_;
    EXPECT_TRUE(store.rated_variants().empty());
    const auto ann = store.create_user(UserRecord{0, "ann", "hash", 1});
    const auto bob = store.create_user(UserRecord{0, "bob", "hash", 1});
    ASSERT_TRUE(ann && bob);
    for (const auto* v : {"russian", "international", "brazilian"}) {
        store.set_rating(RatingRecord{*ann, "ann", v, 1216, 1});
    }
    store.set_rating(RatingRecord{*bob, "bob", "russian", 1184, 1});
    const std::vector<std::pair<std::string, int>> expected{
        {"russian", 2}, {"brazilian", 1}, {"international", 1}};
    EXPECT_EQ(store.rated_variants(), expected);
}

TEST_P(StoreTest, TransactionsNestAndRollBack) {
    auto& store = *store_;
    store.transaction([&] {
        store.insert_game(game("g1", "playing", 1));
        store.transaction([&] { store.append_move(game("g1", "playing", 1), {0, "32-28", 2}); });
    });
    EXPECT_EQ(store.load_game("g1")->moves.size(), 1U);
    EXPECT_THROW(store.transaction([&] {
        store.insert_game(game("g2", "playing", 1));
        store.append_move(game("g1", "playing", 1), {1, "19-23", 3});
        throw std::runtime_error("changed my mind");
    }),
                 std::runtime_error);
    EXPECT_FALSE(store.load_game("g2"));
    EXPECT_EQ(store.load_game("g1")->moves.size(), 1U);
    // A failing statement (the same ply twice) fails the call and stores nothing of it.
    EXPECT_ANY_THROW(store.append_move(game("g1", "playing", 1), {0, "31-27", 4}));
    EXPECT_EQ(store.load_game("g1")->moves.at(0).text, "32-28");
    store.append_move(game("g1", "playing", 1), {1, "19-23", 5});  // usable afterwards
    EXPECT_EQ(store.load_game("g1")->moves.size(), 2U);
}

TEST_P(StoreTest, ReopeningKeepsTheDataAndTheSchema) {
    store_->insert_game(game("g1", "playing", 1));
    ASSERT_TRUE(store_->create_user(UserRecord{0, "ann", "h", 1}));
    store_.reset();
    store_ = open();  // migrations already applied: nothing runs twice
    EXPECT_TRUE(store_->load_game("g1"));
    EXPECT_TRUE(store_->user_by_name("Ann"));
    EXPECT_FALSE(store_->create_user(UserRecord{0, "ANN", "h", 1}));
}

TEST_P(StoreTest, LeasesKeepAGameOnOneNode) {
    auto& store = *store_;
    store.insert_game(game("g1", "playing", 1));
    EXPECT_FALSE(store.game_owner("g1", 1000));
    EXPECT_FALSE(store.claim_game("missing", "a", 1000, 3000));

    ASSERT_TRUE(store.claim_game("g1", "a", 1000, 3000));  // lease until 4000
    EXPECT_EQ(store.game_owner("g1", 1000), "a");
    EXPECT_FALSE(store.claim_game("g1", "b", 2000, 3000));  // refused while the lease runs
    EXPECT_FALSE(store.claim_game("g1", "b", 4000, 3000));  // ...up to its last millisecond
    EXPECT_EQ(store.game_owner("g1", 2000), "a");
    EXPECT_TRUE(store.claim_game("g1", "a", 2000, 3000));  // its owner may claim again: 5000
    EXPECT_EQ(store.game_owner("g1", 5000), "a");
    EXPECT_FALSE(store.game_owner("g1", 5001));  // ran out

    store.renew_leases("a", 4500, 3000);  // the heartbeat: until 7500
    EXPECT_EQ(store.game_owner("g1", 7000), "a");
    EXPECT_FALSE(store.claim_game("g1", "b", 7000, 3000));
    EXPECT_TRUE(store.claim_game("g1", "b", 7501, 3000));  // after it ran out
    EXPECT_EQ(store.game_owner("g1", 7501), "b");
    store.renew_leases("a", 8000, 3000);  // a's heartbeat no longer touches g1
    EXPECT_TRUE(store.claim_game("g1", "a", 10'502, 3000));
    EXPECT_FALSE(store.claim_game("g1", "b", 10'600, 3000));

    store.release_game("g1", "b");  // not b's: no-op
    EXPECT_EQ(store.game_owner("g1", 10'600), "a");
    store.release_game("g1", "a");
    EXPECT_FALSE(store.game_owner("g1", 10'600));
    EXPECT_TRUE(store.claim_game("g1", "b", 10'600, 3000));  // free at once
}

TEST_P(StoreTest, OrphanedGamesAreUnfinishedWithoutARunningLease) {
    auto& store = *store_;
    store.insert_game(game("running", "playing", 1));
    store.insert_game(game("unowned", "waiting", 2));
    store.insert_game(game("finished", "over", 3));
    store.insert_game(game("expired", "playing", 4));
    store.insert_game(game("expired2", "playing", 5));
    store.insert_game(game("released", "playing", 6));
    ASSERT_TRUE(store.claim_game("running", "a", 10'000, 3000));   // until 13000
    ASSERT_TRUE(store.claim_game("finished", "b", 1000, 3000));    // over: never orphaned
    ASSERT_TRUE(store.claim_game("expired", "b", 5000, 3000));     // until 8000
    ASSERT_TRUE(store.claim_game("expired2", "c", 4000, 3000));    // until 7000
    ASSERT_TRUE(store.claim_game("released", "a", 10'000, 3000));  // released below
    store.release_game("released", "a");

    // A released game (its room left memory) and one never claimed are loaded where they are
    // asked for: not orphaned.
    const std::vector<std::string> all{"expired2", "expired"};
    EXPECT_EQ(store.orphaned_games(12'000, 10), all);  // oldest lease first
    EXPECT_EQ(store.orphaned_games(12'000, 1), (std::vector<std::string>{"expired2"}));
    EXPECT_EQ(store.orphaned_games(7500, 10), (std::vector<std::string>{"expired2"}));
    EXPECT_EQ(store.orphaned_games(14'000, 10),
              (std::vector<std::string>{"expired2", "expired", "running"}));
    // A game that ends is not orphaned, whatever its lease.
    auto over   = game("expired", "over", 4);
    over.reason = EndReason::Resignation;
    store.update_game(over);
    EXPECT_EQ(store.orphaned_games(12'000, 10), (std::vector<std::string>{"expired2"}));
}

TEST_P(StoreTest, OpenStoreNamesTheStore) {
    if (GetParam() == Kind::Sqlite) {
        auto a = open_store("", dir_.path());  // default: data_dir/papan.db, the fixture's file
        EXPECT_TRUE(std::filesystem::exists(dir_.path() / "papan.db"));
        auto b = open_store("sqlite:" + (dir_.path() / "other.db").string(), dir_.path());
        EXPECT_TRUE(std::filesystem::exists(dir_.path() / "other.db"));
        EXPECT_THROW((void)open_store("mysql://u:secret@h/db", dir_.path()), std::runtime_error);
        EXPECT_THROW((void)open_store("sqlite:", dir_.path()), std::runtime_error);
        try {
            (void)open_store("mysql://u:secret@h/db", dir_.path());
        } catch (const std::runtime_error& e) {
            EXPECT_EQ(std::string(e.what()).find("secret"), std::string::npos) << e.what();
        }
    } else {
        store_->insert_game(game("g1", "playing", 1));
        auto pg = open_store(db_->url(), dir_.path());
        EXPECT_TRUE(pg->load_game("g1"));
        EXPECT_FALSE(std::filesystem::exists(dir_.path() / "papan.db"));
        // postgres:// works as well as postgresql://
        const auto alias = "postgres://" + db_->url().substr(db_->url().find("://") + 3);
        EXPECT_TRUE(open_store(alias, dir_.path())->load_game("g1"));
    }
}

INSTANTIATE_TEST_SUITE_P(Sqlite, StoreTest, ::testing::Values(Kind::Sqlite));
INSTANTIATE_TEST_SUITE_P(Postgres, StoreTest, ::testing::Values(Kind::Postgres));

// PostgreSQL only: several nodes (connections) on one database at once.
class PostgresStore : public ::testing::Test {
protected:
    void SetUp() override {
        if (test::pg_base_url().empty()) {
            FAIL() << test::pg_missing_message();
        }
        db_ = std::make_unique<test::PgDatabase>();
    }

    // Runs fn(store, node) on `n` stores of their own, in threads started together.
    void on_nodes(int n, const std::function<void(Store&, int)>& fn) {
        std::vector<std::unique_ptr<Store>> stores;
        for (int i = 0; i < n; ++i) {
            stores.push_back(open_postgres_store(db_->url()));
        }
        std::latch start(n);
        std::vector<std::thread> threads;
        std::vector<std::string> errors(static_cast<std::size_t>(n));
        for (int i = 0; i < n; ++i) {
            threads.emplace_back([&, i] {
                start.arrive_and_wait();
                try {
                    fn(*stores[static_cast<std::size_t>(i)], i);
                } catch (const std::exception& e) {
                    errors[static_cast<std::size_t>(i)] = e.what();
                }
            });
        }
        for (auto& t : threads) {
            t.join();
        }
        for (const auto& e : errors) {
            EXPECT_EQ(e, "");
        }
    }

    std::unique_ptr<test::PgDatabase> db_;
};

TEST_F(PostgresStore, NodesStartingAtOnceApplyTheMigrationsOnce) {
    std::vector<std::unique_ptr<Store>> stores(4);
    std::latch start(4);
    std::vector<std::thread> threads;
    std::atomic<int> failures{0};
    for (std::size_t i = 0; i < stores.size(); ++i) {
        threads.emplace_back([&, i] {
            start.arrive_and_wait();
            try {
                stores[i] = open_postgres_store(db_->url());
            } catch (const std::exception& e) {
                ++failures;
                ADD_FAILURE() << e.what();
            }
        });
    }
    for (auto& t : threads) {
        t.join();
    }
    ASSERT_EQ(failures.load(), 0);
    ASSERT_TRUE(stores[0]->create_user(UserRecord{0, "ann", "h", 1}));
    EXPECT_TRUE(stores[3]->user_by_name("ANN"));
}

TEST_F(PostgresStore, ConcurrentCreateUserOfOneNameGivesItToOne) {
    constexpr int kNames = 40;
    std::array<std::vector<int>, 2> won;
    on_nodes(2, [&](Store& store, int node) {
        for (int i = 0; i < kNames; ++i) {
            // Same names, different case: still one account per name.
            const std::string name = numbered(node == 0 ? "player" : "PLAYER", i);
            if (store.create_user(UserRecord{0, name, "h", 1})) {
                won[static_cast<std::size_t>(node)].push_back(i);
            }
        }
    });
    EXPECT_EQ(won[0].size() + won[1].size(), static_cast<std::size_t>(kNames));
    auto check = open_postgres_store(db_->url());
    for (int i = 0; i < kNames; ++i) {
        EXPECT_TRUE(check->user_by_name(numbered("Player", i))) << i;
    }
}

TEST_F(PostgresStore, ConcurrentRewardsKeepTheDailyCap) {
    std::array<int, 3> granted{};
    on_nodes(3, [&](Store& store, int node) {
        for (int i = 0; i < 20; ++i) {
            granted[static_cast<std::size_t>(node)] += store.add_reward("u1", "2026-01-01", 7, 100);
        }
    });
    EXPECT_EQ(granted[0] + granted[1] + granted[2], 100);
    EXPECT_EQ(open_postgres_store(db_->url())->reward_total("u1"), 100);
}

TEST_F(PostgresStore, ConcurrentClaimsGiveAGameToOneNode) {
    auto setup = open_postgres_store(db_->url());
    for (int i = 0; i < 30; ++i) {
        GameRecord g;
        g.id         = numbered("g", i);
        g.variant    = "international";
        g.mode       = GameMode::Hotseat;
        g.start_fen  = "W:W31-50:B1-20";
        g.status     = GameStatus::Playing;
        g.created_ms = 1;
        g.updated_ms = 1;
        setup->insert_game(g);
    }
    std::array<std::atomic<int>, 30> claims{};
    on_nodes(3, [&](Store& store, int node) {
        for (std::size_t i = 0; i < claims.size(); ++i) {
            if (store.claim_game(numbered("g", i), numbered("n", node), 1000, 3000)) {
                ++claims[i];
            }
        }
    });
    for (std::size_t i = 0; i < claims.size(); ++i) {
        EXPECT_EQ(claims[i].load(), 1) << "g" << i;
        EXPECT_TRUE(setup->game_owner(numbered("g", i), 2000));
    }
}

TEST(MigrationDialect, TranslatesTheSqliteFilesForPostgres) {
    const auto& list = store::migrations();
    ASSERT_GE(list.size(), 2U);
    const std::string init = store::postgres_dialect(list.at(0).sql);
    EXPECT_NE(init.find("id             BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,"),
              std::string::npos)
        << init;
    EXPECT_NE(init.find("CREATE UNIQUE INDEX users_username_nocase ON users (lower(username));"),
              std::string::npos);
    EXPECT_NE(init.find("created_ms      BIGINT NOT NULL"), std::string::npos);
    for (const auto& m : list) {
        const std::string sql = store::postgres_dialect(m.sql);
        std::string code;  // without comments
        for (std::size_t at = 0; at < sql.size();) {
            auto end = sql.find('\n', at);
            end      = end == std::string::npos ? sql.size() : end;
            code += sql.substr(at, std::min(end, sql.find("--", at)) - at) + "\n";
            at = end + 1;
        }
        EXPECT_EQ(code.find("INTEGER"), std::string::npos) << m.name;
        EXPECT_EQ(code.find("ROWID"), std::string::npos) << m.name;
        EXPECT_EQ(code.find("NOCASE"), std::string::npos) << m.name;
    }
    EXPECT_THROW((void)store::postgres_dialect("PRAGMA foreign_keys=ON;"), std::runtime_error);
    EXPECT_THROW((void)store::postgres_dialect("CREATE TABLE t (a TEXT COLLATE NOCASE);"),
                 std::runtime_error);
    EXPECT_EQ(store::postgres_dialect("CREATE TABLE t (\n  n INTEGER -- an INTEGER\n);"),
              "CREATE TABLE t (\n  n BIGINT -- an INTEGER\n);\n");
}

}  // namespace
}  // namespace papan::server
