// SQLite implementation of PuzzleStore (puzzle_store.hpp): its own connection to the Store's file.
#include "store/puzzle_store.hpp"
#include "store/sqlite_stmt.hpp"

#include <papan/server/game_kinds.hpp>
#include <papan/server/wire/names.hpp>

#include <map>
#include <memory>

namespace papan::server {

namespace {

using sqlite::Stmt;

constexpr std::string_view kPuzzleColumns =
    "id, variant, body, origin, rating, deviation, volatility, plays, solved, added_ms";
constexpr std::string_view kRatingColumns =
    "player_id, variant, rating, deviation, volatility, attempts, solved, best_streak, updated_ms";
constexpr std::string_view kAttemptColumns =
    "id, player_id, puzzle_id, variant, solved, rated, rating, delta, at_ms";

PuzzleRow puzzle_row(const Stmt& s) {
    PuzzleRow r;
    r.id       = s.text(0);
    r.variant  = s.text(1);
    r.body     = s.text(2);
    r.origin   = s.text(3);
    r.rating   = {s.real(4), s.real(5), s.real(6)};
    r.plays    = static_cast<int>(s.integer(7));
    r.solved   = static_cast<int>(s.integer(8));
    r.added_ms = s.integer(9);
    return r;
}

PuzzleRatingRow rating_row(const Stmt& s) {
    PuzzleRatingRow r;
    r.player_id   = s.text(0);
    r.variant     = s.text(1);
    r.rating      = {s.real(2), s.real(3), s.real(4)};
    r.attempts    = static_cast<int>(s.integer(5));
    r.solved      = static_cast<int>(s.integer(6));
    r.best_streak = static_cast<int>(s.integer(7));
    r.updated_ms  = s.integer(8);
    return r;
}

PuzzleAttemptRow attempt_row(const Stmt& s) {
    PuzzleAttemptRow a;
    a.id        = s.integer(0);
    a.player_id = s.text(1);
    a.puzzle_id = s.text(2);
    a.variant   = s.text(3);
    a.solved    = s.integer(4) != 0;
    a.rated     = s.integer(5) != 0;
    a.rating    = static_cast<int>(s.integer(6));
    a.delta     = static_cast<int>(s.integer(7));
    a.at_ms     = s.integer(8);
    return a;
}

class SqlitePuzzleStore final : public PuzzleStore {
public:
    explicit SqlitePuzzleStore(const std::filesystem::path& path) {
        const std::string p = path.string();
        if (sqlite3_open_v2(
                p.c_str(), &db_, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nullptr) !=
            SQLITE_OK) {
            const std::string msg = db_ != nullptr ? sqlite3_errmsg(db_) : "out of memory";
            sqlite3_close(db_);
            throw std::runtime_error("cannot open database " + p + ": " + msg);
        }
        sqlite3_busy_timeout(db_, 5000);
        exec("PRAGMA synchronous=NORMAL");
        exec("PRAGMA foreign_keys=ON");
    }

    ~SqlitePuzzleStore() override {
        stmts_.clear();
        sqlite3_close(db_);
    }

    SqlitePuzzleStore(const SqlitePuzzleStore&)            = delete;
    SqlitePuzzleStore& operator=(const SqlitePuzzleStore&) = delete;

    void transaction(const std::function<void()>& fn) override {
        if (depth_ > 0) {
            fn();
            return;
        }
        exec("BEGIN IMMEDIATE");
        ++depth_;
        try {
            fn();
        } catch (...) {
            --depth_;
            exec("ROLLBACK");
            throw;
        }
        --depth_;
        exec("COMMIT");
    }

    int add_puzzles(const std::vector<PuzzleRow>& rows) override {
        int added = 0;
        transaction([&] {
            auto& s = stmt("INSERT INTO puzzles (" + std::string(kPuzzleColumns) +
                           ") VALUES (?,?,?,?,?,?,?,?,?,?) ON CONFLICT (id) DO NOTHING");
            for (const auto& r : rows) {
                s.reset()
                    .bind(r.id)
                    .bind(r.variant)
                    .bind(r.body)
                    .bind(r.origin)
                    .bind(r.rating.rating)
                    .bind(r.rating.deviation)
                    .bind(r.rating.volatility)
                    .bind(r.plays)
                    .bind(r.solved)
                    .bind(r.added_ms);
                s.run();
                added += sqlite3_changes(db_);
            }
        });
        return added;
    }

    std::optional<PuzzleRow> puzzle(const std::string& id) override {
        auto& s = stmt("SELECT " + std::string(kPuzzleColumns) + " FROM puzzles WHERE id=?");
        s.reset().bind(id);
        std::optional<PuzzleRow> out;
        if (s.step()) {
            out = puzzle_row(s);
        }
        s.reset();
        return out;
    }

    int count_puzzles(const std::string& variant, const std::string& origin) override {
        auto& s = stmt("SELECT COUNT(*) FROM puzzles WHERE variant=? AND origin=?");
        s.reset().bind(variant).bind(origin);
        const int n = s.step() ? static_cast<int>(s.integer(0)) : 0;
        s.reset();
        return n;
    }

