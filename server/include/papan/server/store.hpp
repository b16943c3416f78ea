// Store: everything the server keeps (games with their moves and clocks, accounts, sessions,
// ratings, reward points) behind one interface. The SQLite implementation is the default; the
// interface uses plain records and no SQL; PostgreSQL implements it too (pg_store.cpp).
//
// Threading: a Store is used from one thread only (the store executor's thread, see
// game/store_executor.hpp); implementations need no locking.
// Secrets are never stored: invite links and session tokens are kept as hashes.
#pragma once

#include <papan/core/game.hpp>
#include <papan/server/game_kinds.hpp>
#include <papan/server/time_control.hpp>

#include <array>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace papan::server {

struct SeatRecord {
    std::string player_id;  // "u<id>" for accounts, "g<hash>" for guests, "ai" for the computer
    std::string name;
    bool computer = false;
    std::optional<std::int64_t> user_id;

    friend bool operator==(const SeatRecord&, const SeatRecord&) = default;
};

struct MoveRecord {
    int ply = 0;       // 0-based
    std::string text;  // the full landing path (core::move_text_full): replayable
    std::int64_t at_ms = 0;

    friend bool operator==(const MoveRecord&, const MoveRecord&) = default;
};

// One line of a game's chat (friend and random games between people).
struct ChatRecord {
    int ply            = 0;  // plies played when it was written
    int color          = 0;  // core::Color index: 0 White, 1 Black
    std::int64_t at_ms = 0;
    std::string text;  // cleaned (game/room_chat.cpp)

    friend bool operator==(const ChatRecord&, const ChatRecord&) = default;
};

inline constexpr int kChatLinesLoaded = 100;  // the lines a game's state carries

// One rated game of a player: the rating after it and its change.
struct RatingChangeRecord {
    std::int64_t user_id = 0;
    std::string variant;
    std::string game_id;
    int rating         = 0;  // after the game
    int change         = 0;
    int score2         = 0;  // twice the player's score: 2 a win, 1 a draw, 0 a loss
    std::int64_t at_ms = 0;

    friend bool operator==(const RatingChangeRecord&, const RatingChangeRecord&) = default;
};

// A game's row: everything but the moves changes through update_game / append_move. The
// stores write its kinds by their names (papan/server/wire/names.hpp), the time control and
// the clocks as small JSON objects (server/src/store/stored_kinds.hpp).
struct GameRecord {
    std::string id;
    std::string variant;  // variant key
    GameMode mode                = GameMode::Computer;
    Level level                  = Level::None;  // the computer's (computer and AI-paired games)
    bool forced_capture          = true;
    core::DrawRuleSet draw_rules = core::DrawRuleSet::Standard;
    std::string start_fen;
    std::array<SeatRecord, 2> seats;  // by core::Color
    TimeControl time_control;         // TimeKind::None: untimed
    // Both clocks and when the current turn began; nullopt: not started (full time, the turn
    // starts when the game is loaded).
    std::optional<ClockState> clocks;
    GameStatus status     = GameStatus::Playing;
    core::Outcome outcome = core::Outcome::Ongoing;  // Ongoing: nobody won (or not over)
    EndReason reason      = EndReason::None;
    std::string result_text;
    std::int64_t version = 0;
    bool rated           = false;
    std::string invite_hash;
    std::int64_t invite_expires_ms = 0;
    std::string rematch_of;
    std::int64_t created_ms = 0;
    std::int64_t updated_ms = 0;
    std::vector<MoveRecord> moves;  // filled by the loaders only
    std::vector<ChatRecord> chat;   // load_game: the last kChatLinesLoaded lines, oldest first
    // load_game: a finished rated game's rating changes, one per player (written with its
    // ending, add_rating_change), so that a reloaded game shows them again; empty otherwise.
    std::vector<RatingChangeRecord> rating_changes;
};

struct UserRecord {
    std::int64_t id = 0;
    std::string username;
    std::string password_hash;
    std::int64_t created_ms = 0;
};

// An account of another service that signs a user in: an OpenID Connect issuer's subject, or a
// Telegram user id (issuer "telegram"). One (issuer, subject) belongs to at most one user.
struct ExternalIdentityRecord {
    std::string issuer;
    std::string subject;
    std::int64_t user_id    = 0;
    std::int64_t created_ms = 0;

    friend bool operator==(const ExternalIdentityRecord&, const ExternalIdentityRecord&) = default;
};

