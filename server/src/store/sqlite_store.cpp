// SQLite implementation of Store: one connection, used by one thread (the store executor).
// WAL journal with synchronous=NORMAL: a committed transaction survives a crash of the process
// (SIGKILL); a power loss may lose the last transactions but never corrupts the file.
#include "store/migrations.hpp"
#include "store/sqlite_stmt.hpp"
#include "store/stored_kinds.hpp"

#include <papan/server/store.hpp>
#include <papan/server/wire/names.hpp>

#include <sqlite3.h>

#include <algorithm>
#include <map>
#include <stdexcept>
#include <string_view>

namespace papan::server {

namespace {

using sqlite::Stmt;

// A session's last use is written at most once a minute, or a quarter of its expiry when that
// is shorter (short expiries in tests), so a session in use never expires.
constexpr std::int64_t kSessionTouchMs = 60'000;

constexpr std::string_view kGameColumns =
    "id, variant, mode, level, forced_capture, draw_rules, start_fen, white_id, white_name, "
    "white_computer, white_user, black_id, black_name, black_computer, black_user, time_control, "
    "clocks, status, outcome, reason, result_text, version, rated, invite_hash, invite_expires, "
    "rematch_of, created_ms, updated_ms";

class SqliteStore final : public Store {
public:
    explicit SqliteStore(const std::filesystem::path& path) {
        const std::string p = path.string();
        if (sqlite3_open_v2(p.c_str(),
                            &db_,
                            SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX,
                            nullptr) != SQLITE_OK) {
            const std::string msg = db_ != nullptr ? sqlite3_errmsg(db_) : "out of memory";
            sqlite3_close(db_);
            throw std::runtime_error("cannot open database " + p + ": " + msg);
        }
        sqlite3_busy_timeout(db_, 5000);
        exec("PRAGMA journal_mode=WAL");
        exec("PRAGMA synchronous=NORMAL");
        exec("PRAGMA foreign_keys=ON");
        migrate();
    }

    ~SqliteStore() override {
        stmts_.clear();
        sqlite3_close(db_);
    }

    SqliteStore(const SqliteStore&)            = delete;
    SqliteStore& operator=(const SqliteStore&) = delete;

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

    void insert_game(const GameRecord& g) override {
        auto& s = stmt("INSERT INTO games (" + std::string(kGameColumns) +
                       ") VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)");
        bind_game(s.reset(), g);
        s.run();
    }

    void update_game(const GameRecord& g) override {
        auto& s =
            stmt("UPDATE games SET white_id=?, white_name=?, white_computer=?, white_user=?, "
                 "black_id=?, black_name=?, black_computer=?, black_user=?, clocks=?, status=?, "
                 "outcome=?, reason=?, result_text=?, version=?, rated=?, invite_hash=?, "
                 "invite_expires=?, updated_ms=? WHERE id=?");
        s.reset();
        for (const auto& seat : g.seats) {
            s.bind(seat.player_id).bind(seat.name).bind(seat.computer).bind(seat.user_id);
        }
        s.bind(clocks_text(g.clocks))
            .bind(wire::name(g.status))
            .bind(wire::name(g.outcome))
            .bind(wire::name(g.reason))
            .bind(g.result_text);
        s.bind(g.version).bind(g.rated).bind(g.invite_hash).bind(g.invite_expires_ms);
        s.bind(g.updated_ms).bind(g.id);
        s.run();
    }

    void append_move(const GameRecord& header, const MoveRecord& move) override {
        transaction([&] {
            auto& s = stmt("INSERT INTO moves (game_id, ply, text, at_ms) VALUES (?,?,?,?)");
            s.reset().bind(header.id).bind(move.ply).bind(move.text).bind(move.at_ms);
            s.run();
            update_game(header);
        });
    }

    void append_chat(const GameRecord& header, const ChatRecord& line) override {
        transaction([&] {
            auto& s =
                stmt("INSERT INTO chat (game_id, ply, color, at_ms, text) VALUES (?,?,?,?,?)");
            s.reset().bind(header.id).bind(line.ply).bind(line.color).bind(line.at_ms);
            s.bind(line.text);
            s.run();
            update_game(header);
        });
    }

    void insert_game_with_moves(const GameRecord& g) override {
        transaction([&] {
            insert_game(g);
            auto& s = stmt("INSERT INTO moves (game_id, ply, text, at_ms) VALUES (?,?,?,?)");
            for (const auto& m : g.moves) {
                s.reset().bind(g.id).bind(m.ply).bind(m.text).bind(m.at_ms);
                s.run();
            }
        });
    }