    std::vector<PuzzleRow> puzzles_between(const std::string& variant,
                                           double low,
                                           double high,
                                           const std::string& player_id,
                                           const std::string& from_id,
                                           int limit) override {
        auto& s = stmt("SELECT " + std::string(kPuzzleColumns) +
                       " FROM puzzles p WHERE variant=? AND rating>=? AND rating<=? AND id>=? "
                       "AND NOT EXISTS (SELECT 1 FROM puzzle_attempts a WHERE a.player_id=? AND "
                       "a.puzzle_id=p.id) ORDER BY id LIMIT ?");
        s.reset().bind(variant).bind(low).bind(high).bind(from_id).bind(player_id).bind(limit);
        std::vector<PuzzleRow> out;
        while (s.step()) {
            out.push_back(puzzle_row(s));
        }
        s.reset();
        return out;
    }

    std::vector<std::string> puzzle_ids(const std::string& variant,
                                        const std::string& origin) override {
        auto& s = stmt("SELECT id FROM puzzles WHERE variant=? AND origin=? ORDER BY id");
        s.reset().bind(variant).bind(origin);
        std::vector<std::string> out;
        while (s.step()) {
            out.push_back(s.text(0));
        }
        s.reset();
        return out;
    }

    void
    update_puzzle(const std::string& id, const Glicko& rating, int plays, int solved) override {
        auto& s = stmt("UPDATE puzzles SET rating=?, deviation=?, volatility=?, plays=?, "
                       "solved=? WHERE id=?");
        s.reset()
            .bind(rating.rating)
            .bind(rating.deviation)
            .bind(rating.volatility)
            .bind(plays)
            .bind(solved)
            .bind(id);
        s.run();
    }

    std::optional<PuzzleRatingRow> rating(const std::string& player_id,
                                          const std::string& variant) override {
        auto& s = stmt("SELECT " + std::string(kRatingColumns) +
                       " FROM puzzle_ratings WHERE player_id=? AND variant=?");
        s.reset().bind(player_id).bind(variant);
        std::optional<PuzzleRatingRow> out;
        if (s.step()) {
            out = rating_row(s);
        }
        s.reset();
        return out;
    }

    void set_rating(const PuzzleRatingRow& r) override {
        auto& s = stmt("INSERT INTO puzzle_ratings (" + std::string(kRatingColumns) +
                       ") VALUES (?,?,?,?,?,?,?,?,?) ON CONFLICT (player_id, variant) DO UPDATE "
                       "SET rating=excluded.rating, deviation=excluded.deviation, "
                       "volatility=excluded.volatility, attempts=excluded.attempts, "
                       "solved=excluded.solved, best_streak=excluded.best_streak, "
                       "updated_ms=excluded.updated_ms");
        s.reset()
            .bind(r.player_id)
            .bind(r.variant)
            .bind(r.rating.rating)
            .bind(r.rating.deviation)
            .bind(r.rating.volatility)
            .bind(r.attempts)
            .bind(r.solved)
            .bind(r.best_streak)
            .bind(r.updated_ms);
        s.run();
    }

    std::vector<PuzzleRatingRow> ratings_of(const std::string& player_id) override {
        auto& s = stmt("SELECT " + std::string(kRatingColumns) +
                       " FROM puzzle_ratings WHERE player_id=? ORDER BY variant");
        s.reset().bind(player_id);
        std::vector<PuzzleRatingRow> out;
        while (s.step()) {
            out.push_back(rating_row(s));
        }
        s.reset();
        return out;
    }

    bool has_rated_attempt(const std::string& player_id, const std::string& puzzle_id) override {
        auto& s =
            stmt("SELECT 1 FROM puzzle_attempts WHERE player_id=? AND puzzle_id=? AND rated=1");
        s.reset().bind(player_id).bind(puzzle_id);
        const bool found = s.step();
        s.reset();
        return found;
    }

    void add_attempt(const PuzzleAttemptRow& a) override {
        auto& s = stmt("INSERT INTO puzzle_attempts (player_id, puzzle_id, variant, solved, rated, "
                       "rating, delta, at_ms) VALUES (?,?,?,?,?,?,?,?)");
        s.reset()
            .bind(a.player_id)
            .bind(a.puzzle_id)
            .bind(a.variant)
            .bind(a.solved)
            .bind(a.rated)
            .bind(a.rating)
            .bind(a.delta)
            .bind(a.at_ms);
        s.run();
    }

    std::vector<PuzzleAttemptRow> attempts_of(const std::string& player_id, int limit) override {
        auto& s = stmt("SELECT " + std::string(kAttemptColumns) +
                       " FROM puzzle_attempts WHERE player_id=? ORDER BY at_ms DESC, id DESC "
                       "LIMIT ?");
        s.reset().bind(player_id).bind(limit);
        std::vector<PuzzleAttemptRow> out;
        while (s.step()) {
            out.push_back(attempt_row(s));
        }
        s.reset();
        return out;
    }

