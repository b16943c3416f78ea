// A puzzle as a plain value: a position where the side to move has exactly one winning
// continuation, the solution line, the themes the miner can tell, and the figures of the proof
// (docs/engine.md, "Puzzles"). One puzzle is one line of JSON in a set file
// (puzzles/<variant>.jsonl) and one row of the store.
#pragma once

#include <papan/core/expected.hpp>
#include <papan/core/move.hpp>
#include <papan/core/position.hpp>
#include <papan/core/types.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace papan::server {

// What a puzzle is about, told from its line and its proof (puzzle_themes()). Stable names on
// the wire.
enum class Theme : std::uint8_t {
    Shot,          // a sacrifice answered by a capture, then a capture of two or more
    Breakthrough,  // a man of the solver crowned on the way
    Tempo,         // a quiet key, and the opponent loses because it must move: with its turn
                   // skipped the solver would force less (zugzwang, the tempo count)
    Endgame,       // eight pieces or fewer on the board
    Capture,       // the key move is the right one of several captures
    Win,           // the line ends the game: the opponent has no move left
    Quiet,         // a quiet key the opponent is free to answer, yet every answer loses
};

[[nodiscard]] std::string_view theme_name(Theme t) noexcept;
[[nodiscard]] std::optional<Theme> theme_from_name(std::string_view s) noexcept;

// How the key move was proven (docs/engine.md, "Puzzles").
struct PuzzleProof {
    // The engine's judgement: searches to `depth` plies (level max, one thread, no tables) of
    // the position (best move = the key, `score`) and of the position without the key
    // (`second`); score - second is the margin. `nodes`: both searches.
    int depth           = 0;
    int score           = 0;
    int second          = 0;
    std::uint64_t nodes = 0;
    // The material proof (exhaustive minimax, man 100, king 300, captures resolved past the
    // horizon): `baseline` is the material with the pending captures resolved, `proven` what the
    // key forces within `horizon` plies, `alternative` the most any other first move forces.
    int horizon     = 0;
    int baseline    = 0;
    int proven      = 0;
    int alternative = 0;

    friend bool operator==(const PuzzleProof&, const PuzzleProof&) = default;
};

// A wrong move at a step of the solution and what it lets the opponent do, for the explanation
// ("this lets Black capture three").
struct WrongMove {
    int step = 0;       // index in the solution of the solver's move it replaces
    std::string move;   // the wrong move (the variant's move text)
    std::string reply;  // the opponent's answer (the engine's best), empty when none
    int captured = 0;   // pieces the reply captures
    bool crowns  = false;
    int value    = 0;  // material the wrong move keeps within the horizon, minus the baseline

    friend bool operator==(const WrongMove&, const WrongMove&) = default;
};

struct Puzzle {
    std::string id;  // stable: a hash of the variant and the position
    core::VariantId variant = core::VariantId::International;
    std::string fen;                    // the position, docs/notation.md
    std::vector<std::string> solution;  // the solver's moves and the replies, in order
    std::vector<Theme> themes;
    std::string source;  // "selfplay:<seed>:<game>:<ply>", "game:<id>:<ply>", "pdn:<file>:..."
    PuzzleProof proof;
    std::vector<WrongMove> wrong;
    int rating = 1500;  // the first estimate of its rating (puzzle_start_rating)

    friend bool operator==(const Puzzle&, const Puzzle&) = default;
};

// The puzzle id of a position: "p" and 12 hex digits of a hash of the variant and the FEN.
[[nodiscard]] std::string puzzle_id(core::VariantId v, std::string_view fen);

// The themes of a line (the moves from the position, solver first) proven to force `proven`
// within `horizon` plies (PuzzleProof), in enum order.
[[nodiscard]] std::vector<Theme> puzzle_themes(const core::Position& start,
                                               const std::vector<core::Move>& line,
                                               int horizon,
                                               int proven);

// The first rating estimate of a puzzle, from its line and proof: longer lines and quiet keys
// are harder (Glicko-2 then moves it with the attempts).
[[nodiscard]] int puzzle_start_rating(const Puzzle& p);

// Replays the solution from the FEN: the moves, or why they are not a legal line.
[[nodiscard]] core::Expected<std::vector<core::Move>> puzzle_line(const Puzzle& p);

// One line of JSON (no newline) and back. Reading checks the shape and the variant, not the
// proof (that is the set test's work).
[[nodiscard]] std::string puzzle_to_json(const Puzzle& p);
[[nodiscard]] core::Expected<Puzzle> puzzle_from_json(std::string_view line);

// A set file: one puzzle per line; blank lines and lines starting with '#' are skipped. The
// first bad line stops the read with its line number.
[[nodiscard]] core::Expected<std::vector<Puzzle>> read_puzzle_set(std::string_view text);
[[nodiscard]] std::string write_puzzle_set(const std::vector<Puzzle>& puzzles);

}  // namespace papan::server
