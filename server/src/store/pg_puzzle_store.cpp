// PostgreSQL implementation of PuzzleStore (puzzle_store.hpp): its own connection. What can race
// with another node is one statement (INSERT ... ON CONFLICT) or runs inside transaction(),
// whose callers lock what they read (the attempt: SELECT ... FOR UPDATE on the puzzle's row).
// A broken connection fails the call in progress and is replaced for the next one.
#include "store/puzzle_store.hpp"

#include <papan/server/game_kinds.hpp>
#include <papan/server/wire/names.hpp>

#include <memory>
#include <pqxx/pqxx>
#include <type_traits>

namespace papan::server {

namespace {

constexpr std::string_view kPuzzleColumns =
    "id, variant, body, origin, rating, deviation, volatility, plays, solved, added_ms";
constexpr std::string_view kRatingColumns =
    "player_id, variant, rating, deviation, volatility, attempts, solved, best_streak, updated_ms";
constexpr std::string_view kAttemptColumns =
    "id, player_id, puzzle_id, variant, solved, rated, rating, delta, at_ms";

std::string sql(std::string_view a, std::string_view b = {}, std::string_view c = {}) {
    return std::string(a) + std::string(b) + std::string(c);
}

PuzzleRow puzzle_row(const pqxx::row& r) {
    PuzzleRow p;
    p.id       = r[0].as<std::string>();
    p.variant  = r[1].as<std::string>();
    p.body     = r[2].as<std::string>();
    p.origin   = r[3].as<std::string>();
    p.rating   = {r[4].as<double>(), r[5].as<double>(), r[6].as<double>()};
    p.plays    = r[7].as<int>();
    p.solved   = r[8].as<int>();
    p.added_ms = r[9].as<std::int64_t>();
    return p;
}

PuzzleRatingRow rating_row(const pqxx::row& r) {
    PuzzleRatingRow p;
    p.player_id   = r[0].as<std::string>();
    p.variant     = r[1].as<std::string>();
    p.rating      = {r[2].as<double>(), r[3].as<double>(), r[4].as<double>()};
    p.attempts    = r[5].as<int>();
    p.solved      = r[6].as<int>();
    p.best_streak = r[7].as<int>();
    p.updated_ms  = r[8].as<std::int64_t>();
    return p;
}

PuzzleAttemptRow attempt_row(const pqxx::row& r) {
    PuzzleAttemptRow a;
    a.id        = r[0].as<std::int64_t>();
    a.player_id = r[1].as<std::string>();
    a.puzzle_id = r[2].as<std::string>();
    a.variant   = r[3].as<std::string>();
    a.solved    = r[4].as<int>() != 0;
    a.rated     = r[5].as<int>() != 0;
    a.rating    = r[6].as<int>();
    a.delta     = r[7].as<int>();
    a.at_ms     = r[8].as<std::int64_t>();
    return a;
}

class PgPuzzleStore final : public PuzzleStore {
public:
    explicit PgPuzzleStore(std::string url) : url_(std::move(url)), conn_(connect(url_)) {}

    void transaction(const std::function<void()>& fn) override {
        if (work_) {
            fn();
            return;
        }
        guarded([&] {
            work_ = std::make_unique<pqxx::work>(*conn_);
            try {
                fn();
                work_->commit();
            } catch (...) {
                work_.reset();
                throw;
            }
            work_.reset();
        });
    }

    int add_puzzles(const std::vector<PuzzleRow>& rows) override {
        int added = 0;
        transaction([&] {
            for (const auto& r : rows) {
                added += static_cast<int>(
                    work_
                        ->exec_params(sql("INSERT INTO puzzles (",
                                          kPuzzleColumns,
                                          ") VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10) ON "
                                          "CONFLICT (id) DO NOTHING"),
                                      r.id,
                                      r.variant,
                                      r.body,
                                      r.origin,
                                      r.rating.rating,
                                      r.rating.deviation,
                                      r.rating.volatility,
                                      r.plays,
                                      r.solved,
                                      r.added_ms)
                        .affected_rows());
            }
        });
        return added;
    }

    std::optional<PuzzleRow> puzzle(const std::string& id) override {
        return run([&](pqxx::transaction_base& t) -> std::optional<PuzzleRow> {
            const auto r =
                t.exec_params(sql("SELECT ", kPuzzleColumns, " FROM puzzles WHERE id=$1") +
                                  (work_ ? " FOR UPDATE" : ""),
                              id);
            if (r.empty()) {
                return std::nullopt;
            }
            return puzzle_row(r[0]);
        });
    }

