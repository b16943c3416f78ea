// PostgreSQL implementation of Store (libpqxx 6.4): one connection, used by one thread (the store
// executor). Several server nodes may share the database, so everything that can race with
// another node is one atomic statement or a transaction that locks what it reads:
// claim_game locks the game's row (SELECT ... FOR UPDATE) before it reads the owner's node
// lease, create_user an INSERT ... ON CONFLICT DO NOTHING,
// add_reward locks the day's row (SELECT ... FOR UPDATE) before adding to it, and the migrations
// run under a session advisory lock, so two nodes starting at once apply each migration once.
//
// The schema comes from the same numbered migration files as SQLite's, translated by
// store::postgres_dialect (store/migrations.hpp).
//
// Durability: unless the connection chooses otherwise, the session runs with
// synchronous_commit=off: a commit returns before its WAL reaches the disk. A committed
// transaction survives a crash of the Papan server process (as SQLite's WAL with
// synchronous=NORMAL); PostgreSQL's WAL writer flushes it within wal_writer_delay (200 ms), at
// most 3 x that, and a crash of PostgreSQL or its machine inside that window may lose those last
// commits, never consistency. Measured on the 2-core development machine, one connection: a
// single-row insert transaction takes ~4.4 ms with synchronous_commit=on (~225 commits/s) and
// ~0.07 ms with off; append_move (a transaction of an INSERT and an UPDATE) 3.7-4.0 ms (~250/s)
// with on and 0.15-0.35 ms (3,000-6,000/s) with off: `on` could not give one node's store thread
// ~1,000 moves/s. To keep `on`, set it in the URL (`?options=-c%20synchronous_commit%3Don`), in
// PGOPTIONS, or with ALTER ROLE / ALTER DATABASE ... SET synchronous_commit: Papan only changes
// it when its value comes from PostgreSQL's default or configuration file.
//
// Transactions: transaction() opens a pqxx::work and nested calls join it. Outside it each call
// runs as one autocommit statement (or its own short transaction when it needs several). As in
// PostgreSQL generally, an error inside a transaction aborts all of it. A broken connection
// (PostgreSQL restarted) fails the call in progress and is replaced at once for the next one.
#include "store/migrations.hpp"
#include "store/stored_kinds.hpp"

#include <papan/server/store.hpp>
#include <papan/server/wire/names.hpp>

#include <algorithm>
#include <map>
#include <pqxx/pqxx>
#include <stdexcept>
#include <type_traits>

namespace pqxx {

// A nullable 64-bit parameter (user ids of seats): libpqxx 6 has no std::optional parameters.
template <>
struct string_traits<std::optional<std::int64_t>> {
    static constexpr const char* name() noexcept { return "std::optional<std::int64_t>"; }

    static constexpr bool has_null() noexcept { return true; }

    static bool is_null(const std::optional<std::int64_t>& v) { return !v; }

    static std::optional<std::int64_t> null() { return std::nullopt; }

    static void from_string(const char* s, std::optional<std::int64_t>& v) {
        std::int64_t x = 0;
        string_traits<std::int64_t>::from_string(s, x);
        v = x;
    }

    static std::string to_string(const std::optional<std::int64_t>& v) {
        return string_traits<std::int64_t>::to_string(*v);
    }
};

}  // namespace pqxx

namespace papan::server {

namespace {

// Any key unique to Papan's schema: held while migrations run.
constexpr std::int64_t kMigrationLock = 0x7061'7061'6e00'0001;

// A session's last use is written at most once a minute, or a quarter of its expiry when that
// is shorter (short expiries in tests), so a session in use never expires.
constexpr std::int64_t kSessionTouchMs = 60'000;

constexpr std::string_view kGameColumns =
    "id, variant, mode, level, forced_capture, draw_rules, start_fen, white_id, white_name, "
    "white_computer, white_user, black_id, black_name, black_computer, black_user, time_control, "
    "clocks, status, outcome, reason, result_text, version, rated, invite_hash, invite_expires, "
    "rematch_of, created_ms, updated_ms";

// The URL without its password (user:PASSWORD@ or ?password=...), for messages.
std::string redact(std::string url) {
    const auto scheme = url.find("://");
    const auto at     = url.find('@');
    if (scheme != std::string::npos && at != std::string::npos && at > scheme) {
        const auto colon = url.find(':', scheme + 3);
        if (colon != std::string::npos && colon < at) {
            url = url.substr(0, colon + 1) + "***" + url.substr(at);
        }
    }
    if (const auto pw = url.find("password="); pw != std::string::npos) {
        const auto end = url.find('&', pw);
        url = url.substr(0, pw + 9) + "***" + (end == std::string::npos ? "" : url.substr(end));
    }
    return url;
}

std::int64_t flag(bool b) {
    return b ? 1 : 0;
}

class PgStore final : public Store {
public:
    explicit PgStore(std::string url) : url_(std::move(url)), conn_(connect(url_)) {
        choose_durability();
        migrate();
        prepare_statements();
    }

