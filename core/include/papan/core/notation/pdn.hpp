// PDN 3.0 (Portable Draughts Notation) files: read liberally, write strictly (docs/pdn.md).
//
// Reading accepts tags with escaped quotes, `%` line comments, `{...}` comments (kept, attached
// to the move they follow), variations `( ... )` (kept as text, nesting included), NAGs `$n` and
// move strengths `!`, `?`, `!?`, `(!)` (kept as marks of their move), move numbers `12.` /
// `12...` (attached or not), setups `/FEN "..."/` (applied; `/FEN "B::"/` is a null move), both
// result styles and `-` as a result, several games per file, a UTF-8 BOM and CRLF line ends,
// move separators `-`, `x`, `:`, `*` (also with a stray space after the separator, "1- 7"), moves
// without a separator ("a3b4", "3228") when one reading is legal, and tag names of any
// characters. The GameType tag chooses the variant (full string or number); without one the
// variant is detected (PdnReadOptions::detect_variant) or the default is used. A FEN tag gives
// the start. Every move is replayed through the rules, so an imported game is always legal; a
// capture the text names ambiguously is settled by looking ahead (the one choice under which
// the rest of the game stays legal).
//
// Recovery: a bad game does not stop the others. Junk behind a tag's `]` or between tags is
// skipped (with a note); after a syntax error in the move text, reading resumes at the next tag
// or at a blank line followed by a new game; an unterminated comment, variation or setup ends
// at the next tag line.
//
// Writing: PdnWriteStyle::Canonical gives the seven mandatory tags first, then GameType (full
// form), FEN (only for a non-standard start) and the other non-empty tags; PdnWriteStyle::AsRead
// keeps the tags as read (order, empty values, the GameType form). Both write the move text in
// the variant's notation with move numbers counted from the game's first move whoever makes it,
// comments, variations and marks, the result (in the variant's style when canonical), and lines
// of at most 80 columns. The Result tag and the terminator never disagree.
//
// No I/O here: functions take and return strings.
#pragma once

#include <papan/core/expected.hpp>
#include <papan/core/move.hpp>
#include <papan/core/movegen.hpp>
#include <papan/core/notation/encoding.hpp>
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

// A variation `( ... )` as written, white space collapsed; it stands after `ply` moves of the
// game (an alternative to move ply-1). Its moves are not checked.
struct PdnVariation {
    std::size_t ply = 0;
    std::string text;

    friend bool operator==(const PdnVariation&, const PdnVariation&) = default;
};

struct PdnGame {
    std::vector<std::pair<std::string, std::string>> tags;  // in file order
    VariantId variant = VariantId::International;
    Position start;
    std::vector<Move> moves;
    // comments[0] comes before the first move; comments[i] follows move i-1. Always
    // moves.size() + 1 entries once a game is read; empty strings mean no comment.
    std::vector<std::string> comments;
    std::vector<PdnSetup> setups;          // ascending ply
    std::vector<PdnVariation> variations;  // ascending ply, in file order
    // marks[i]: the strength and NAGs written after move i ("!", "?!", "$1", "! $3"); empty or
    // missing entries mean none.
    std::vector<std::string> marks;
    std::string result = "*";  // the game-terminating result as read ("*" when none)
    int line           = 0;    // line of the game's first token in the file (1-based)

    // The value of a tag (case-sensitive name), or nullptr.
    [[nodiscard]] const std::string* tag(std::string_view name) const;
    // Replaces the first tag of that name or appends it.
    void set_tag(std::string_view name, std::string value);

    // The position before move `ply` (0 <= ply <= moves.size()), setups applied.
    [[nodiscard]] Position position_before(std::size_t ply) const;

    [[nodiscard]] Position final_position() const { return position_before(moves.size()); }
};

// What settled a game's variant.
enum class PdnVariantBasis : std::uint8_t {
    GameType,  // the game's GameType tag
    Default,   // PdnReadOptions::default_variant (no GameType, no detection)
    Setup,     // the FEN setup: one variant reads it on the smallest board that holds its squares
    Moves,     // the only variant under which every move is legal
    File,      // several fit the moves; the one most games of the same file were found to be
    Notation,  // several fit the moves; the only one whose square notation the move text uses
    None,      // undecided (the entry's error says why)
};

// Why a game could not be read.
enum class PdnErrorKind : std::uint8_t {
    None,
    Syntax,             // unterminated tag / comment / variation / setup, a stray bracket
    GameType,           // an unknown GameType
    Setup,              // a FEN tag or setup that does not read
    SetupPromotionRow,  // a man on its own promotion row (PdnReadOptions::lenient_setup reads it)
    Move,               // a malformed or illegal move
    AmbiguousMove,      // a text naming several legal moves, each keeping the game legal
    NoVariant,          // no GameType, and no variant accepts every move
    VariantTie,         // no GameType, and several variants fit equally
};

// One game of a file read in "keep going" mode: the game as far as it could be read, and the
// error that stopped it (empty when the whole game imported).
struct PdnEntry {
    int number = 0;  // 1-based position of the game in the file
    PdnGame game;
    std::string error;  // "game 2, move 14 (black): illegal move '23x14' (..., line 31)"
    PdnErrorKind error_kind       = PdnErrorKind::None;
    int error_line                = 0;  // line of the error in the file
    int error_move                = 0;  // move number of a move error (0 when not at a move)
    PdnVariantBasis variant_basis = PdnVariantBasis::None;
    std::vector<VariantId> tied_variants;  // VariantTie: the variants that fit equally
    // What was read leniently: junk skipped, an ambiguous capture settled, the Result tag made
    // to agree with the terminator, a man on its promotion row crowned.
    std::vector<std::string> notes;

