// PuzzleStore: the puzzles' tables (migration 0020) behind one interface, on SQLite and on
// PostgreSQL. It opens a connection of its own to the same database as the Store (which applies
// the migrations first) and is used from one thread only (the puzzle service's), so puzzle
// traffic never queues behind the games' writes on the store thread.
#pragma once

#include <papan/server/glicko.hpp>

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace papan::server {

struct PuzzleRow {
    std::string id;
    std::string variant;
    std::string body;    // the puzzle's JSON line (puzzle.hpp)
    std::string origin;  // "set": the shipped set; "site": mined from this site's games
    Glicko rating;
    int plays             = 0;
    int solved            = 0;
    std::int64_t added_ms = 0;
};

// A solver's rating in one variant. player_id: "u<id>" an account, "g<hash>" a guest.
struct PuzzleRatingRow {
    std::string player_id;
    std::string variant;
    Glicko rating;
    int attempts            = 0;
    int solved              = 0;
    int best_streak         = 0;
    std::int64_t updated_ms = 0;
};

struct PuzzleAttemptRow {
    std::int64_t id = 0;
    std::string player_id;
    std::string puzzle_id;
    std::string variant;
    bool solved        = false;
    bool rated         = false;
    int rating         = 0;  // the solver's rating after it
    int delta          = 0;
    std::int64_t at_ms = 0;
};

// A finished game for the background miner.
struct FinishedGameRow {
    std::string id;
    std::string variant;
    std::string start_fen;
    bool forced_capture = true;
    int draw_rules      = 0;
    std::vector<std::string> moves;  // full landing paths
    std::int64_t updated_ms = 0;
};

// Where the background miner is in the finished games, and its figures.
struct MiningCursor {
    std::int64_t at_ms = 0;
    std::string id;
    std::int64_t games     = 0;
    std::int64_t positions = 0;
    std::int64_t kept      = 0;
};

class PuzzleStore {
public:
    virtual ~PuzzleStore() = default;

    // Runs fn inside one transaction (all or nothing); nested calls join the outer one.
    virtual void transaction(const std::function<void()>& fn) = 0;

    // Adds the puzzles whose id is not stored yet; returns how many were added.
    virtual int add_puzzles(const std::vector<PuzzleRow>& rows)                  = 0;
    [[nodiscard]] virtual std::optional<PuzzleRow> puzzle(const std::string& id) = 0;
    // Puzzles of a variant by origin ("set", "site"): how many.
    [[nodiscard]] virtual int count_puzzles(const std::string& variant,
                                            const std::string& origin) = 0;
    // At most `limit` puzzles of the variant rated within [low, high] that the player has not
    // attempted, in id order from `from_id` on.
    [[nodiscard]] virtual std::vector<PuzzleRow> puzzles_between(const std::string& variant,
                                                                 double low,
                                                                 double high,
                                                                 const std::string& player_id,
                                                                 const std::string& from_id,
                                                                 int limit) = 0;
    // The ids of a variant's puzzles of one origin, in id order.
    [[nodiscard]] virtual std::vector<std::string> puzzle_ids(const std::string& variant,
                                                              const std::string& origin) = 0;
    virtual void
    update_puzzle(const std::string& id, const Glicko& rating, int plays, int solved) = 0;

    [[nodiscard]] virtual std::optional<PuzzleRatingRow> rating(const std::string& player_id,
                                                                const std::string& variant)     = 0;
    virtual void set_rating(const PuzzleRatingRow& r)                                           = 0;
    [[nodiscard]] virtual std::vector<PuzzleRatingRow> ratings_of(const std::string& player_id) = 0;

    [[nodiscard]] virtual bool has_rated_attempt(const std::string& player_id,
                                                 const std::string& puzzle_id) = 0;
    virtual void add_attempt(const PuzzleAttemptRow& a)                        = 0;
    // Newest first.
    [[nodiscard]] virtual std::vector<PuzzleAttemptRow> attempts_of(const std::string& player_id,
                                                                    int limit) = 0;
    // A guest's ratings and attempts become an account's: each variant the account has no
    // rating in, with that variant's attempts (but those of puzzles the account attempted).
    // Returns the variants moved.
    virtual std::vector<std::string> move_player(const std::string& from,
                                                 const std::string& to) = 0;

    // The day's puzzle of a variant: the stored one, else `candidate` stored and returned (the
    // first node to store it wins).
    [[nodiscard]] virtual std::string
    daily(const std::string& variant, const std::string& day, const std::string& candidate) = 0;

    // Finished games changed after (at_ms, id), oldest first, with their moves.
    [[nodiscard]] virtual std::vector<FinishedGameRow>
    finished_games_after(std::int64_t at_ms, const std::string& id, int limit) = 0;
    [[nodiscard]] virtual MiningCursor mining_cursor(const std::string& name)  = 0;
    // Moves the cursor from where `from` says it is to (at_ms, id); false when it is no longer
    // there (another node claimed those games first). The nodes of a cluster share the work so.
    [[nodiscard]] virtual bool claim_mining(const std::string& name,
                                            const MiningCursor& from,
                                            std::int64_t at_ms,
                                            const std::string& id) = 0;
    virtual void add_mining_figures(const std::string& name,
                                    std::int64_t games,
                                    std::int64_t positions,
                                    std::int64_t kept)             = 0;
};

// SQLite at `path`: a second connection to the Store's file (WAL, busy timeout).
[[nodiscard]] std::unique_ptr<PuzzleStore>
open_sqlite_puzzle_store(const std::filesystem::path& path);
// PostgreSQL at a libpq URL.
[[nodiscard]] std::unique_ptr<PuzzleStore> open_postgres_puzzle_store(const std::string& url);
// The store `papan serve --store SPEC` names (open_store's rules).
[[nodiscard]] std::unique_ptr<PuzzleStore> open_puzzle_store(const std::string& spec,
                                                             const std::filesystem::path& data_dir);

}  // namespace papan::server