    PgStore(const PgStore&)            = delete;
    PgStore& operator=(const PgStore&) = delete;
    ~PgStore() override                = default;

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
                work_.reset();  // aborts unless committed
                throw;
            }
            work_.reset();
        });
    }

    void insert_game(const GameRecord& g) override {
        run([&](pqxx::transaction_base& t) {
            t.exec_prepared("insert_game",
                            g.id,
                            g.variant,
                            std::string(wire::name(g.mode)),
                            std::string(wire::name(g.level)),
                            flag(g.forced_capture),
                            static_cast<int>(g.draw_rules),
                            g.start_fen,
                            g.seats[0].player_id,
                            g.seats[0].name,
                            flag(g.seats[0].computer),
                            g.seats[0].user_id,
                            g.seats[1].player_id,
                            g.seats[1].name,
                            flag(g.seats[1].computer),
                            g.seats[1].user_id,
                            time_control_text(g.time_control),
                            clocks_text(g.clocks),
                            std::string(wire::name(g.status)),
                            std::string(wire::name(g.outcome)),
                            std::string(wire::name(g.reason)),
                            g.result_text,
                            g.version,
                            flag(g.rated),
                            g.invite_hash,
                            g.invite_expires_ms,
                            g.rematch_of,
                            g.created_ms,
                            g.updated_ms);
        });
    }

    void update_game(const GameRecord& g) override {
        run([&](pqxx::transaction_base& t) { exec_update_game(t, g); });
    }

    void append_move(const GameRecord& header, const MoveRecord& move) override {
        transaction([&] {
            work_->exec_prepared("insert_move", header.id, move.ply, move.text, move.at_ms);
            exec_update_game(*work_, header);
        });
    }

    void append_chat(const GameRecord& header, const ChatRecord& line) override {
        transaction([&] {
            work_->exec_prepared(
                "insert_chat", header.id, line.ply, line.color, line.at_ms, line.text);
            exec_update_game(*work_, header);
        });
    }

    void insert_game_with_moves(const GameRecord& g) override {
        transaction([&] {
            insert_game(g);
            for (const auto& m : g.moves) {
                work_->exec_prepared("insert_move", g.id, m.ply, m.text, m.at_ms);
            }
        });
    }

    void truncate_moves(const GameRecord& header, int from_ply) override {
        transaction([&] {
            work_->exec_prepared("truncate_moves", header.id, from_ply);
            exec_update_game(*work_, header);
        });
    }

    std::optional<GameRecord> load_game(const std::string& id) override {
        std::optional<GameRecord> out;
        read_consistent([&](pqxx::transaction_base& t) {
            const auto r = t.exec_prepared("load_game", id);
            if (r.empty()) {
                return;
            }
            out = read_game(r[0]);
            for (const auto& row : t.exec_prepared("load_moves", id)) {
                out->moves.push_back(read_move(row));
            }
            for (const auto& row : t.exec_prepared("load_chat", id, kChatLinesLoaded)) {
                out->chat.push_back(ChatRecord{row[0].as<int>(),
                                               row[1].as<int>(),
                                               row[2].as<std::int64_t>(),
                                               row[3].as<std::string>()});
            }
            std::reverse(out->chat.begin(), out->chat.end());
            if (out->status != GameStatus::Over || !out->rated) {
                return;  // only a rated ending writes rating changes
            }
            for (const auto& row : t.exec_prepared("load_rating_changes", id)) {
                out->rating_changes.push_back(RatingChangeRecord{row[0].as<std::int64_t>(),
                                                                 row[1].as<std::string>(),
                                                                 id,
                                                                 row[2].as<int>(),
                                                                 row[3].as<int>(),
                                                                 row[4].as<int>(),
                                                                 row[5].as<std::int64_t>()});
            }
        });
        return out;
    }

    std::vector<GameRecord> unfinished_games(std::int64_t updated_before_ms,
                                             const std::string& after_id,
                                             int limit) override {
        return run([&](pqxx::transaction_base& t) {
            std::vector<GameRecord> out;
            for (const auto& row :
                 t.exec_prepared("unfinished_games", updated_before_ms, after_id, limit)) {
                out.push_back(read_game(row));
            }
            return out;
        });
    }

    int count_unfinished(const std::string& player_id) override {
        return run([&](pqxx::transaction_base& t) {
            return t.exec_prepared("count_unfinished", player_id)[0][0].as<int>();
        });
    }

    std::vector<GameRecord> games_of(const std::string& player_id, int limit) override {
        return run([&](pqxx::transaction_base& t) {
            std::vector<GameRecord> out;
            for (const auto& row : t.exec_prepared("games_of", player_id, limit)) {
                out.push_back(read_game(row));
            }
            return out;
        });
    }

    void record_import(const std::string& player_id, const std::string& game_id) override {
        run([&](pqxx::transaction_base& t) {
            t.exec_prepared("record_import", player_id, game_id);
        });
    }

    std::optional<std::int64_t> create_user(const UserRecord& u) override {
        // ON CONFLICT DO NOTHING: a name taken, even by another node's insert a moment ago,
        // gives no row, and no error that would abort an enclosing transaction.
        return run([&](pqxx::transaction_base& t) -> std::optional<std::int64_t> {
            const auto r =
                t.exec_prepared("create_user", u.username, u.password_hash, u.created_ms);
            if (r.empty()) {
                return std::nullopt;
            }
            return r[0][0].as<std::int64_t>();
        });
    }

    std::optional<UserRecord> user_by_name(const std::string& username) override {
        return run([&](pqxx::transaction_base& t) {
            return read_user(t.exec_prepared("user_by_name", username));
        });
    }

    std::optional<UserRecord> user_by_id(std::int64_t id) override {
        return run([&](pqxx::transaction_base& t) {
            return read_user(t.exec_prepared("user_by_id", id));
        });
    }

    void set_password(std::int64_t user_id, const std::string& password_hash) override {
        run([&](pqxx::transaction_base& t) {
            t.exec_prepared("set_password", password_hash, user_id);
        });
    }

    void create_session(const std::string& token_hash,
                        std::int64_t user_id,
                        std::int64_t now_ms) override {
        run([&](pqxx::transaction_base& t) {
            t.exec_prepared("create_session", token_hash, user_id, now_ms);
        });
    }

    std::optional<std::int64_t> session_user(const std::string& token_hash,
                                             std::int64_t now_ms,
                                             std::int64_t max_idle_ms) override {
        return run([&](pqxx::transaction_base& t) -> std::optional<std::int64_t> {
            const auto r = t.exec_prepared("session_user", token_hash);
            if (r.empty()) {
                return std::nullopt;
            }
            const auto last = r[0][1].as<std::int64_t>();
            if (now_ms - last > max_idle_ms) {
                t.exec_prepared("delete_session", token_hash);
                return std::nullopt;
            }
            if (now_ms - last > std::min(kSessionTouchMs, max_idle_ms / 4)) {
                t.exec_prepared("touch_session", token_hash, now_ms);
            }
            return r[0][0].as<std::int64_t>();
        });
    }

    void delete_session(const std::string& token_hash) override {
        run([&](pqxx::transaction_base& t) { t.exec_prepared("delete_session", token_hash); });
    }

    void delete_other_sessions(std::int64_t user_id, const std::string& keep_hash) override {
        run([&](pqxx::transaction_base& t) {
            t.exec_prepared("delete_other_sessions", user_id, keep_hash);
        });
    }

    std::optional<std::int64_t> identity_user(const std::string& issuer,
                                              const std::string& subject) override {
        return run([&](pqxx::transaction_base& t) -> std::optional<std::int64_t> {
            const auto r = t.exec_prepared("identity_user", issuer, subject);
            return r.empty() ? std::nullopt : std::optional(r[0][0].as<std::int64_t>());
        });
    }

    bool link_identity(const ExternalIdentityRecord& r) override {
        // ON CONFLICT DO NOTHING: an identity another node linked a moment ago gives no row.
        return run([&](pqxx::transaction_base& t) {
            return !t.exec_prepared("link_identity", r.issuer, r.subject, r.user_id, r.created_ms)
                        .empty();
        });
    }

    std::vector<ExternalIdentityRecord> identities_of(std::int64_t user_id) override {
        return run([&](pqxx::transaction_base& t) {
            std::vector<ExternalIdentityRecord> out;
            for (const auto& row : t.exec_prepared("identities_of", user_id)) {
                out.push_back({row[0].as<std::string>(),
                               row[1].as<std::string>(),
                               row[2].as<std::int64_t>(),
                               row[3].as<std::int64_t>()});
            }
            return out;
        });
    }

    void put_auth_pending(const std::string& key_hash,
                          const std::string& payload,
                          std::int64_t expires_ms,
                          std::int64_t now_ms) override {
        run([&](pqxx::transaction_base& t) {
            t.exec_prepared("purge_auth_pending", now_ms);
            t.exec_prepared("put_auth_pending", key_hash, payload, expires_ms);
        });
    }

    std::optional<std::string> take_auth_pending(const std::string& key_hash,
                                                 std::int64_t now_ms) override {
        // One DELETE ... RETURNING: of two nodes taking the same record, one gets it.
        return run([&](pqxx::transaction_base& t) -> std::optional<std::string> {
            const auto r = t.exec_prepared("take_auth_pending", key_hash);
            if (r.empty() || r[0][1].as<std::int64_t>() <= now_ms) {
                return std::nullopt;
            }
            return r[0][0].as<std::string>();
        });
    }

    std::vector<RatingRecord> ratings_of(std::int64_t user_id) override {
        return run([&](pqxx::transaction_base& t) {
            std::vector<RatingRecord> out;
            for (const auto& row : t.exec_prepared("ratings_of", user_id)) {
                RatingRecord r;
                r.user_id = user_id;
                r.variant = row[0].as<std::string>();
                r.rating  = row[1].as<int>();
                r.games   = row[2].as<int>();
                r.wins    = row[3].as<int>();
                r.losses  = row[4].as<int>();
                r.draws   = row[5].as<int>();
                out.push_back(r);
            }
            return out;
        });
    }

    void add_rating_change(const RatingChangeRecord& c) override {
        run([&](pqxx::transaction_base& t) {
            t.exec_prepared("add_rating_change",
                            c.user_id,
                            c.variant,
                            c.game_id,
                            c.rating,
                            c.change,
                            c.score2,
                            c.at_ms);
        });
    }

    std::vector<RatingChangeRecord> rating_history(std::int64_t user_id) override {
        return run([&](pqxx::transaction_base& t) {
            std::vector<RatingChangeRecord> out;
            for (const auto& row : t.exec_prepared("rating_history", user_id)) {
                out.push_back(RatingChangeRecord{user_id,
                                                 row[0].as<std::string>(),
                                                 row[1].as<std::string>(),
                                                 row[2].as<int>(),
                                                 row[3].as<int>(),
                                                 row[4].as<int>(),
                                                 row[5].as<std::int64_t>()});
            }
            return out;
        });
    }

    RatingRecord rating(std::int64_t user_id, const std::string& variant) override {
        return run([&](pqxx::transaction_base& t) {
            RatingRecord rec;
            rec.user_id  = user_id;
            rec.variant  = variant;
            const auto r = t.exec_prepared("rating", user_id, variant);
            if (!r.empty()) {
                rec.rating = r[0][0].as<int>();
                rec.games  = r[0][1].as<int>();
            }
            return rec;
        });
    }

    void set_rating(const RatingRecord& r) override {
        run([&](pqxx::transaction_base& t) {
            t.exec_prepared("set_rating", r.user_id, r.variant, r.rating, r.games);
        });
    }

    std::vector<RatingRecord> leaderboard(const std::string& variant, int limit) override {
        return run([&](pqxx::transaction_base& t) {
            std::vector<RatingRecord> out;
            for (const auto& row : t.exec_prepared("leaderboard", variant, limit)) {
                RatingRecord rec;
                rec.user_id  = row[0].as<std::int64_t>();
                rec.username = row[1].as<std::string>();
                rec.variant  = variant;
                rec.rating   = row[2].as<int>();
                rec.games    = row[3].as<int>();
                out.push_back(rec);
            }
            return out;
        });
    }

    std::vector<std::pair<std::string, int>> rated_variants() override {
        return run([&](pqxx::transaction_base& t) {
            std::vector<std::pair<std::string, int>> out;
            for (const auto& row : t.exec_prepared("rated_variants")) {
                out.emplace_back(row[0].as<std::string>(), row[1].as<int>());
            }
            return out;
        });
    }

    int add_reward(const std::string& player_id,
                   const std::string& day,
                   int points,
                   int daily_cap) override {
        if (points <= 0 || daily_cap <= 0) {
            return 0;
        }
        int granted = 0;
        transaction([&] {
            // The day's row exists (another node's insert is waited for), then it is locked:
            // two nodes adding at once take turns and the cap holds.
            work_->exec_prepared("reward_row", player_id, day);
            const auto r   = work_->exec_prepared("reward_lock", player_id, day);
            const int have = r.empty() ? 0 : r[0][0].as<int>();
            granted        = std::clamp(daily_cap - have, 0, points);
            if (granted > 0) {
                work_->exec_prepared("reward_add", player_id, day, granted);
            }
        });
        return granted;
    }

    int reward_total(const std::string& player_id) override {
        return run([&](pqxx::transaction_base& t) {
            return t.exec_prepared("reward_total", player_id)[0][0].as<int>();
        });
    }

    // Leases are per node (migration 0003): the node's row says until when it holds its games.
    bool claim_game(const std::string& id,
                    const std::string& node,
                    std::int64_t now_ms,
                    std::int64_t lease_ms) override {
        // The game's row is locked first; the owner's lease is read by a later statement, which
        // under READ COMMITTED sees every claim committed before the lock was granted: of two
        // nodes claiming at once, the second sees the first as a live owner.
        // One transaction (run() alone would autocommit each statement and drop the lock).
        bool claimed = false;
        transaction([&] {
            claimed = run([&](pqxx::transaction_base& t) {
                t.exec_prepared("renew_leases", node, now_ms + lease_ms);  // a claimer lives
                const auto r = t.exec_prepared("claim_lock", id);
                if (r.empty()) {
                    return false;
                }
                if (!r[0][0].is_null()) {
                    const auto owner = r[0][0].as<std::string>();
                    if (owner != node && !t.exec_prepared("node_live", owner, now_ms).empty()) {
                        return false;
                    }
                }
                t.exec_prepared("claim_set", id, node);
                return true;
            });
        });
        return claimed;
    }

    std::optional<std::string> game_owner(const std::string& id, std::int64_t now_ms) override {
        return run([&](pqxx::transaction_base& t) -> std::optional<std::string> {
            const auto r = t.exec_prepared("game_owner", id, now_ms);
            if (r.empty()) {
                return std::nullopt;
            }
            return r[0][0].as<std::string>();
        });
    }

    void
    renew_leases(const std::string& node, std::int64_t now_ms, std::int64_t lease_ms) override {
        run([&](pqxx::transaction_base& t) {
            t.exec_prepared("renew_leases", node, now_ms + lease_ms);
        });
    }

    void release_game(const std::string& id, const std::string& node) override {
        run([&](pqxx::transaction_base& t) { t.exec_prepared("release_game", id, node); });
    }

    std::vector<std::string> orphaned_games(std::int64_t now_ms, int limit) override {
        return run([&](pqxx::transaction_base& t) {
            std::vector<std::string> out;
            for (const auto& row : t.exec_prepared("orphaned_games", now_ms, limit)) {
                out.push_back(row[0].as<std::string>());
            }
            return out;
        });
    }

