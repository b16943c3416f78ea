// RuleSet: one variant's rules as plain constexpr data, one row per variant in registry.hpp.
// Fields are small enums; where data cannot say it (Italian precedence, the special endgame
// draw rules) the field names one of a closed set of hooks, implemented once in the core.
// The move generator is specialised on these values at compile time (movegen_kernel.hpp).
#pragma once

#include <papan/core/geometry.hpp>
#include <papan/core/types.hpp>

#include <cstdint>
#include <string_view>

namespace papan::core {

// How square numbers map onto the internal layout.
enum class Numbering : std::uint8_t {
    Standard,  // 1 = top-left dark square, row by row (8x8 a1-dark, 10x10, Turkish 1 = a1)
    Italian,   // a1 light: 1 = a8, 4 = g8, 29 = b1, 32 = h1
    Spanish,   // a1 light, 1 = h1 counting right to left upwards (= 33 - Italian number)
};

// How moves are written for players.
enum class NotationStyle : std::uint8_t {
    Numeric,    // 32-28, 28x19
    Algebraic,  // c3-d4, c3:e5
};

enum class ManDirections : std::uint8_t {
    Forward,             // the two forward diagonals
    ForwardAndBackward,  // all four diagonals (captures only)
    ForwardAndSideways,  // Turkish: straight ahead, left and right
};

enum class KingRange : std::uint8_t {
    Short,   // one square per step, jumps an adjacent piece
    Flying,  // any distance along a line
};

enum class KingLanding : std::uint8_t {
    AnyBeyond,       // any empty square behind the captured piece
    DirectlyBehind,  // Thai: only the square right behind it
};

enum class CapturedRemoval : std::uint8_t {
    AtEndOfMove,  // captured pieces stay (and block) until the move ends: Turkish strike
    Immediately,  // each captured piece leaves the board when jumped
};

enum class CapturePrecedence : std::uint8_t {
    Free,               // any capture; the chosen one must be completed
    Majority,           // most pieces (a king counts 1)
    MajorityThenKings,  // Spanish: most pieces, then most kings
    Italian,            // most pieces, by king, most kings, kings earliest (hook)
    KingsFirst,         // Czech: a king must capture if it can; free choice among those
};

enum class MidCapturePromotion : std::uint8_t {
    CrownAndStop,      // crowned, the move ends there
    CrownAndContinue,  // Russian: crowned at once, goes on capturing as a king
    ContinueAsMan,     // goes on as a man, crowned only if the move ends on the last row
};

// What resets the no-progress counter of the default draw rules.
enum class NoProgressRule : std::uint8_t {
    None,
    NoCaptureNoManMove,     // American: 40 moves each with no capture and no man moved
    KingsOnlyNoCapture,     // International: only kings moved and nothing was captured
    NoCaptureNoManAdvance,  // Turkish: no capture and no man moved forward
    NoCaptureNoCrowning,    // other 8x8 variants (docs/rules.md)
};

// Special endgame draw rules that data cannot express.
enum class EndgameDrawRule : std::uint8_t {
    None,
    International,  // lone king vs 3 (16 moves) / vs <= 2 (5 moves), with at least one king
    Turkish,        // lone king vs lone king, unless the side to move captures at once
};

// The selectable draw rule sets of a game.
enum class DrawRuleSet : std::uint8_t {
    Standard,         // the variant's default (docs/rules.md, "End of game")
    AmericanClub,     // American club rules: claimable repetition and insufficient material, 40/300
    RussianOfficial,  // Russian federation rules 7.2
};

struct DrawRules {
    NoProgressRule no_progress = NoProgressRule::None;
    int no_progress_moves      = 0;  // moves each (a move = one player's turn)
    int total_move_limit       = 0;  // plies in all; 0 = none
    EndgameDrawRule endgame    = EndgameDrawRule::None;
};

struct RuleSet {
    VariantId id{};
    std::string_view key;        // stable id: "american", "international", ...
    std::string_view name;       // display name
    std::string_view game_type;  // PDN GameType, full form
    int game_type_number = 0;
    Topology topology{};
    Numbering numbering    = Numbering::Standard;
    NotationStyle notation = NotationStyle::Numeric;
    char capture_separator = 'x';
    Color first_to_move    = Color::White;
    std::string_view start_fen;
    int men_per_side = 12;

    ManDirections man_moves      = ManDirections::Forward;
    ManDirections man_captures   = ManDirections::ForwardAndBackward;
    bool man_captures_king       = true;
    KingRange king_range         = KingRange::Flying;
    KingLanding king_landing     = KingLanding::AnyBeyond;
    CapturedRemoval removal      = CapturedRemoval::AtEndOfMove;
    bool king_may_reverse        = false;  // 180-degree turn between two jumps (needs Immediately)
    CapturePrecedence precedence = CapturePrecedence::Majority;
    MidCapturePromotion mid_capture_promotion = MidCapturePromotion::ContinueAsMan;
    bool optional_capture_house_rule = false;  // "no forced capture" may be chosen (8x8 diagonal)

    DrawRules draw{};

    [[nodiscard]] constexpr const Geometry& board() const noexcept { return geometry(topology); }
};

}  // namespace papan::core