    std::vector<std::string> move_player(const std::string& from, const std::string& to) override {
        std::vector<std::string> moved;
        transaction([&] {
            for (const auto& r : ratings_of(from)) {
                if (rating(to, r.variant)) {
                    continue;
                }
                auto& attempts = stmt(
                    "UPDATE puzzle_attempts SET player_id=? WHERE player_id=? AND variant=? AND "
                    "NOT EXISTS (SELECT 1 FROM puzzle_attempts b WHERE b.player_id=? AND "
                    "b.puzzle_id=puzzle_attempts.puzzle_id)");
                attempts.reset().bind(to).bind(from).bind(r.variant).bind(to);
                attempts.run();
                auto& ratings =
                    stmt("UPDATE puzzle_ratings SET player_id=? WHERE player_id=? AND variant=?");
                ratings.reset().bind(to).bind(from).bind(r.variant);
                ratings.run();
                moved.push_back(r.variant);
            }
        });
        return moved;
    }

    std::string daily(const std::string& variant,
                      const std::string& day,
                      const std::string& candidate) override {
        auto& ins = stmt("INSERT INTO puzzle_daily (variant, day, puzzle_id) VALUES (?,?,?) ON "
                         "CONFLICT (variant, day) DO NOTHING");
        ins.reset().bind(variant).bind(day).bind(candidate);
        ins.run();
        auto& s = stmt("SELECT puzzle_id FROM puzzle_daily WHERE variant=? AND day=?");
        s.reset().bind(variant).bind(day);
        std::string out = s.step() ? s.text(0) : candidate;
        s.reset();
        return out;
    }

    std::vector<FinishedGameRow>
    finished_games_after(std::int64_t at_ms, const std::string& id, int limit) override {
        auto& s = stmt("SELECT id, variant, start_fen, forced_capture, draw_rules, updated_ms FROM "
                       "games WHERE status=? AND (updated_ms>? OR (updated_ms=? AND id>?)) "
                       "ORDER BY updated_ms, id LIMIT ?");
        s.reset().bind(wire::name(GameStatus::Over)).bind(at_ms).bind(at_ms).bind(id).bind(limit);
        std::vector<FinishedGameRow> out;
        while (s.step()) {
            FinishedGameRow g;
            g.id             = s.text(0);
            g.variant        = s.text(1);
            g.start_fen      = s.text(2);
            g.forced_capture = s.integer(3) != 0;
            g.draw_rules     = static_cast<int>(s.integer(4));
            g.updated_ms     = s.integer(5);
            out.push_back(std::move(g));
        }
        s.reset();
        auto& m = stmt("SELECT text FROM moves WHERE game_id=? ORDER BY ply");
        for (auto& g : out) {
            m.reset().bind(g.id);
            while (m.step()) {
                g.moves.push_back(m.text(0));
            }
            m.reset();
        }
        return out;
    }

    MiningCursor mining_cursor(const std::string& name) override {
        auto& s = stmt("SELECT cursor_ms, cursor_id, games, positions, kept FROM puzzle_mining "
                       "WHERE name=?");
        s.reset().bind(name);
        MiningCursor c;
        if (s.step()) {
            c = {s.integer(0), s.text(1), s.integer(2), s.integer(3), s.integer(4)};
        }
        s.reset();
        return c;
    }

    bool claim_mining(const std::string& name,
                      const MiningCursor& from,
                      std::int64_t at_ms,
                      const std::string& id) override {
        auto& first = stmt("INSERT INTO puzzle_mining (name, cursor_ms, cursor_id) VALUES (?,0,'') "
                           "ON CONFLICT (name) DO NOTHING");
        first.reset().bind(name);
        first.run();
        auto& s = stmt("UPDATE puzzle_mining SET cursor_ms=?, cursor_id=? WHERE name=? AND "
                       "cursor_ms=? AND cursor_id=?");
        s.reset().bind(at_ms).bind(id).bind(name).bind(from.at_ms).bind(from.id);
        s.run();
        return sqlite3_changes(db_) == 1;
    }

    void add_mining_figures(const std::string& name,
                            std::int64_t games,
                            std::int64_t positions,
                            std::int64_t kept) override {
        auto& s = stmt("UPDATE puzzle_mining SET games=games+?, positions=positions+?, "
                       "kept=kept+? WHERE name=?");
        s.reset().bind(games).bind(positions).bind(kept).bind(name);
        s.run();
    }

private:
    void exec(const std::string& sql) {
        char* err = nullptr;
        if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &err) != SQLITE_OK) {
            const std::string msg = err != nullptr ? err : "unknown error";
            sqlite3_free(err);
            throw std::runtime_error("sqlite: " + msg);
        }
    }

    Stmt& stmt(const std::string& sql) {
        auto it = stmts_.find(sql);
        if (it == stmts_.end()) {
            it = stmts_.emplace(sql, std::make_unique<Stmt>(db_, sql)).first;
        }
        return *it->second;
    }

    sqlite3* db_ = nullptr;
    int depth_   = 0;
    std::map<std::string, std::unique_ptr<Stmt>> stmts_;
};

}  // namespace

std::unique_ptr<PuzzleStore> open_sqlite_puzzle_store(const std::filesystem::path& path) {
    return std::make_unique<SqlitePuzzleStore>(path);
}

}  // namespace papan::server
