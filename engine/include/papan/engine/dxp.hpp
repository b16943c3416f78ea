// DXP, the DamExchange Protocol (docs/engine-protocols.md): engine-vs-engine games over
// TCP. Messages are NUL-terminated ASCII strings with fixed-width fields; a move is identified by
// from, to and the set of captured squares. The standard covers 10x10 (squares 01-50); for the
// 8x8 diagonal variants we use the common extension (squares 01-32, 32-character positions) and
// for Turkish the same idea with 64 squares (non-standard). Both sides must agree on the variant
// out of band (`--variant`).
//
// The message codec is pure (parse/encode); the sessions use POSIX sockets and block on them.
#pragma once

#include <papan/core/expected.hpp>
#include <papan/core/position.hpp>
#include <papan/core/types.hpp>
#include <papan/engine/limits.hpp>

#include <cstdint>
#include <iosfwd>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace papan::engine {

inline constexpr int kDxpPort        = 27531;
inline constexpr int kDxpNameWidth   = 32;
inline constexpr std::size_t kDxpMax = 127;  // longest message in the standard (without the NUL)

struct DxpGameRequest {  // 'R'
    int version = 1;
    std::string initiator_name;
    core::Color follower_color = core::Color::Black;
    int minutes                = 0;  // thinking time per player
    int moves                  = 0;  // moves in that time; 0 = no limit
    bool custom_start          = false;
    core::Color to_move        = core::Color::White;  // only with custom_start
    std::string position;  // only with custom_start: one char per square (e w z W Z)
};

struct DxpGameAccept {  // 'A'
    std::string follower_name;
    char code = '0';  // '0' accept, '1' wrong version, '2' not this game, '3' no games at all
};

struct DxpMove {  // 'M'
    int seconds = 0;
    int from    = 0;
    int to      = 0;
    std::vector<int> captured;
};

struct DxpGameEnd {     // 'E'
    char reason = '0';  // '0' none, '1' I lose, '2' draw, '3' I win
    char stop   = '0';  // '0' next game OK, '1' stop
};

struct DxpChat {  // 'C'
    std::string text;
};

struct DxpBackRequest {  // 'B'
    int move_number     = 1;
    core::Color to_move = core::Color::White;
};

struct DxpBackAccept {  // 'K'
    char code = '0';    // '0' accept, '1' not supported, '2' decline
};

using DxpMessage = std::variant<DxpGameRequest,
                                DxpGameAccept,
                                DxpMove,
                                DxpGameEnd,
                                DxpChat,
                                DxpBackRequest,
                                DxpBackAccept>;

// Parses one message (without its NUL). Errors say what is malformed.
[[nodiscard]] core::Expected<DxpMessage> parse_dxp(std::string_view text);
// Writes the standard form (zero-padded numbers, space-padded names).
[[nodiscard]] std::string encode_dxp(const DxpMessage& message);

// The squares of a position in DXP letters (e w z W Z), one per square 1..N.
[[nodiscard]] std::string dxp_squares(const core::Position& pos);
[[nodiscard]] core::Expected<core::Position>
parse_dxp_position(core::VariantId v, core::Color to_move, std::string_view squares);

[[nodiscard]] char dxp_colour(core::Color c) noexcept;  // 'W' or 'Z'

struct DxpOptions {
    std::string host;  // bind address (follower) or peer (initiator); empty = default
    int port                = kDxpPort;
    bool initiator          = false;
    core::VariantId variant = core::VariantId::International;
    Level level             = Level::Max;
    int minutes             = 5;   // initiator: thinking time per player sent in GAMEREQ
    int moves               = 75;  // initiator: moves for that time (0 = no limit)
    int games               = 1;   // initiator: games to play; follower: 0 = serve forever
    std::string fen;               // initiator: start position (empty = the variant's start)
    // Fixed limits per move (for tests and weak play); when set they replace the clock.
    int depth              = 0;
    std::uint64_t nodes    = 0;
    double move_time       = 0;
    std::uint64_t seed     = 0;
    std::size_t hash_mb    = 32;
    int threads            = 1;  // search threads at level max (EngineOptions::threads)
    std::string name       = "Papan";
    double reply_timeout   = 60;  // seconds to wait for GAMEACC or a GAMEEND reply
    double connect_timeout = 10;  // initiator: keep retrying the connection this long
};

// Plays as the Initiator: connects, sends GAMEREQ and plays `games` games (swapping colours
// each game). Progress goes to `out`, errors to `err`. Returns 0 when every game was played.
int run_dxp_initiator(const DxpOptions& options, std::ostream& out, std::ostream& err);

// Plays as the Follower: listens (port 0 = any free port; the first line on `out` is
// "dxp: listening on <host>:<port>"), accepts connections one after the other and answers
// GAMEREQs. Returns after `games` games (never when games == 0) or on a socket error.
int run_dxp_follower(const DxpOptions& options, std::ostream& out, std::ostream& err);

}  // namespace papan::engine