private:
    static std::unique_ptr<pqxx::connection> connect(const std::string& url) {
        try {
            return std::make_unique<pqxx::connection>(url);
        } catch (const std::exception& e) {
            throw std::runtime_error("cannot connect to PostgreSQL at " + redact(url) + ": " +
                                     e.what());
        }
    }

    // fn(t) inside the open transaction, or as autocommit statements of its own.
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

    // fn(t) on one snapshot: the open transaction, or a read-only repeatable-read one.
    template <class F>
    void read_consistent(F&& fn) {
        if (work_) {
            fn(static_cast<pqxx::transaction_base&>(*work_));
            return;
        }
        guarded([&] {
            pqxx::transaction<pqxx::repeatable_read, pqxx::read_only> t(*conn_);
            fn(static_cast<pqxx::transaction_base&>(t));
            t.commit();
        });
    }

    // f() at the top level (no transaction open). When the connection broke (PostgreSQL
    // restarted, a network cut), the call fails as it must, since whether its work happened is
    // unknown, but a new connection is made at once, so the next call works again.
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
            auto fresh = connect(url_);
            conn_      = std::move(fresh);
            choose_durability();
            prepare_statements();
        } catch (const std::exception&) {
            // Still unreachable: libpqxx tries again on the next call.
        }
    }

    void choose_durability() {
        std::string source;
        {
            pqxx::nontransaction t(*conn_);
            source = t.exec("SELECT source FROM pg_settings WHERE name='synchronous_commit'")[0][0]
                         .as<std::string>();
            t.commit();
        }
        if (source == "default" || source == "configuration file") {
            // set_variable: libpqxx restores it should it reconnect by itself.
            conn_->set_variable("synchronous_commit", "off");
        }
    }

    void migrate() {
        try {
            pqxx::nontransaction lock(*conn_);
            lock.exec("SELECT pg_advisory_lock(" + std::to_string(kMigrationLock) + ")");
            lock.commit();
            try {
                apply_migrations();
            } catch (...) {
                unlock_migrations();
                throw;
            }
            unlock_migrations();
        } catch (const pqxx::broken_connection&) {
            throw;
        } catch (const std::exception& e) {
            throw std::runtime_error(std::string("PostgreSQL migrations failed: ") + e.what());
        }
    }

    void unlock_migrations() {
        pqxx::nontransaction t(*conn_);
        t.exec("SELECT pg_advisory_unlock(" + std::to_string(kMigrationLock) + ")");
        t.commit();
    }

    void apply_migrations() {
        std::int64_t current = 0;
        {
            pqxx::work t(*conn_);
            t.exec("CREATE TABLE IF NOT EXISTS schema_migrations (version BIGINT PRIMARY KEY, name "
                   "TEXT NOT NULL, applied_ms BIGINT NOT NULL)");
            current = t.exec("SELECT COALESCE(MAX(version),0) FROM schema_migrations")[0][0]
                          .as<std::int64_t>();
            t.commit();
        }
        for (const auto& m : store::migrations()) {
            if (m.number <= current) {
                continue;
            }
            pqxx::work t(*conn_);
            t.exec(store::postgres_dialect(m.sql));
            t.exec_params("INSERT INTO schema_migrations (version, name, applied_ms) VALUES ($1, "
                          "$2, (extract(epoch FROM clock_timestamp()) * 1000)::bigint)",
                          m.number,
                          std::string(m.name));
            t.commit();
        }
    }

    void prepare_statements() {
        const std::string cols(kGameColumns);
        conn_->prepare("insert_game",
                       "INSERT INTO games (" + cols +
                           ") VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15,$16,$17,"
                           "$18,$19,$20,$21,$22,$23,$24,$25,$26,$27,$28)");
        conn_->prepare("update_game",
                       "UPDATE games SET white_id=$1, white_name=$2, white_computer=$3, "
                       "white_user=$4, black_id=$5, black_name=$6, black_computer=$7, "
                       "black_user=$8, clocks=$9, status=$10, outcome=$11, reason=$12, "
                       "result_text=$13, version=$14, rated=$15, invite_hash=$16, "
                       "invite_expires=$17, updated_ms=$18 WHERE id=$19");
        conn_->prepare("insert_move",
                       "INSERT INTO moves (game_id, ply, text, at_ms) VALUES ($1,$2,$3,$4)");
        conn_->prepare("insert_chat",
                       "INSERT INTO chat (game_id, ply, color, at_ms, text) VALUES "
                       "($1,$2,$3,$4,$5)");
        conn_->prepare("load_chat",
                       "SELECT ply, color, at_ms, text FROM chat WHERE game_id=$1 ORDER BY id "
                       "DESC LIMIT $2");
        conn_->prepare("truncate_moves", "DELETE FROM moves WHERE game_id=$1 AND ply>=$2");
        conn_->prepare("load_game", "SELECT " + cols + " FROM games WHERE id=$1");
        conn_->prepare("load_moves",
                       "SELECT ply, text, at_ms FROM moves WHERE game_id=$1 ORDER BY ply");
        conn_->prepare("unfinished_games",
                       "SELECT " + cols +
                           " FROM games WHERE status<>'over' AND updated_ms<$1 AND id>$2 "
                           "ORDER BY id LIMIT $3");
        conn_->prepare("count_unfinished",
                       "SELECT COUNT(*) FROM games WHERE status<>'over' AND (white_id=$1 OR "
                       "black_id=$1)");
        conn_->prepare("games_of",
                       "SELECT " + cols +
                           " FROM games WHERE white_id=$1 OR black_id=$1 OR id IN (SELECT "
                           "game_id FROM imports WHERE player_id=$1) ORDER BY created_ms DESC, "
                           "id LIMIT $2");
        conn_->prepare("record_import",
                       "INSERT INTO imports (player_id, game_id) VALUES ($1,$2) ON CONFLICT DO "
                       "NOTHING");
        conn_->prepare("create_user",
                       "INSERT INTO users (username, password_hash, created_ms) VALUES ($1,$2,$3) "
                       "ON CONFLICT DO NOTHING RETURNING id");
        conn_->prepare("user_by_name",
                       "SELECT id, username, password_hash, created_ms FROM users WHERE "
                       "lower(username)=lower($1)");
        conn_->prepare("user_by_id",
                       "SELECT id, username, password_hash, created_ms FROM users WHERE id=$1");
        conn_->prepare("set_password", "UPDATE users SET password_hash=$1 WHERE id=$2");
        conn_->prepare("create_session",
                       "INSERT INTO sessions (token_hash, user_id, created_ms, last_used_ms) "
                       "VALUES ($1,$2,$3,$3)");
        conn_->prepare("session_user",
                       "SELECT user_id, last_used_ms FROM sessions WHERE token_hash=$1");
        conn_->prepare("touch_session", "UPDATE sessions SET last_used_ms=$2 WHERE token_hash=$1");
        conn_->prepare("delete_session", "DELETE FROM sessions WHERE token_hash=$1");
        conn_->prepare("delete_other_sessions",
                       "DELETE FROM sessions WHERE user_id=$1 AND token_hash<>$2");
        conn_->prepare("identity_user",
                       "SELECT user_id FROM external_identities WHERE issuer=$1 AND subject=$2");
        conn_->prepare("link_identity",
                       "INSERT INTO external_identities (issuer, subject, user_id, created_ms) "
                       "VALUES ($1,$2,$3,$4) ON CONFLICT (issuer, subject) DO NOTHING "
                       "RETURNING user_id");
        conn_->prepare("identities_of",
                       "SELECT issuer, subject, user_id, created_ms FROM external_identities "
                       "WHERE user_id=$1 ORDER BY created_ms, issuer, subject");
        conn_->prepare("purge_auth_pending", "DELETE FROM auth_pending WHERE expires_ms<$1");
        conn_->prepare("put_auth_pending",
                       "INSERT INTO auth_pending (key_hash, payload, expires_ms) VALUES ($1,$2,$3) "
                       "ON CONFLICT (key_hash) DO UPDATE SET payload=excluded.payload, "
                       "expires_ms=excluded.expires_ms");
        conn_->prepare("take_auth_pending",
                       "DELETE FROM auth_pending WHERE key_hash=$1 RETURNING payload, expires_ms");
        conn_->prepare("ratings_of",
                       "SELECT r.variant, r.rating, r.games, "
                       "(SELECT COUNT(*) FROM rating_changes c WHERE c.user_id=r.user_id AND "
                       "c.variant=r.variant AND c.score2=2), "
                       "(SELECT COUNT(*) FROM rating_changes c WHERE c.user_id=r.user_id AND "
                       "c.variant=r.variant AND c.score2=0), "
                       "(SELECT COUNT(*) FROM rating_changes c WHERE c.user_id=r.user_id AND "
                       "c.variant=r.variant AND c.score2=1) "
                       "FROM ratings r WHERE r.user_id=$1 ORDER BY r.variant");
        conn_->prepare("add_rating_change",
                       "INSERT INTO rating_changes (user_id, variant, game_id, rating, delta, "
                       "score2, at_ms) VALUES ($1,$2,$3,$4,$5,$6,$7)");
        conn_->prepare("load_rating_changes",
                       "SELECT user_id, variant, rating, delta, score2, at_ms FROM "
                       "rating_changes WHERE game_id=$1 ORDER BY user_id");
        conn_->prepare("rating_history",
                       "SELECT variant, game_id, rating, delta, score2, at_ms FROM "
                       "rating_changes WHERE user_id=$1 ORDER BY at_ms, game_id");
        conn_->prepare("rating",
                       "SELECT rating, games FROM ratings WHERE user_id=$1 AND variant=$2");
        conn_->prepare("set_rating",
                       "INSERT INTO ratings (user_id, variant, rating, games) VALUES ($1,$2,$3,$4) "
                       "ON CONFLICT (user_id, variant) DO UPDATE SET rating=excluded.rating, "
                       "games=excluded.games");
        conn_->prepare(
            "leaderboard",
            "SELECT r.user_id, u.username, r.rating, r.games FROM ratings r JOIN users u "
            "ON u.id=r.user_id WHERE r.variant=$1 ORDER BY r.rating DESC, lower(u.username) "
            "LIMIT $2");
        conn_->prepare("rated_variants",
                       "SELECT variant, COUNT(*) AS n FROM ratings GROUP BY variant ORDER BY n "
                       "DESC, variant");
        conn_->prepare("reward_row",
                       "INSERT INTO rewards (player_id, day, points) VALUES ($1,$2,0) ON CONFLICT "
                       "(player_id, day) DO NOTHING");
        conn_->prepare("reward_lock",
                       "SELECT points FROM rewards WHERE player_id=$1 AND day=$2 FOR UPDATE");
        conn_->prepare("reward_add",
                       "UPDATE rewards SET points=points+$3 WHERE player_id=$1 AND day=$2");
        conn_->prepare("reward_total",
                       "SELECT COALESCE(SUM(points),0) FROM rewards WHERE player_id=$1");
        conn_->prepare("claim_lock", "SELECT owner FROM games WHERE id=$1 FOR UPDATE");
        conn_->prepare("node_live", "SELECT 1 FROM nodes WHERE node=$1 AND lease_until_ms>=$2");
        conn_->prepare("claim_set", "UPDATE games SET owner=$2 WHERE id=$1");
        conn_->prepare("game_owner",
                       "SELECT g.owner FROM games g JOIN nodes n ON n.node=g.owner WHERE g.id=$1 "
                       "AND n.lease_until_ms>=$2");
        conn_->prepare("renew_leases",
                       "INSERT INTO nodes(node, lease_until_ms) VALUES($1, $2) ON CONFLICT(node) "
                       "DO UPDATE SET lease_until_ms=GREATEST(nodes.lease_until_ms, "
                       "excluded.lease_until_ms)");
        conn_->prepare("release_game", "UPDATE games SET owner=NULL WHERE id=$1 AND owner=$2");
        conn_->prepare("orphaned_games",
                       "SELECT g.id FROM games g LEFT JOIN nodes n ON n.node=g.owner WHERE "
                       "g.status<>'over' AND g.owner IS NOT NULL AND (n.node IS NULL OR "
                       "n.lease_until_ms<$1) ORDER BY "
                       "COALESCE(n.lease_until_ms, 0), g.id LIMIT $2");
    }

    static void exec_update_game(pqxx::transaction_base& t, const GameRecord& g) {
        t.exec_prepared("update_game",
                        g.seats[0].player_id,
                        g.seats[0].name,
                        flag(g.seats[0].computer),
                        g.seats[0].user_id,
                        g.seats[1].player_id,
                        g.seats[1].name,
                        flag(g.seats[1].computer),
                        g.seats[1].user_id,
                        clocks_text(g.clocks),
                        std::string(wire::name(g.status)),
                        std::string(wire::name(g.outcome)),
                        std::string(wire::name(g.reason)),
                        g.result_text,
                        g.version,
                        flag(g.rated),
                        g.invite_hash,
                        g.invite_expires_ms,
                        g.updated_ms,
                        g.id);
    }

    static GameRecord read_game(const pqxx::row& r) {
        GameRecord g;
        pqxx::row::size_type c = 0;
        const auto text        = [&] { return r[c++].as<std::string>(); };
        const auto integer     = [&] { return r[c++].as<std::int64_t>(); };
        g.id                   = text();
        g.variant              = text();
        g.mode                 = stored_mode(text(), g.id);
        g.level                = stored_level(text(), g.id);
        g.forced_capture       = integer() != 0;
        g.draw_rules           = stored_draw_rules(integer(), g.id);
        g.start_fen            = text();
        for (auto& seat : g.seats) {
            seat.player_id = text();
            seat.name      = text();
            seat.computer  = integer() != 0;
            if (!r[c].is_null()) {
                seat.user_id = r[c].as<std::int64_t>();
            }
            ++c;
        }
        g.time_control      = stored_time_control(text());
        g.clocks            = stored_clocks(text());
        g.status            = stored_status(text(), g.id);
        g.outcome           = stored_outcome(text(), g.id);
        g.reason            = stored_reason(text(), g.id);
        g.result_text       = text();
        g.version           = integer();
        g.rated             = integer() != 0;
        g.invite_hash       = text();
        g.invite_expires_ms = integer();
        g.rematch_of        = text();
        g.created_ms        = integer();
        g.updated_ms        = integer();
        return g;
    }

    static MoveRecord read_move(const pqxx::row& r) {
        return MoveRecord{r[0].as<int>(), r[1].as<std::string>(), r[2].as<std::int64_t>()};
    }

    static std::optional<UserRecord> read_user(const pqxx::result& r) {
        if (r.empty()) {
            return std::nullopt;
        }
        return UserRecord{r[0][0].as<std::int64_t>(),
                          r[0][1].as<std::string>(),
                          r[0][2].as<std::string>(),
                          r[0][3].as<std::int64_t>()};
    }

    std::string url_;
    std::unique_ptr<pqxx::connection> conn_;
    std::unique_ptr<pqxx::work> work_;  // the open transaction()
};

}  // namespace

std::unique_ptr<Store> open_postgres_store(const std::string& url) {
    return std::make_unique<PgStore>(url);
}

}  // namespace papan::server