    int count_puzzles(const std::string& variant, const std::string& origin) override {
        return run([&](pqxx::transaction_base& t) {
            return t
                .exec_params("SELECT COUNT(*) FROM puzzles WHERE variant=$1 AND origin=$2",
                             variant,
                             origin)[0][0]
                .as<int>();
        });
    }

    std::vector<PuzzleRow> puzzles_between(const std::string& variant,
                                           double low,
                                           double high,
                                           const std::string& player_id,
                                           const std::string& from_id,
                                           int limit) override {
        return run([&](pqxx::transaction_base& t) {
            std::vector<PuzzleRow> out;
            for (const auto& r : t.exec_params(
                     sql("SELECT ",
                         kPuzzleColumns,
                         " FROM puzzles p WHERE variant=$1 AND rating>=$2 AND rating<=$3 AND "
                         "id>=$4 AND NOT EXISTS (SELECT 1 FROM puzzle_attempts a WHERE "
                         "a.player_id=$5 AND a.puzzle_id=p.id) ORDER BY id LIMIT $6"),
                     variant,
                     low,
                     high,
                     from_id,
                     player_id,
                     limit)) {
                out.push_back(puzzle_row(r));
            }
            return out;
        });
    }

    std::vector<std::string> puzzle_ids(const std::string& variant,
                                        const std::string& origin) override {
        return run([&](pqxx::transaction_base& t) {
            std::vector<std::string> out;
            for (const auto& r :
                 t.exec_params("SELECT id FROM puzzles WHERE variant=$1 AND origin=$2 ORDER BY id",
                               variant,
                               origin)) {
                out.push_back(r[0].as<std::string>());
            }
            return out;
        });
    }

    void
    update_puzzle(const std::string& id, const Glicko& rating, int plays, int solved) override {
        run([&](pqxx::transaction_base& t) {
            t.exec_params("UPDATE puzzles SET rating=$1, deviation=$2, volatility=$3, plays=$4, "
                          "solved=$5 WHERE id=$6",
                          rating.rating,
                          rating.deviation,
                          rating.volatility,
                          plays,
                          solved,
                          id);
        });
    }

    std::optional<PuzzleRatingRow> rating(const std::string& player_id,
                                          const std::string& variant) override {
        return run([&](pqxx::transaction_base& t) -> std::optional<PuzzleRatingRow> {
            const auto r =
                t.exec_params(sql("SELECT ",
                                  kRatingColumns,
                                  " FROM puzzle_ratings WHERE player_id=$1 AND variant=$2") +
                                  (work_ ? " FOR UPDATE" : ""),
                              player_id,
                              variant);
            if (r.empty()) {
                return std::nullopt;
            }
            return rating_row(r[0]);
        });
    }

    void set_rating(const PuzzleRatingRow& r) override {
        run([&](pqxx::transaction_base& t) {
            t.exec_params(sql("INSERT INTO puzzle_ratings (",
                              kRatingColumns,
                              ") VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9) ON CONFLICT (player_id, "
                              "variant) DO UPDATE SET rating=excluded.rating, "
                              "deviation=excluded.deviation, volatility=excluded.volatility, "
                              "attempts=excluded.attempts, solved=excluded.solved, "
                              "best_streak=excluded.best_streak, updated_ms=excluded.updated_ms"),
                          r.player_id,
                          r.variant,
                          r.rating.rating,
                          r.rating.deviation,
                          r.rating.volatility,
                          r.attempts,
                          r.solved,
                          r.best_streak,
                          r.updated_ms);
        });
    }

    std::vector<PuzzleRatingRow> ratings_of(const std::string& player_id) override {
        return run([&](pqxx::transaction_base& t) {
            std::vector<PuzzleRatingRow> out;
            for (const auto& r :
                 t.exec_params(sql("SELECT ",
                                   kRatingColumns,
                                   " FROM puzzle_ratings WHERE player_id=$1 ORDER BY variant"),
                               player_id)) {
                out.push_back(rating_row(r));
            }
            return out;
        });
    }