    [[nodiscard]] bool ok() const noexcept { return error.empty(); }
};

struct PdnReadOptions {
    VariantId default_variant = VariantId::International;  // used when a game has no GameType
    MoveGenOptions movegen{};  // e.g. the "no forced capture" house rule
    // Games without a GameType get their variant detected (the FEN setup, then the moves, then
    // the other games of the file, then the notation) instead of default_variant; a game with an
    // unknown GameType too (with a note).
    bool detect_variant = false;
    // Men on their own promotion row in a FEN (problem collections) are read as kings, with a
    // note, instead of being an error.
    bool lenient_setup = false;
};

// Reads every game; the first error (parse or illegal move) stops the read and is returned.
// Errors name the game (1-based), the line, the move number and side, and the variant, e.g.
// "game 2, move 14 (black): illegal move '23x14' (International draughts, line 31)".
[[nodiscard]] Expected<std::vector<PdnGame>> read_pdn(std::string_view text,
                                                      VariantId default_variant);
[[nodiscard]] Expected<std::vector<PdnGame>> read_pdn(std::string_view text,
                                                      const PdnReadOptions& options);

// Reads every game and keeps going after a bad one (for `papan pdn check`). A bad game's moves
// stop at the error; reading resumes at the next game.
[[nodiscard]] std::vector<PdnEntry> read_pdn_entries(std::string_view text,
                                                     const PdnReadOptions& options);

// A file's bytes in any encoding of encoding.hpp: decoded to UTF-8, then read_pdn_entries.
struct PdnDocument {
    TextEncoding encoding = TextEncoding::Utf8;
    std::vector<PdnEntry> entries;
};

[[nodiscard]] PdnDocument read_pdn_document(std::string_view bytes, const PdnReadOptions& options);
// The same with a given encoding (decode_text_as).
[[nodiscard]] PdnDocument
read_pdn_document(std::string_view bytes, TextEncoding encoding, const PdnReadOptions& options);

enum class PdnWriteStyle : std::uint8_t {
    Canonical,  // seven tags, full GameType, normalised date and result style (the default)
    AsRead,     // tags as read (order, empty values, GameType form), the result as read
};

struct PdnWriteOptions {
    PdnWriteStyle style = PdnWriteStyle::Canonical;
};

// Writes one game (tags, move text, result, wrapped at 80 columns), ending in "\n".
[[nodiscard]] std::string write_pdn_game(const PdnGame& game);
[[nodiscard]] std::string write_pdn_game(const PdnGame& game, const PdnWriteOptions& options);
// Writes several games separated by blank lines.
[[nodiscard]] std::string write_pdn(const std::vector<PdnGame>& games);
[[nodiscard]] std::string write_pdn(const std::vector<PdnGame>& games,
                                    const PdnWriteOptions& options);

// A new game record for a variant: standard start, no moves, result "*".
[[nodiscard]] PdnGame make_pdn_game(VariantId v);

// Results.
enum class PdnResult : std::uint8_t {
    FirstWins,   // "1-0" / "2-0": the first-named score is the winner's
    SecondWins,  // "0-1" / "0-2"
    Draw,        // "1/2-1/2" / "1-1"
    BothLose,    // "0-0" (e.g. both forfeited)
    Unknown,     // "*" (also "-", as some programs write it)
};

// Parses either style ("1-0", "2-0", "1/2-1/2", "1-1", "0-0", "*", "-", ...); nullopt if not a
// result.
[[nodiscard]] std::optional<PdnResult> parse_pdn_result(std::string_view text) noexcept;
// Writes a result in the variant's style: International style (2-0, 0-2, 1-1) for 10x10 and
// 12x12 variants, the default style (1-0, 0-1, 1/2-1/2) for the others.
[[nodiscard]] std::string_view pdn_result_text(PdnResult r, VariantId v) noexcept;
// Converts a result text of either style to the variant's style; an unrecognised text gives "*".
[[nodiscard]] std::string convert_pdn_result(std::string_view text, VariantId v);
// True when the variant writes International-style results.
[[nodiscard]] bool uses_international_results(VariantId v) noexcept;

// The one result of a game whose Result tag says `tag` (nullptr when absent) and whose move
// text ends in `terminator`: a known result beats "*" (or an absent or unreadable tag); when
// both are known and differ, the tag wins (the header is what every program shows and indexes).
[[nodiscard]] std::string resolve_pdn_result(const std::string* tag, std::string_view terminator);

// Normalises a date tag to "YYYY.MM.DD" ("????.??.??" when unknown; unknown parts as "??").
[[nodiscard]] std::string normalize_pdn_date(std::string_view date);

// "game_type", "default", "setup", "moves", "file", "notation", "none".
[[nodiscard]] std::string_view pdn_variant_basis_key(PdnVariantBasis b) noexcept;
// "syntax", "game_type", "setup", "setup_promotion_row", "move", "ambiguous_move",
// "no_variant", "variant_tie"; "" for None.
[[nodiscard]] std::string_view pdn_error_kind_key(PdnErrorKind k) noexcept;

}  // namespace papan::core
