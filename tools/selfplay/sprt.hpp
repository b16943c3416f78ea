// Match statistics of papan_selfplay: game and pair counts, the log-likelihood ratio of a
// sequential probability ratio test (SPRT) between two Elo hypotheses, and the Elo estimate with
// its 95% interval. Pure functions, no I/O (tests/tools/sprt_test.cpp checks them).
//
// Elo is the logistic scale: a score s (win 1, draw 1/2, loss 0, averaged per game) and an Elo
// difference e are related by s = 1 / (1 + 10^(-e/400)).
//
// Counting: trinomial counts each game (win, draw, loss) as one trial. Pentanomial counts each
// game pair (one opening played twice with colours swapped) as one trial with five outcomes, the
// pair's score 0, 1/2, 1, 3/2 or 2: the two games of a pair are correlated through their opening,
// so the pair is the independent unit and the variance is estimated correctly (Fishtest's method).
//
// LLR: the generalised SPRT (M. Van den Bergh, "Comments on Normalized Elo", and Fishtest):
// for each hypothesis H_j (the expected score per game is s_j), the outcome distribution is the
// maximum-likelihood one among those with mean s_j, and LLR = log L(H1) - log L(H0). The test
// stops with H1 (the candidate is better by elo1) when LLR >= log((1 - beta) / alpha) and with
// H0 (it is not better than elo0) when LLR <= log(beta / (1 - alpha)).
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string_view>

namespace papan::selfplay {

struct Counts {
    std::int64_t wins   = 0;  // games, from the candidate's side
    std::int64_t losses = 0;
    std::int64_t draws  = 0;
    // Pairs by the candidate's pair score in half points: [0] = 0 (two losses) .. [4] = 2 (two
    // wins); [2] holds both "two draws" and "one win, one loss".
    std::array<std::int64_t, 5> pairs{};

    [[nodiscard]] std::int64_t games() const noexcept { return wins + losses + draws; }

    [[nodiscard]] std::int64_t pair_count() const noexcept {
        return pairs[0] + pairs[1] + pairs[2] + pairs[3] + pairs[4];
    }

    // Adds one finished pair: each game's score for the candidate (0, 1/2 or 1, as 0, 1, 2).
    void add_pair(int first_half_points, int second_half_points) noexcept;
};

enum class Counting : std::uint8_t {
    Pentanomial,  // game pairs (the default)
    Trinomial,    // single games
};

enum class Decision : std::uint8_t {
    Continue,
    AcceptH0,  // stop: the candidate is not better by elo0 or more (at level alpha / beta)
    AcceptH1,  // stop: the candidate is better by elo1
};

struct SprtParams {
    double elo0  = 0;
    double elo1  = 10;
    double alpha = 0.05;
    double beta  = 0.05;
};

struct SprtBounds {
    double lower = 0;  // log(beta / (1 - alpha))
    double upper = 0;  // log((1 - beta) / alpha)
};

struct EloEstimate {
    double score = 0.5;  // mean score per game
    double elo   = 0;
    double lower = 0;  // 95% interval (normal approximation of the mean score, then to Elo)
    double upper = 0;
};

[[nodiscard]] double score_of_elo(double elo) noexcept;
[[nodiscard]] double elo_of_score(double score) noexcept;  // clamped to [-2000, 2000]

[[nodiscard]] SprtBounds sprt_bounds(const SprtParams& p) noexcept;

// The generalised LLR for outcomes with these scores (per game, in [0, 1]) and counts, between
// a mean score of s0 and of s1. 0 with fewer than two distinct outcomes observed.
[[nodiscard]] double llr(std::span<const double> outcome_scores,
                         std::span<const std::int64_t> counts,
                         double s0,
                         double s1);

[[nodiscard]] double llr(const Counts& c, const SprtParams& p, Counting counting);

[[nodiscard]] Decision decide(double llr, const SprtBounds& b) noexcept;

[[nodiscard]] EloEstimate estimate_elo(const Counts& c, Counting counting);

[[nodiscard]] std::string_view counting_name(Counting c) noexcept;

}  // namespace papan::selfplay
