// Game: one game of draughts as a value. It keeps the start position, every move played and the
// position after each ply, the legal moves of the current position, and the counters of the
// variant's draw rules; it decides when the game is over (no pieces, no legal move, an automatic
// draw rule) and records the non-move endings (resignation, agreement, timeout, a claimed draw).
//
// The draw rules are those of docs/rules.md ("End of game"); its section "Draw rules and game
// results" records how the wording of each rule was read. No I/O, no threads, no globals; a
// Game is copyable (the server and the engine copy it).
//
// Invariants: positions().size() == moves().size() + 1 == ply() + 1; position() is the last
// position; legal_moves() is empty exactly when the game is over or the side to move cannot move;
// every failed call (an illegal move, an ending after the game is over) changes nothing.
#pragma once

#include <papan/core/expected.hpp>
#include <papan/core/move.hpp>
#include <papan/core/movegen.hpp>
#include <papan/core/position.hpp>
#include <papan/core/rules/rule_set.hpp>
#include <papan/core/types.hpp>

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace papan::core {

enum class Outcome : std::uint8_t {
    Ongoing,
    WhiteWins,
    BlackWins,
    Draw,
};

// Why the game ended. Values are stable (stored and sent over the wire): only append.
enum class Reason : std::uint8_t {
    None,                      // the game goes on
    NoPieces,                  // the side to move has no pieces left: it loses
    NoMoves,                   // the side to move has no legal move (blocked): it loses
    Resignation,               // a player resigned: the other wins
    Timeout,                   // a player ran out of time: the other wins
    Agreement,                 // draw agreed
    Repetition,                // threefold repetition (automatic, or claimed in AmericanClub)
    NoProgress,                // a no-progress move counter ran out
    MoveLimit,                 // the hard limit on moves in all
    EndgameRule,               // a material rule (International/Turkish/Russian endgames)
    InsufficientMaterial,      // AmericanClub: claimed, one piece against a lone king
    TimeoutWithDrawClaimable,  // AmericanClub: out of time while a draw could be claimed: draw
    TimeoutOpponentCannotWin,  // AmericanClub: out of time but the opponent cannot win: draw
};

// The individual draw rules (which counter ran out, which rule can be claimed). Stable values.
enum class DrawRule : std::uint8_t {
    None,
    Repetition,                // threefold repetition
    NoProgress,                // the variant's no-progress counter (what resets it: NoProgressRule)
    TotalMoves,                // plies in all (American 400, AmericanClub 300)
    InternationalKingVsThree,  // 1 king vs 3 pieces incl. a king: 16 moves each
    InternationalKingVsTwo,    // 1 king vs at most 2 pieces incl. a king: 5 moves each
    TurkishKingVsKing,         // lone king vs lone king, unless the side to move captures at once
    RussianThreeKings,         // >= 3 kings vs a lone king: not taken by the stronger side's 15th
    RussianLongDiagonal,       // 3 pieces incl. a king vs a lone king on a1-h8: 5 moves each
    RussianSmallEndgame,       // 2 kings / king + man / king vs a lone king: 5 moves each
    RussianKingsFourFive,  // both sides with kings, 4-5 pieces: 30 moves each, no capture/crowning
    RussianKingsSixSeven,  // both sides with kings, 6-7 pieces: 60 moves each, no capture/crowning
    InsufficientMaterial,  // AmericanClub claim: one piece against a lone king
};

struct GameResult {
    Outcome outcome = Outcome::Ongoing;
    Reason reason   = Reason::None;
    DrawRule rule   = DrawRule::None;  // the draw rule that ended the game, if one did
    bool claimed    = false;           // a player claimed the draw (AmericanClub)

    [[nodiscard]] constexpr bool over() const noexcept { return outcome != Outcome::Ongoing; }

    friend constexpr bool operator==(const GameResult&, const GameResult&) = default;
};

struct GameOptions {
    // false = the "no forced capture" house rule (only where RuleSet::optional_capture_house_rule).
    bool forced_capture = true;
    // AmericanClub only for American checkers, RussianOfficial only for Russian draughts.
    DrawRuleSet draw_rules = DrawRuleSet::Standard;

    friend constexpr bool operator==(const GameOptions&, const GameOptions&) = default;
};

// One move-limit rule that applies in the current position, for "N moves left" displays.
struct DrawCounter {
    DrawRule rule = DrawRule::None;
    std::string_view key;  // stable id, e.g. "no_progress", "move_limit", "king_vs_three"
    std::string text;      // e.g. "25 moves each with only kings moved and no capture"
    int count      = 0;    // plies counted so far (stronger-side moves for RussianThreeKings)
    int limit      = 0;    // the count at which the draw happens
    int plies_left = 0;    // plies still to be played before the draw (0 = it has happened)
    int moves_left = 0;    // moves of the side to move before the draw, its next move included
    // For DrawRule::NoProgress: what resets the counter (the variant's rule, or the one the
    // game's DrawRuleSet replaces it with); None for the other rules.
    NoProgressRule progress = NoProgressRule::None;
};

[[nodiscard]] std::string_view outcome_text(Outcome o) noexcept;  // "White wins", "Draw", ...
[[nodiscard]] std::string_view reason_text(Reason r) noexcept;    // "threefold repetition", ...
[[nodiscard]] std::string_view draw_rule_key(DrawRule r) noexcept;
[[nodiscard]] std::optional<Color> winner(Outcome o) noexcept;

// Checks that the options can be used with the variant; nullopt when they can.
[[nodiscard]] std::optional<Error> validate_game_options(VariantId v, const GameOptions& options);

class Game {
public:
    static constexpr std::size_t kMaxDrawSlots = 8;

    // From the variant's start position. Precondition: validate_game_options(v, options) is
    // empty; invalid settings fall back to the defaults (create() reports them instead).
    explicit Game(VariantId v, GameOptions options = {});
    // From a set-up position (its variant and side to move). Precondition: start is consistent
    // and the options valid (as above). The position-only rules (no pieces, no legal move,
    // Turkish lone kings) are applied at once; move counters start at zero.
    explicit Game(const Position& start, GameOptions options = {});

    [[nodiscard]] static Expected<Game> create(VariantId v, GameOptions options = {});
    [[nodiscard]] static Expected<Game> create(const Position& start, GameOptions options = {});

    [[nodiscard]] VariantId variant() const noexcept { return positions_.front().variant; }

    [[nodiscard]] const RuleSet& rules() const noexcept { return core::rules(variant()); }

    [[nodiscard]] const GameOptions& options() const noexcept { return options_; }

    [[nodiscard]] MoveGenOptions movegen_options() const noexcept {
        return MoveGenOptions{options_.forced_capture};
    }

    [[nodiscard]] const Position& start_position() const noexcept { return positions_.front(); }

    [[nodiscard]] const Position& position() const noexcept { return positions_.back(); }

    [[nodiscard]] Color side_to_move() const noexcept { return position().side; }

    [[nodiscard]] int ply() const noexcept { return static_cast<int>(moves_.size()); }

    [[nodiscard]] std::span<const Move> moves() const noexcept { return moves_; }

    // positions()[i] is the position before moves()[i]; positions().back() == position().
    [[nodiscard]] std::span<const Position> positions() const noexcept { return positions_; }

    // Legal moves of the current position (honouring forced_capture); empty once the game is over.
    [[nodiscard]] const MoveList& legal_moves() const noexcept { return legal_; }

    // The legal move with m's (from, to, captured set), if there is one and the game goes on.
    [[nodiscard]] std::optional<Move> find_legal(const Move& m) const noexcept;

    // Plays a legal move (identified by from, to and captured set; the stored move is the
    // generated one). Errors, changing nothing, when the game is over or the move is illegal.
    Expected<GameResult> play(const Move& m);
    // The same with a move text in the variant's notation (parse_move).
    Expected<GameResult> play(std::string_view move_text);
    // Takes back the last ply with all counters and the result it had; a non-move ending
    // (resignation, agreement, timeout, claim) is undone with it. Error when no ply was played.
    Expected<GameResult> undo();

    [[nodiscard]] const GameResult& result() const noexcept { return result_; }

    [[nodiscard]] bool is_over() const noexcept { return result_.over(); }

    // "Draw: threefold repetition", "White wins: Black has no legal move (blocked)", "game in
    // progress".
    [[nodiscard]] std::string result_text() const;

    // How many times the current position (same side to move) has occurred, this one included.
    [[nodiscard]] int repetition_count() const noexcept;

    // AmericanClub: the draw the side to move could claim now (Repetition or
    // InsufficientMaterial); nullopt otherwise, in other rule sets and once the game is over.
    [[nodiscard]] std::optional<Reason> claimable_draw() const;
    // Claims that draw for the side to move ("on your turn").
    Expected<GameResult> claim_draw();
    // Claims it for `by`, which must be the side to move.
    Expected<GameResult> claim_draw(Color by);

    Expected<GameResult> resign(Color loser);
    Expected<GameResult> agree_draw();
    // `loser` ran out of time: the other side wins, except in AmericanClub when a draw could be
    // claimed or the opponent cannot win (it has a single piece and `loser` has a king): draw.
    Expected<GameResult> flag(Color loser);

    // Each move-limit rule that applies now (no-progress, total limit, active endgame rules).
    [[nodiscard]] std::vector<DrawCounter> move_limits() const;
    // Human text of a draw rule with this game's numbers ("40 moves each with no capture and no
    // man moved").
    [[nodiscard]] std::string draw_rule_text(DrawRule r) const;

private:
    enum class SlotKind : std::uint8_t {
        NoProgress,  // reset by the moves progress says; always active
        TotalPlies,  // never reset
        Endgame,     // active while its material holds; restarts when it arises or on a capture
    };

    struct Slot {
        DrawRule rule           = DrawRule::None;
        SlotKind kind           = SlotKind::NoProgress;
        NoProgressRule progress = NoProgressRule::None;
        int limit               = 0;      // plies, or stronger-side moves when stronger_moves
        bool stronger_moves     = false;  // counts only the stronger side's moves
        bool reset_on_crowning  = false;
    };

    struct PlyState {
        std::uint64_t key = 0;
        int reversible    = 0;  // plies since the last capture or man advance
        int repetitions   = 1;  // occurrences of this position so far, this one included
        std::array<int, kMaxDrawSlots> counters{};  // per slot; -1 = rule not active
        GameResult result;                          // the automatic result in this position
    };

    void configure(VariantId v);
    void add_slot(const Slot& s);
    [[nodiscard]] PlyState initial_state(const Position& pos) const;
    [[nodiscard]] GameResult evaluate(const Position& pos, const PlyState& st) const;
    void refresh_legal();
    Expected<GameResult> end_game(const GameResult& r);

    GameOptions options_;
    std::array<Slot, kMaxDrawSlots> slots_{};
    std::size_t slot_count_      = 0;
    bool repetition_automatic_   = true;   // false: claimable (AmericanClub)
    bool insufficient_claimable_ = false;  // AmericanClub
    bool turkish_kings_rule_     = false;

    std::vector<Position> positions_;
    std::vector<Move> moves_;
    std::vector<PlyState> states_;
    GameResult result_;
    MoveList legal_;
};

}  // namespace papan::core