    void truncate_moves(const GameRecord& header, int from_ply) override {
        transaction([&] {
            auto& s = stmt("DELETE FROM moves WHERE game_id=? AND ply>=?");
            s.reset().bind(header.id).bind(from_ply);
            s.run();
            update_game(header);
        });
    }

    std::optional<GameRecord> load_game(const std::string& id) override {
        auto& s = stmt("SELECT " + std::string(kGameColumns) + " FROM games WHERE id=?");
        s.reset().bind(id);
        if (!s.step()) {
            return std::nullopt;
        }
        GameRecord g = read_game(s);
        s.reset();
        load_moves(g);
        load_chat(g);
        if (g.status == GameStatus::Over && g.rated) {  // only a rated ending writes them
            load_rating_changes(g);
        }
        return g;
    }

    std::vector<GameRecord> unfinished_games(std::int64_t updated_before_ms,
                                             const std::string& after_id,
                                             int limit) override {
        auto& s = stmt("SELECT " + std::string(kGameColumns) +
                       " FROM games WHERE status<>'over' AND updated_ms<? AND id>? ORDER BY id "
                       "LIMIT ?");
        s.reset().bind(updated_before_ms).bind(after_id).bind(limit);
        std::vector<GameRecord> out;
        while (s.step()) {
            out.push_back(read_game(s));
        }
        s.reset();
        return out;
    }

    int count_unfinished(const std::string& player_id) override {
        auto& s = stmt("SELECT COUNT(*) FROM games WHERE status<>'over' AND (white_id=? OR "
                       "black_id=?)");
        s.reset().bind(player_id).bind(player_id);
        const int n = s.step() ? static_cast<int>(s.integer(0)) : 0;
        s.reset();
        return n;
    }

    std::vector<GameRecord> games_of(const std::string& player_id, int limit) override {
        auto& s = stmt("SELECT " + std::string(kGameColumns) +
                       " FROM games WHERE white_id=? OR black_id=? OR id IN (SELECT game_id FROM "
                       "imports WHERE player_id=?) ORDER BY created_ms DESC, id LIMIT ?");
        s.reset().bind(player_id).bind(player_id).bind(player_id).bind(limit);
        std::vector<GameRecord> out;
        while (s.step()) {
            out.push_back(read_game(s));
        }
        s.reset();
        return out;
    }

    void record_import(const std::string& player_id, const std::string& game_id) override {
        auto& s = stmt("INSERT INTO imports (player_id, game_id) VALUES (?,?) ON CONFLICT DO "
                       "NOTHING");
        s.reset().bind(player_id).bind(game_id);
        s.run();
    }

    std::optional<std::int64_t> create_user(const UserRecord& u) override {
        if (user_by_name(u.username)) {
            return std::nullopt;
        }
        auto& s = stmt("INSERT INTO users (username, password_hash, created_ms) VALUES (?,?,?)");
        s.reset().bind(u.username).bind(u.password_hash).bind(u.created_ms);
        s.run();
        return sqlite3_last_insert_rowid(db_);
    }

    std::optional<UserRecord> user_by_name(const std::string& username) override {
        auto& s =
            stmt("SELECT id, username, password_hash, created_ms FROM users WHERE username=?");
        s.reset().bind(username);
        return read_user(s);
    }

    std::optional<UserRecord> user_by_id(std::int64_t id) override {
        auto& s = stmt("SELECT id, username, password_hash, created_ms FROM users WHERE id=?");
        s.reset().bind(id);
        return read_user(s);
    }

    void set_password(std::int64_t user_id, const std::string& password_hash) override {
        auto& s = stmt("UPDATE users SET password_hash=? WHERE id=?");
        s.reset().bind(password_hash).bind(user_id);
        s.run();
    }

    void create_session(const std::string& token_hash,
                        std::int64_t user_id,
                        std::int64_t now_ms) override {
        auto& s = stmt("INSERT INTO sessions (token_hash, user_id, created_ms, last_used_ms) "
                       "VALUES (?,?,?,?)");
        s.reset().bind(token_hash).bind(user_id).bind(now_ms).bind(now_ms);
        s.run();
    }