struct RatingRecord {
    std::int64_t user_id = 0;
    std::string username;
    std::string variant;
    int rating = 1200;
    int games  = 0;
    int wins   = 0;  // counted from the rating history (ratings_of)
    int losses = 0;
    int draws  = 0;
};

class Store {
public:
    virtual ~Store() = default;

    // Runs fn inside one transaction (all or nothing); nested calls join the outer one.
    virtual void transaction(const std::function<void()>& fn) = 0;

    // Games. append_move / truncate_moves also update the header in the same transaction.
    virtual void insert_game(const GameRecord& g)                              = 0;
    virtual void update_game(const GameRecord& g)                              = 0;
    virtual void append_move(const GameRecord& header, const MoveRecord& move) = 0;
    virtual void truncate_moves(const GameRecord& header, int from_ply)        = 0;
    // A chat line of the game, with the header (its version), in one transaction.
    virtual void append_chat(const GameRecord& header, const ChatRecord& line) = 0;
    // A game with its moves (g.moves) in one transaction: a finished game read from a file
    // (POST /api/import), written whole instead of move by move.
    virtual void insert_game_with_moves(const GameRecord& g)                         = 0;
    [[nodiscard]] virtual std::optional<GameRecord> load_game(const std::string& id) = 0;
    // Unfinished games last changed before `updated_before_ms` (INT64_MAX: all), in id order after
    // `after_id` ("": from the first), at most `limit`, without their moves (start-up and the
    // abandon sweep choose; load_game reads a game whole). A page at a time so that a store of
    // millions of games is never held in memory at once (for_each_unfinished walks the pages).
    [[nodiscard]] virtual std::vector<GameRecord>
    unfinished_games(std::int64_t updated_before_ms, const std::string& after_id, int limit) = 0;
    // How many unfinished games a player id sits in (the per-player cap on open games).
    [[nodiscard]] virtual int count_unfinished(const std::string& player_id) = 0;
    // Games of a player id, newest first (without moves): those it sits in and those it imported.
    [[nodiscard]] virtual std::vector<GameRecord> games_of(const std::string& player_id,
                                                           int limit) = 0;
    // The player id that imported a game (POST /api/import): the game is listed among its games
    // (games_of), though it sits in neither seat.
    virtual void record_import(const std::string& player_id, const std::string& game_id) = 0;

    // Accounts. create_user returns nullopt when the name is taken (case-insensitive).
    [[nodiscard]] virtual std::optional<std::int64_t> create_user(const UserRecord& u)        = 0;
    [[nodiscard]] virtual std::optional<UserRecord> user_by_name(const std::string& username) = 0;
    [[nodiscard]] virtual std::optional<UserRecord> user_by_id(std::int64_t id)               = 0;
    virtual void set_password(std::int64_t user_id, const std::string& password_hash)         = 0;
    virtual void
    create_session(const std::string& token_hash, std::int64_t user_id, std::int64_t now_ms) = 0;
    // The user of a session used within `max_idle_ms` before now_ms (sliding expiry: the use
    // moves its last use to now_ms); nullopt for an unknown or expired one.
    [[nodiscard]] virtual std::optional<std::int64_t>
    session_user(const std::string& token_hash, std::int64_t now_ms, std::int64_t max_idle_ms) = 0;
    virtual void delete_session(const std::string& token_hash)                                 = 0;
    // Every session of the user but `keep_hash` (a password change signs the others out).
    virtual void delete_other_sessions(std::int64_t user_id, const std::string& keep_hash) = 0;

    // Outside identities (docs/security.md, "Sign-in"). The user an (issuer, subject) belongs to;
    // link_identity is false (and changes nothing) when it belongs to a user already.
    [[nodiscard]] virtual std::optional<std::int64_t> identity_user(const std::string& issuer,
                                                                    const std::string& subject) = 0;
    [[nodiscard]] virtual bool link_identity(const ExternalIdentityRecord& r)                   = 0;
    [[nodiscard]] virtual std::vector<ExternalIdentityRecord>
    identities_of(std::int64_t user_id) = 0;
    // A sign-in under way (an OpenID Connect request, a ticket), by the hash of its secret,
    // until expires_ms. take_auth_pending returns it once and removes it; nullopt when unknown
    // or expired. put_auth_pending also drops the records that expired before now_ms.
    virtual void put_auth_pending(const std::string& key_hash,
                                  const std::string& payload,
                                  std::int64_t expires_ms,
                                  std::int64_t now_ms)                                      = 0;
    [[nodiscard]] virtual std::optional<std::string> take_auth_pending(const std::string& key_hash,
                                                                       std::int64_t now_ms) = 0;

