// Internal to the PDN reader: the syntax of a PDN file, before any rule is applied. The lexer
// (notation_pdn_lex.cpp) cuts the text into games of tags and move-text tokens; the replay
// (notation_pdn_replay.cpp) plays the tokens under a variant; variant detection
// (notation_pdn_detect.cpp) chooses that variant when the game does not name it.
#pragma once

#include <papan/core/notation/pdn.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace papan::core::pdn {

enum class TokenKind : std::uint8_t {
    Move,       // a move word, number and strength removed ("32-28", "c3:e5", "3228")
    Setup,      // the body of /.../ (`FEN "W:W31:B1"`)
    Comment,    // the text of {...}, white space collapsed
    Variation,  // the text inside (...), white space collapsed
    Mark,       // a strength or NAG of the move before ("!?", "$1")
};

struct Token {
    TokenKind kind = TokenKind::Move;
    std::string text;
    int line        = 0;
    int move_number = 0;  // Move: the number written just before it ("12." -> 12), 0 if none
};

struct Tag {
    std::string name;
    std::string value;
    int line = 0;
};

struct SyntaxError {
    std::string message;  // without the "game N, line L: " prefix
    int line = 0;
};

struct RawGame {
    int number = 0;  // 1-based
    int line   = 0;  // line of the game's first token
    std::vector<Tag> tags;
    std::vector<Token> tokens;
    std::optional<std::string> terminator;  // the result word that ended the game, if any
    std::optional<SyntaxError> error;       // the first syntax error
    std::vector<std::string> notes;         // junk skipped

    [[nodiscard]] const Tag* find_tag(std::string_view name) const;  // case-insensitive
};

// Cuts the text into games. Never fails: syntax errors are recorded in their game.
[[nodiscard]] std::vector<RawGame> lex(std::string_view text);

// The outcome of playing a game's tokens under one variant.
struct Replay {
    PdnGame game;
    std::string error;  // complete message ("game N, move M (side): ..."), empty when ok
    PdnErrorKind error_kind = PdnErrorKind::None;
    int error_line          = 0;
    int error_move          = 0;
    std::size_t moves_read  = 0;  // moves replayed before the error (all when ok)
    std::vector<std::string> notes;

    [[nodiscard]] bool ok() const noexcept { return error.empty(); }
};

// Plays the game's tokens under variant v (its start from the FEN tag, or the standard start).
[[nodiscard]] Replay replay(const RawGame& raw, VariantId v, const PdnReadOptions& options);

// Variant detection. decide() settles what one game alone can settle; settle_ties() then uses
// the file's other games and the notation for the games that fit several variants.
struct Decision {
    Replay replay;
    PdnVariantBasis basis = PdnVariantBasis::None;
    std::vector<Replay> tied;        // several variants accept every move
    std::vector<std::string> notes;  // how the variant was found (an unknown GameType)
};

[[nodiscard]] Decision decide(const RawGame& raw, const PdnReadOptions& options);
void settle_ties(const std::vector<RawGame>& raws, std::vector<Decision>& decisions);

// Text helpers shared by the reader and the writer.
[[nodiscard]] bool is_space(char c) noexcept;
[[nodiscard]] bool is_digit(char c) noexcept;
[[nodiscard]] bool iequals(std::string_view a, std::string_view b) noexcept;
[[nodiscard]] std::string_view trim(std::string_view s) noexcept;
[[nodiscard]] std::string collapse_space(std::string_view s);
[[nodiscard]] const char* color_name(Color c) noexcept;
[[nodiscard]] const std::string* find_tag_ci(const PdnGame& g, std::string_view name);
// The game's "game N, " prefix and a syntax message with its line.
[[nodiscard]] std::string syntax_message(int game, int line, const std::string& what);

}  // namespace papan::core::pdn