    std::optional<std::int64_t> session_user(const std::string& token_hash,
                                             std::int64_t now_ms,
                                             std::int64_t max_idle_ms) override {
        auto& s = stmt("SELECT user_id, last_used_ms FROM sessions WHERE token_hash=?");
        s.reset().bind(token_hash);
        std::optional<std::int64_t> out;
        std::int64_t last = 0;
        if (s.step()) {
            out  = s.integer(0);
            last = s.integer(1);
        }
        s.reset();
        if (!out) {
            return out;
        }
        if (now_ms - last > max_idle_ms) {
            delete_session(token_hash);
            return std::nullopt;
        }
        if (now_ms - last > std::min(kSessionTouchMs, max_idle_ms / 4)) {
            auto& u = stmt("UPDATE sessions SET last_used_ms=? WHERE token_hash=?");
            u.reset().bind(now_ms).bind(token_hash);
            u.run();
        }
        return out;
    }

    void delete_session(const std::string& token_hash) override {
        auto& s = stmt("DELETE FROM sessions WHERE token_hash=?");
        s.reset().bind(token_hash);
        s.run();
    }

    void delete_other_sessions(std::int64_t user_id, const std::string& keep_hash) override {
        auto& s = stmt("DELETE FROM sessions WHERE user_id=? AND token_hash<>?");
        s.reset().bind(user_id).bind(keep_hash);
        s.run();
    }

    std::optional<std::int64_t> identity_user(const std::string& issuer,
                                              const std::string& subject) override {
        auto& s = stmt("SELECT user_id FROM external_identities WHERE issuer=? AND subject=?");
        s.reset().bind(issuer).bind(subject);
        std::optional<std::int64_t> out;
        if (s.step()) {
            out = s.integer(0);
        }
        s.reset();
        return out;
    }

    bool link_identity(const ExternalIdentityRecord& r) override {
        auto& s = stmt("INSERT INTO external_identities (issuer, subject, user_id, created_ms) "
                       "VALUES (?,?,?,?) ON CONFLICT (issuer, subject) DO NOTHING");
        s.reset().bind(r.issuer).bind(r.subject).bind(r.user_id).bind(r.created_ms);
        s.run();
        return sqlite3_changes(db_) == 1;
    }

    std::vector<ExternalIdentityRecord> identities_of(std::int64_t user_id) override {
        auto& s = stmt("SELECT issuer, subject, user_id, created_ms FROM external_identities "
                       "WHERE user_id=? ORDER BY created_ms, issuer, subject");
        s.reset().bind(user_id);
        std::vector<ExternalIdentityRecord> out;
        while (s.step()) {
            out.push_back({s.text(0), s.text(1), s.integer(2), s.integer(3)});
        }
        s.reset();
        return out;
    }

    void put_auth_pending(const std::string& key_hash,
                          const std::string& payload,
                          std::int64_t expires_ms,
                          std::int64_t now_ms) override {
        auto& purge = stmt("DELETE FROM auth_pending WHERE expires_ms<?");
        purge.reset().bind(now_ms);
        purge.run();
        auto& s = stmt("INSERT INTO auth_pending (key_hash, payload, expires_ms) VALUES (?,?,?) "
                       "ON CONFLICT (key_hash) DO UPDATE SET payload=excluded.payload, "
                       "expires_ms=excluded.expires_ms");
        s.reset().bind(key_hash).bind(payload).bind(expires_ms);
        s.run();
    }

    std::optional<std::string> take_auth_pending(const std::string& key_hash,
                                                 std::int64_t now_ms) override {
        auto& s = stmt("DELETE FROM auth_pending WHERE key_hash=? RETURNING payload, expires_ms");
        s.reset().bind(key_hash);
        std::optional<std::string> out;
        if (s.step() && s.integer(1) > now_ms) {
            out = s.text(0);
        }
        while (s.step()) {
        }
        s.reset();
        return out;
    }

    std::vector<RatingRecord> ratings_of(std::int64_t user_id) override {
        auto& s = stmt("SELECT r.variant, r.rating, r.games, "
                       "(SELECT COUNT(*) FROM rating_changes c WHERE c.user_id=r.user_id AND "
                       "c.variant=r.variant AND c.score2=2), "
                       "(SELECT COUNT(*) FROM rating_changes c WHERE c.user_id=r.user_id AND "
                       "c.variant=r.variant AND c.score2=0), "
                       "(SELECT COUNT(*) FROM rating_changes c WHERE c.user_id=r.user_id AND "
                       "c.variant=r.variant AND c.score2=1) "
                       "FROM ratings r WHERE r.user_id=? ORDER BY r.variant");
        s.reset().bind(user_id);
        std::vector<RatingRecord> out;
        while (s.step()) {
            RatingRecord r;
            r.user_id = user_id;
            r.variant = s.text(0);
            r.rating  = static_cast<int>(s.integer(1));
            r.games   = static_cast<int>(s.integer(2));
            r.wins    = static_cast<int>(s.integer(3));
            r.losses  = static_cast<int>(s.integer(4));
            r.draws   = static_cast<int>(s.integer(5));
            out.push_back(r);
        }
        s.reset();
        return out;
    }