    // Ratings (1200 and 0 games when the player has none yet).
    [[nodiscard]] virtual RatingRecord rating(std::int64_t user_id, const std::string& variant) = 0;
    virtual void set_rating(const RatingRecord& r)                                              = 0;
    [[nodiscard]] virtual std::vector<RatingRecord> leaderboard(const std::string& variant,
                                                                int limit)                      = 0;
    // The variants with rated players and how many, most players first (then by key).
    [[nodiscard]] virtual std::vector<std::pair<std::string, int>> rated_variants() = 0;
    // Every variant the user has a rating in, with wins, losses and draws of its rated games.
    [[nodiscard]] virtual std::vector<RatingRecord> ratings_of(std::int64_t user_id) = 0;
    virtual void add_rating_change(const RatingChangeRecord& c)                      = 0;
    // Every rated game of the user, oldest first.
    [[nodiscard]] virtual std::vector<RatingChangeRecord> rating_history(std::int64_t user_id) = 0;

    // Reward points: adds up to `points` for the day without passing `daily_cap`; returns the
    // points actually granted.
    virtual int
    add_reward(const std::string& player_id, const std::string& day, int points, int daily_cap) = 0;
    [[nodiscard]] virtual int reward_total(const std::string& player_id)                        = 0;

    // Game ownership between nodes (several servers on one store, docs/operations.md): the node
    // that runs a game's room holds a lease on it. One node alone never needs them.
    // Takes the game for `node` when it has no owner, `node` owns it already, or the owner's
    // lease ran out before now_ms; true when `node` holds it afterwards (until now_ms + lease_ms).
    [[nodiscard]] virtual bool claim_game(const std::string& id,
                                          const std::string& node,
                                          std::int64_t now_ms,
                                          std::int64_t lease_ms) = 0;
    // The node holding a running lease on the game at now_ms, if any.
    [[nodiscard]] virtual std::optional<std::string> game_owner(const std::string& id,
                                                                std::int64_t now_ms) = 0;
    // Extends every lease `node` holds to now_ms + lease_ms (the node's heartbeat).
    virtual void
    renew_leases(const std::string& node, std::int64_t now_ms, std::int64_t lease_ms) = 0;
    // Gives the game up (its room left the node's memory). No-op when `node` does not own it.
    virtual void release_game(const std::string& id, const std::string& node) = 0;
    // Unfinished games whose owner's lease ran out before now_ms: a node that died left them,
    // another takes them over. At most `limit`, oldest lease first. A game without an owner (its
    // room left memory: released) is not orphaned: it is loaded where it is asked for.
    [[nodiscard]] virtual std::vector<std::string> orphaned_games(std::int64_t now_ms,
                                                                  int limit) = 0;
};

// Calls fn for every unfinished game last changed before `updated_before_ms`, reading `page`
// headers at a time (Store::unfinished_games); fn may update the game it is given.
void for_each_unfinished(Store& store,
                         std::int64_t updated_before_ms,
                         const std::function<void(GameRecord&)>& fn,
                         int page = 500);

// SQLite store at `path` (":memory:" for tests): WAL, synchronous=NORMAL, foreign keys, numbered
// migrations applied at open. Throws std::runtime_error when the database cannot be opened.
[[nodiscard]] std::unique_ptr<Store> open_sqlite_store(const std::filesystem::path& path);

// PostgreSQL store at a libpq URL ("postgresql://user:pw@host:port/db"): the same migrations,
// applied at open. Throws std::runtime_error when the server cannot be reached.
[[nodiscard]] std::unique_ptr<Store> open_postgres_store(const std::string& url);

// The store an operator names with `papan serve --store`: empty = SQLite at data_dir/papan.db;
// "postgresql://..." or "postgres://..." = PostgreSQL; "sqlite:PATH" = SQLite at PATH.
[[nodiscard]] std::unique_ptr<Store> open_store(const std::string& spec,
                                                const std::filesystem::path& data_dir);

// The schema version the migrations reach.
[[nodiscard]] int latest_schema_version();

}  // namespace papan::server