    bool has_rated_attempt(const std::string& player_id, const std::string& puzzle_id) override {
        return run([&](pqxx::transaction_base& t) {
            return !t.exec_params("SELECT 1 FROM puzzle_attempts WHERE player_id=$1 AND "
                                  "puzzle_id=$2 AND rated=1",
                                  player_id,
                                  puzzle_id)
                        .empty();
        });
    }

    void add_attempt(const PuzzleAttemptRow& a) override {
        run([&](pqxx::transaction_base& t) {
            t.exec_params("INSERT INTO puzzle_attempts (player_id, puzzle_id, variant, solved, "
                          "rated, rating, delta, at_ms) VALUES ($1,$2,$3,$4,$5,$6,$7,$8)",
                          a.player_id,
                          a.puzzle_id,
                          a.variant,
                          a.solved ? 1 : 0,
                          a.rated ? 1 : 0,
                          a.rating,
                          a.delta,
                          a.at_ms);
        });
    }

    std::vector<PuzzleAttemptRow> attempts_of(const std::string& player_id, int limit) override {
        return run([&](pqxx::transaction_base& t) {
            std::vector<PuzzleAttemptRow> out;
            for (const auto& r : t.exec_params(
                     sql("SELECT ",
                         kAttemptColumns,
                         " FROM puzzle_attempts WHERE player_id=$1 ORDER BY at_ms DESC, id DESC "
                         "LIMIT $2"),
                     player_id,
                     limit)) {
                out.push_back(attempt_row(r));
            }
            return out;
        });
    }

    std::vector<std::string> move_player(const std::string& from, const std::string& to) override {
        std::vector<std::string> moved;
        transaction([&] {
            for (const auto& r : ratings_of(from)) {
                if (rating(to, r.variant)) {
                    continue;
                }
                work_->exec_params(
                    "UPDATE puzzle_attempts SET player_id=$1 WHERE player_id=$2 AND variant=$3 "
                    "AND NOT EXISTS (SELECT 1 FROM puzzle_attempts b WHERE b.player_id=$1 AND "
                    "b.puzzle_id=puzzle_attempts.puzzle_id)",
                    to,
                    from,
                    r.variant);
                work_->exec_params(
                    "UPDATE puzzle_ratings SET player_id=$1 WHERE player_id=$2 AND variant=$3",
                    to,
                    from,
                    r.variant);
                moved.push_back(r.variant);
            }
        });
        return moved;
    }

    std::string daily(const std::string& variant,
                      const std::string& day,
                      const std::string& candidate) override {
        return run([&](pqxx::transaction_base& t) {
            t.exec_params("INSERT INTO puzzle_daily (variant, day, puzzle_id) VALUES ($1,$2,$3) "
                          "ON CONFLICT (variant, day) DO NOTHING",
                          variant,
                          day,
                          candidate);
            const auto r = t.exec_params(
                "SELECT puzzle_id FROM puzzle_daily WHERE variant=$1 AND day=$2", variant, day);
            return r.empty() ? candidate : r[0][0].as<std::string>();
        });
    }

    std::vector<FinishedGameRow>
    finished_games_after(std::int64_t at_ms, const std::string& id, int limit) override {
        return run([&](pqxx::transaction_base& t) {
            std::vector<FinishedGameRow> out;
            for (const auto& r : t.exec_params(
                     "SELECT id, variant, start_fen, forced_capture, draw_rules, updated_ms FROM "
                     "games WHERE status=$1 AND (updated_ms>$2 OR (updated_ms=$2 AND id>$3)) "
                     "ORDER BY updated_ms, id LIMIT $4",
                     std::string(wire::name(GameStatus::Over)),
                     at_ms,
                     id,
                     limit)) {
                FinishedGameRow g;
                g.id             = r[0].as<std::string>();
                g.variant        = r[1].as<std::string>();
                g.start_fen      = r[2].as<std::string>();
                g.forced_capture = r[3].as<int>() != 0;
                g.draw_rules     = r[4].as<int>();
                g.updated_ms     = r[5].as<std::int64_t>();
                out.push_back(std::move(g));
            }
            for (auto& g : out) {
                for (const auto& m :
                     t.exec_params("SELECT text FROM moves WHERE game_id=$1 ORDER BY ply", g.id)) {
                    g.moves.push_back(m[0].as<std::string>());
                }
            }
            return out;
        });
    }