    void add_rating_change(const RatingChangeRecord& c) override {
        auto& s = stmt("INSERT INTO rating_changes (user_id, variant, game_id, rating, delta, "
                       "score2, at_ms) VALUES (?,?,?,?,?,?,?)");
        s.reset().bind(c.user_id).bind(c.variant).bind(c.game_id).bind(c.rating).bind(c.change);
        s.bind(c.score2).bind(c.at_ms);
        s.run();
    }

    std::vector<RatingChangeRecord> rating_history(std::int64_t user_id) override {
        auto& s = stmt("SELECT variant, game_id, rating, delta, score2, at_ms FROM rating_changes "
                       "WHERE user_id=? ORDER BY at_ms, game_id");
        s.reset().bind(user_id);
        std::vector<RatingChangeRecord> out;
        while (s.step()) {
            out.push_back(RatingChangeRecord{user_id,
                                             s.text(0),
                                             s.text(1),
                                             static_cast<int>(s.integer(2)),
                                             static_cast<int>(s.integer(3)),
                                             static_cast<int>(s.integer(4)),
                                             s.integer(5)});
        }
        s.reset();
        return out;
    }

    RatingRecord rating(std::int64_t user_id, const std::string& variant) override {
        auto& s = stmt("SELECT rating, games FROM ratings WHERE user_id=? AND variant=?");
        s.reset().bind(user_id).bind(variant);
        RatingRecord r;
        r.user_id = user_id;
        r.variant = variant;
        if (s.step()) {
            r.rating = static_cast<int>(s.integer(0));
            r.games  = static_cast<int>(s.integer(1));
        }
        s.reset();
        return r;
    }

    void set_rating(const RatingRecord& r) override {
        auto& s = stmt("INSERT INTO ratings (user_id, variant, rating, games) VALUES (?,?,?,?) "
                       "ON CONFLICT(user_id, variant) DO UPDATE SET rating=excluded.rating, "
                       "games=excluded.games");
        s.reset().bind(r.user_id).bind(r.variant).bind(r.rating).bind(r.games);
        s.run();
    }

    std::vector<RatingRecord> leaderboard(const std::string& variant, int limit) override {
        auto& s = stmt("SELECT r.user_id, u.username, r.rating, r.games FROM ratings r JOIN users "
                       "u ON u.id=r.user_id WHERE r.variant=? ORDER BY r.rating DESC, u.username "
                       "LIMIT ?");
        s.reset().bind(variant).bind(limit);
        std::vector<RatingRecord> out;
        while (s.step()) {
            RatingRecord r;
            r.user_id  = s.integer(0);
            r.username = s.text(1);
            r.variant  = variant;
            r.rating   = static_cast<int>(s.integer(2));
            r.games    = static_cast<int>(s.integer(3));
            out.push_back(r);
        }
        s.reset();
        return out;
    }

    std::vector<std::pair<std::string, int>> rated_variants() override {
        auto& s = stmt("SELECT variant, COUNT(*) AS n FROM ratings GROUP BY variant ORDER BY n "
                       "DESC, variant");
        s.reset();
        std::vector<std::pair<std::string, int>> out;
        while (s.step()) {
            out.emplace_back(s.text(0), static_cast<int>(s.integer(1)));
        }
        s.reset();
        return out;
    }

    int add_reward(const std::string& player_id,
                   const std::string& day,
                   int points,
                   int daily_cap) override {
        int granted = 0;
        transaction([&] {
            auto& q = stmt("SELECT points FROM rewards WHERE player_id=? AND day=?");
            q.reset().bind(player_id).bind(day);
            int have = 0;
            if (q.step()) {
                have = static_cast<int>(q.integer(0));
            }
            q.reset();
            granted = std::clamp(daily_cap - have, 0, points);
            if (granted > 0) {
                auto& s = stmt("INSERT INTO rewards (player_id, day, points) VALUES (?,?,?) "
                               "ON CONFLICT(player_id, day) DO UPDATE SET points=points+?");
                s.reset().bind(player_id).bind(day).bind(granted).bind(granted);
                s.run();
            }
        });
        return granted;
    }

