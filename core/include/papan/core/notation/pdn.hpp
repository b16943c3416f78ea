// PDN 3.0 (Portable Draughts Notation) files: read liberally, write strictly (formats.md §1).
//
// Reading accepts tags with escaped quotes, `%` line comments, `{...}` comments (kept, attached
// to the move they follow), variations `( ... )` (skipped, nesting included), NAGs `$n`, move
// numbers `12.` / `12...` (attached or not), move strengths `!`, `?`, `!?`, `(!)`, setups
// `/FEN "..."/` (applied; `/FEN "B::"/` is a null move), both result styles, several games per
// file, a UTF-8 BOM and CRLF line ends, and move separators `-`, `x`, `:`, `*` (also with a
// stray space after the separator, "1- 7", as some old files have). The GameType tag chooses the
// variant (full string or number); a FEN tag gives the start. Every move is replayed through
// the rules, so an imported game is always legal.
//
// Writing gives the seven mandatory tags first, then GameType, FEN (only for a non-standard
// start) and the other tags; move text in the variant's notation with move numbers counted from
// the game's first move whoever makes it; the result in the variant's style; lines <= 80 columns.
//
// No I/O here: functions take and return strings.
#pragma once

#include <papan/core/expected.hpp>
#include <papan/core/move.hpp>
#include <papan/core/movegen.hpp>
#include <papan/core/position.hpp>
#include <papan/core/types.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace papan::core {

// A mid-game setup `/FEN "..."/`: before move `ply` (0-based) the position becomes `position`.
struct PdnSetup {
    std::size_t ply = 0;
    Position position;

    friend bool operator==(const PdnSetup&, const PdnSetup&) = default;
};

struct PdnGame {
    std::vector<std::pair<std::string, std::string>> tags;  // in file order
    VariantId variant = VariantId::International;
    Position start;
    std::vector<Move> moves;
    // comments[0] comes before the first move; comments[i] follows move i-1. Always
    // moves.size() + 1 entries once a game is read; empty strings mean no comment.
    std::vector<std::string> comments;
    std::vector<PdnSetup> setups;  // ascending ply
    std::string result = "*";      // the game-terminating result as read ("*" when none)
    int line           = 0;        // line of the game's first token in the file (1-based)

    // The value of a tag (case-sensitive name), or nullptr.
    [[nodiscard]] const std::string* tag(std::string_view name) const;
    // Replaces the first tag of that name or appends it.
    void set_tag(std::string_view name, std::string value);

    // The position before move `ply` (0 <= ply <= moves.size()), setups applied.
    [[nodiscard]] Position position_before(std::size_t ply) const;

    [[nodiscard]] Position final_position() const { return position_before(moves.size()); }
};

// One game of a file read in "keep going" mode: the game as far as it could be read, and the
// error that stopped it (empty when the whole game imported).
struct PdnEntry {
    int number = 0;  // 1-based position of the game in the file
    PdnGame game;
    std::string error;

    [[nodiscard]] bool ok() const noexcept { return error.empty(); }
};

struct PdnReadOptions {
    VariantId default_variant = VariantId::International;  // used when a game has no GameType
    MoveGenOptions movegen{};  // e.g. the "no forced capture" house rule
};

// Reads every game; the first error (parse or illegal move) stops the read and is returned.
// Errors name the game (1-based), the line, the move number and side, and the variant, e.g.
// "game 2, move 14 (black): illegal move '23x14' (International draughts, line 31)".
[[nodiscard]] Expected<std::vector<PdnGame>> read_pdn(std::string_view text,
                                                      VariantId default_variant);
[[nodiscard]] Expected<std::vector<PdnGame>> read_pdn(std::string_view text,
                                                      const PdnReadOptions& options);

// Reads every game and keeps going after a bad one (for `papan pdn check`). A bad game's moves
// stop at the error; reading resumes at the next game. An error that makes the rest of the file
// unreadable (an unterminated comment) ends the list.
[[nodiscard]] std::vector<PdnEntry> read_pdn_entries(std::string_view text,
                                                     const PdnReadOptions& options);

// Writes one game strictly (tags, move text, result, wrapped at 80 columns), ending in "\n".
[[nodiscard]] std::string write_pdn_game(const PdnGame& game);
// Writes several games separated by blank lines.
[[nodiscard]] std::string write_pdn(const std::vector<PdnGame>& games);

// A new game record for a variant: standard start, no moves, result "*".
[[nodiscard]] PdnGame make_pdn_game(VariantId v);

// Results.
enum class PdnResult : std::uint8_t {
    FirstWins,   // "1-0" / "2-0": the first-named score is the winner's
    SecondWins,  // "0-1" / "0-2"
    Draw,        // "1/2-1/2" / "1-1"
    BothLose,    // "0-0" (e.g. both forfeited)
    Unknown,     // "*"
};

// Parses either style ("1-0", "2-0", "1/2-1/2", "1-1", "0-0", "*", ...); nullopt if not a result.
[[nodiscard]] std::optional<PdnResult> parse_pdn_result(std::string_view text) noexcept;
// Writes a result in the variant's style: International style (2-0, 0-2, 1-1) for 10x10 and
// 12x12 variants, the default style (1-0, 0-1, 1/2-1/2) for the others.
[[nodiscard]] std::string_view pdn_result_text(PdnResult r, VariantId v) noexcept;
// Converts a result text of either style to the variant's style; an unrecognised text gives "*".
[[nodiscard]] std::string convert_pdn_result(std::string_view text, VariantId v);
// True when the variant writes International-style results.
[[nodiscard]] bool uses_international_results(VariantId v) noexcept;

// Normalises a date tag to "YYYY.MM.DD" ("????.??.??" when unknown; unknown parts as "??").
[[nodiscard]] std::string normalize_pdn_date(std::string_view date);

}  // namespace papan::core