    MiningCursor mining_cursor(const std::string& name) override {
        return run([&](pqxx::transaction_base& t) {
            MiningCursor c;
            const auto r = t.exec_params("SELECT cursor_ms, cursor_id, games, positions, kept FROM "
                                         "puzzle_mining WHERE name=$1",
                                         name);
            if (!r.empty()) {
                c = {r[0][0].as<std::int64_t>(),
                     r[0][1].as<std::string>(),
                     r[0][2].as<std::int64_t>(),
                     r[0][3].as<std::int64_t>(),
                     r[0][4].as<std::int64_t>()};
            }
            return c;
        });
    }

    bool claim_mining(const std::string& name,
                      const MiningCursor& from,
                      std::int64_t at_ms,
                      const std::string& id) override {
        return run([&](pqxx::transaction_base& t) {
            t.exec_params("INSERT INTO puzzle_mining (name, cursor_ms, cursor_id) VALUES "
                          "($1,0,'') ON CONFLICT (name) DO NOTHING",
                          name);
            return t.exec_params("UPDATE puzzle_mining SET cursor_ms=$1, cursor_id=$2 WHERE "
                                 "name=$3 AND cursor_ms=$4 AND cursor_id=$5",
                                 at_ms,
                                 id,
                                 name,
                                 from.at_ms,
                                 from.id)
                       .affected_rows() == 1;
        });
    }

    void add_mining_figures(const std::string& name,
                            std::int64_t games,
                            std::int64_t positions,
                            std::int64_t kept) override {
        run([&](pqxx::transaction_base& t) {
            t.exec_params("UPDATE puzzle_mining SET games=games+$1, positions=positions+$2, "
                          "kept=kept+$3 WHERE name=$4",
                          games,
                          positions,
                          kept,
                          name);
        });
    }

private:
    static std::unique_ptr<pqxx::connection> connect(const std::string& url) {
        try {
            auto c = std::make_unique<pqxx::connection>(url);
            // The puzzles' writes are ratings, not games: a commit may return before its WAL is
            // on disk, as the game store's (pg_store.cpp says what that risks).
            c->set_variable("synchronous_commit", "off");
            return c;
        } catch (const std::exception& e) {
            throw std::runtime_error(std::string("cannot connect to PostgreSQL for puzzles: ") +
                                     e.what());
        }
    }

    template <class F>
    std::invoke_result_t<F&, pqxx::transaction_base&> run(F&& fn) {
        using Result = std::invoke_result_t<F&, pqxx::transaction_base&>;
        if (work_) {
            return fn(static_cast<pqxx::transaction_base&>(*work_));
        }
        return guarded([&]() -> Result {
            pqxx::nontransaction t(*conn_);
            if constexpr (std::is_void_v<Result>) {
                fn(static_cast<pqxx::transaction_base&>(t));
                t.commit();
            } else {
                Result out = fn(static_cast<pqxx::transaction_base&>(t));
                t.commit();
                return out;
            }
        });
    }

    template <class F>
    std::invoke_result_t<F&> guarded(F&& f) {
        try {
            return f();
        } catch (const pqxx::broken_connection&) {
            reconnect();
            throw;
        } catch (const pqxx::in_doubt_error&) {
            reconnect();
            throw;
        }
    }

    void reconnect() noexcept {
        try {
            conn_ = connect(url_);
        } catch (const std::exception&) {
            // Still unreachable: the next call tries again.
        }
    }

    std::string url_;
    std::unique_ptr<pqxx::connection> conn_;
    std::unique_ptr<pqxx::work> work_;
};

}  // namespace

std::unique_ptr<PuzzleStore> open_postgres_puzzle_store(const std::string& url) {
    return std::make_unique<PgPuzzleStore>(url);
}

std::unique_ptr<PuzzleStore> open_puzzle_store(const std::string& spec,
                                               const std::filesystem::path& data_dir) {
    const auto starts = [&](std::string_view prefix) { return spec.rfind(prefix, 0) == 0; };
    if (spec.empty()) {
        return open_sqlite_puzzle_store(data_dir / "papan.db");
    }
    if (starts("postgresql://") || starts("postgres://")) {
        return open_postgres_puzzle_store(spec);
    }
    if (starts("sqlite:")) {
        return open_sqlite_puzzle_store(spec.substr(7));
    }
    throw std::runtime_error("--store: unknown kind of store");
}

}  // namespace papan::server