    int reward_total(const std::string& player_id) override {
        auto& s = stmt("SELECT COALESCE(SUM(points),0) FROM rewards WHERE player_id=?");
        s.reset().bind(player_id);
        int total = 0;
        if (s.step()) {
            total = static_cast<int>(s.integer(0));
        }
        s.reset();
        return total;
    }

    // Leases are per node (migration 0003): the node's row says until when it holds its games.
    bool claim_game(const std::string& id,
                    const std::string& node,
                    std::int64_t now_ms,
                    std::int64_t lease_ms) override {
        bool claimed = false;
        transaction([&] {
            renew_leases(node, now_ms, lease_ms);  // a node that claims is alive
            auto& s = stmt("UPDATE games SET owner=? WHERE id=? AND (owner IS NULL OR owner=? OR "
                           "NOT EXISTS (SELECT 1 FROM nodes n WHERE n.node=games.owner AND "
                           "n.lease_until_ms>=?))");
            s.reset().bind(node).bind(id).bind(node).bind(now_ms);
            s.run();
            claimed = sqlite3_changes(db_) > 0;
        });
        return claimed;
    }

    std::optional<std::string> game_owner(const std::string& id, std::int64_t now_ms) override {
        auto& s = stmt("SELECT g.owner FROM games g JOIN nodes n ON n.node=g.owner WHERE g.id=? "
                       "AND n.lease_until_ms>=?");
        s.reset().bind(id).bind(now_ms);
        std::optional<std::string> out;
        if (s.step()) {
            out = s.text(0);
        }
        s.reset();
        return out;
    }

    void
    renew_leases(const std::string& node, std::int64_t now_ms, std::int64_t lease_ms) override {
        auto& s = stmt("INSERT INTO nodes(node, lease_until_ms) VALUES(?, ?) ON CONFLICT(node) DO "
                       "UPDATE SET lease_until_ms=MAX(lease_until_ms, excluded.lease_until_ms)");
        s.reset().bind(node).bind(now_ms + lease_ms);
        s.run();
    }

    void release_game(const std::string& id, const std::string& node) override {
        auto& s = stmt("UPDATE games SET owner=NULL WHERE id=? AND owner=?");
        s.reset().bind(id).bind(node);
        s.run();
    }

