// A match between a candidate and a baseline engine (Hub subprocesses): game pairs from an
// opening suite, each opening played twice with colours swapped, every move checked legal by
// the rules core, games ended by the variant's own rules (core::Game) or adjudicated a draw at
// a ply cap. It stops after a number of pairs or, with an SPRT, as soon as a bound is crossed.
#pragma once

#include "hub_engine.hpp"
#include "openings.hpp"
#include "sprt.hpp"

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace papan::selfplay {

struct MatchOptions {
    core::VariantId variant = core::VariantId::International;
    EngineSpec candidate;
    EngineSpec baseline;
    MoveLimit candidate_limit{.nodes = 20000};
    MoveLimit baseline_limit{.nodes = 20000};
    std::vector<Opening> openings;
    int max_plies          = 400;    // a game still going after this many plies is a draw
    std::int64_t max_pairs = 100;    // the cap (an SPRT may stop earlier)
    std::optional<SprtParams> sprt;  // none: play max_pairs pairs
    Counting counting  = Counting::Pentanomial;
    int concurrency    = 1;  // pairs played at once (two engine processes each)
    std::uint64_t seed = 1;  // the order in which openings are drawn
    std::chrono::milliseconds move_timeout{60000};
};

enum class Side : std::uint8_t {
    Candidate,
    Baseline
};

struct GameRecord {
    std::size_t opening       = 0;
    bool candidate_white      = true;
    int candidate_half_points = 1;  // 2 win, 1 draw, 0 loss
    int plies                 = 0;
    std::string ending;  // "White wins: ...", "Draw: ...", "draw by the ply cap", a forfeit
    std::string moves;   // the game's moves in the variant's notation
};

// Moves and their wall time.
struct TimeShare {
    std::int64_t moves = 0;
    double seconds     = 0;
};

// Wall time of the engines' moves (the spent share of a fixed move time), with the four kinds
// of move that rightly leave the budget unspent counted apart: a forced move (one legal move), a
// move played without a search (no `info` though several moves were legal: Papan does this when
// its endgame tables' root filter leaves one move, the others spoiling the table's result), a
// proven result (the last `info` score at least kProvenScore: a game end found, or an endgame
// table win or loss), and a search that reached Papan's depth cap (kSearchedOutDepth: the tree
// closed, as when the tables or the draw rules settle every line), where more time cannot
// change the move.
struct TimeStats {
    std::int64_t moves = 0;
    double seconds     = 0;
    double max_seconds = 0;
    TimeShare forced;
    TimeShare unsearched;
    TimeShare proven;
    TimeShare searched_out;
    // The depths reached on the open moves (none of the kinds above) that reported one.
    std::int64_t depth_moves = 0;
    std::int64_t depth_sum   = 0;
    // The nodes and seconds of the last `info` line of the open moves that reported them (the
    // speed).
    std::uint64_t nodes  = 0;
    double nodes_seconds = 0;

    [[nodiscard]] double mean_depth() const noexcept {
        return depth_moves > 0 ? static_cast<double>(depth_sum) / static_cast<double>(depth_moves)
                               : 0.0;
    }

    // The kinds above, the one list that adding up and the open share go over.
    static constexpr TimeShare TimeStats::*kSettledKinds[] = {
        &TimeStats::forced, &TimeStats::unsearched, &TimeStats::proven, &TimeStats::searched_out};

    // The moves of every kind above, summed; the rest are the open moves.
    [[nodiscard]] TimeShare settled() const noexcept {
        TimeShare sum;
        for (TimeShare TimeStats::*kind : kSettledKinds) {
            sum.moves += (this->*kind).moves;
            sum.seconds += (this->*kind).seconds;
        }
        return sum;
    }
};

// Hub shows a game end found as +-19.xx men and a table win as +-230 men or more.
inline constexpr int kProvenScore = 1900;
// Papan's iterative deepening stops at 100 plies (kMaxPly - 28 in engine/src/search).
inline constexpr int kSearchedOutDepth = 100;

enum class MoveTimeKind {
    Forced,
    Unsearched,
    Proven,
    SearchedOut,
    Open
};

// Which share of TimeStats a reply counts in (the first that applies, in the enum's order).
[[nodiscard]] MoveTimeKind move_time_kind(const EngineReply& reply,
                                          std::size_t legal_moves) noexcept;

struct MatchResult {
    Counts counts;
    double llr = 0;
    SprtBounds bounds;
    Decision decision               = Decision::Continue;
    std::int64_t forfeits_candidate = 0;  // illegal move, crash or timeout
    std::int64_t forfeits_baseline  = 0;
    TimeStats time_candidate;
    TimeStats time_baseline;
    std::string error;  // set when the match could not run (an engine did not start)
};

// Called after each finished pair (under the match's lock), with the totals so far.
using PairCallback = std::function<void(const GameRecord&, const GameRecord&, const MatchResult&)>;

[[nodiscard]] MatchResult run_match(const MatchOptions& options, const PairCallback& on_pair = {});

}  // namespace papan::selfplay