    std::vector<std::string> orphaned_games(std::int64_t now_ms, int limit) override {
        auto& s = stmt("SELECT g.id FROM games g LEFT JOIN nodes n ON n.node=g.owner WHERE "
                       "g.status<>'over' AND g.owner IS NOT NULL AND (n.node IS NULL OR "
                       "n.lease_until_ms<?) ORDER BY "
                       "COALESCE(n.lease_until_ms, 0), g.id LIMIT ?");
        s.reset().bind(now_ms).bind(limit);
        std::vector<std::string> out;
        while (s.step()) {
            out.push_back(s.text(0));
        }
        s.reset();
        return out;
    }

private:
    void exec(const std::string& sql) {
        char* err = nullptr;
        if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &err) != SQLITE_OK) {
            std::string msg = err != nullptr ? err : "unknown error";
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

    void migrate() {
        exec("CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT "
             "NOT NULL, applied_ms INTEGER NOT NULL)");
        std::int64_t current = 0;
        {
            Stmt s(db_, "SELECT COALESCE(MAX(version),0) FROM schema_migrations");
            if (s.step()) {
                current = s.integer(0);
            }
        }
        for (const auto& m : store::migrations()) {
            if (m.number <= current) {
                continue;
            }
            transaction([&] {
                exec(std::string(m.sql));
                Stmt s(db_,
                       "INSERT INTO schema_migrations (version, name, applied_ms) VALUES (?,?,"
                       "CAST(strftime('%s','now') AS INTEGER)*1000)");
                s.bind(m.number).bind(m.name);
                s.run();
            });
        }
    }

    static void bind_game(Stmt& s, const GameRecord& g) {
        s.bind(g.id)
            .bind(g.variant)
            .bind(wire::name(g.mode))
            .bind(wire::name(g.level))
            .bind(g.forced_capture);
        s.bind(static_cast<int>(g.draw_rules)).bind(g.start_fen);
        for (const auto& seat : g.seats) {
            s.bind(seat.player_id).bind(seat.name).bind(seat.computer).bind(seat.user_id);
        }
        s.bind(time_control_text(g.time_control))
            .bind(clocks_text(g.clocks))
            .bind(wire::name(g.status))
            .bind(wire::name(g.outcome))
            .bind(wire::name(g.reason));
        s.bind(g.result_text).bind(g.version).bind(g.rated).bind(g.invite_hash);
        s.bind(g.invite_expires_ms).bind(g.rematch_of).bind(g.created_ms).bind(g.updated_ms);
    }

    static GameRecord read_game(const Stmt& s) {
        GameRecord g;
        int c            = 0;
        g.id             = s.text(c++);
        g.variant        = s.text(c++);
        g.mode           = stored_mode(s.text(c++), g.id);
        g.level          = stored_level(s.text(c++), g.id);
        g.forced_capture = s.integer(c++) != 0;
        g.draw_rules     = stored_draw_rules(s.integer(c++), g.id);
        g.start_fen      = s.text(c++);
        for (auto& seat : g.seats) {
            seat.player_id = s.text(c++);
            seat.name      = s.text(c++);
            seat.computer  = s.integer(c++) != 0;
            if (!s.is_null(c)) {
                seat.user_id = s.integer(c);
            }
            ++c;
        }
        g.time_control      = stored_time_control(s.text(c++));
        g.clocks            = stored_clocks(s.text(c++));
        g.status            = stored_status(s.text(c++), g.id);
        g.outcome           = stored_outcome(s.text(c++), g.id);
        g.reason            = stored_reason(s.text(c++), g.id);
        g.result_text       = s.text(c++);
        g.version           = s.integer(c++);
        g.rated             = s.integer(c++) != 0;
        g.invite_hash       = s.text(c++);
        g.invite_expires_ms = s.integer(c++);
        g.rematch_of        = s.text(c++);
        g.created_ms        = s.integer(c++);
        g.updated_ms        = s.integer(c++);
        return g;
    }

    void load_moves(GameRecord& g) {
        auto& s = stmt("SELECT ply, text, at_ms FROM moves WHERE game_id=? ORDER BY ply");
        s.reset().bind(g.id);
        while (s.step()) {
            g.moves.push_back(MoveRecord{static_cast<int>(s.integer(0)), s.text(1), s.integer(2)});
        }
        s.reset();
    }

    void load_chat(GameRecord& g) {
        auto& s = stmt("SELECT ply, color, at_ms, text FROM chat WHERE game_id=? ORDER BY id "
                       "DESC LIMIT ?");
        s.reset().bind(g.id).bind(kChatLinesLoaded);
        while (s.step()) {
            g.chat.push_back(ChatRecord{static_cast<int>(s.integer(0)),
                                        static_cast<int>(s.integer(1)),
                                        s.integer(2),
                                        s.text(3)});
        }
        s.reset();
        std::reverse(g.chat.begin(), g.chat.end());
    }

    void load_rating_changes(GameRecord& g) {
        auto& s = stmt("SELECT user_id, variant, rating, delta, score2, at_ms FROM rating_changes "
                       "WHERE game_id=? ORDER BY user_id");
        s.reset().bind(g.id);
        while (s.step()) {
            g.rating_changes.push_back(RatingChangeRecord{s.integer(0),
                                                          s.text(1),
                                                          g.id,
                                                          static_cast<int>(s.integer(2)),
                                                          static_cast<int>(s.integer(3)),
                                                          static_cast<int>(s.integer(4)),
                                                          s.integer(5)});
        }
        s.reset();
    }

    std::optional<UserRecord> read_user(Stmt& s) {
        std::optional<UserRecord> out;
        if (s.step()) {
            out = UserRecord{s.integer(0), s.text(1), s.text(2), s.integer(3)};
        }
        s.reset();
        return out;
    }

    sqlite3* db_ = nullptr;
    int depth_   = 0;
    std::map<std::string, std::unique_ptr<Stmt>> stmts_;
};

}  // namespace

std::unique_ptr<Store> open_sqlite_store(const std::filesystem::path& path) {
    return std::make_unique<SqliteStore>(path);
}

int latest_schema_version() {
    int v = 0;
    for (const auto& m : store::migrations()) {
        v = std::max(v, m.number);
    }
    return v;
}

}  // namespace papan::server
