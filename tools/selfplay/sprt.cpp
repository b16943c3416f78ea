// SPRT and Elo arithmetic (see sprt.hpp).
#include "sprt.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

namespace papan::selfplay {

namespace {

constexpr std::array<double, 3> kGameScores = {0.0, 0.5, 1.0};
constexpr std::array<double, 5> kPairScores = {0.0, 0.25, 0.5, 0.75, 1.0};

// A zero count is replaced by this when the observed outcomes do not lie on both sides of a
// hypothesis (the maximum-likelihood distribution would not exist); Fishtest does the same.
constexpr double kRegularisation = 1e-3;

struct Frequencies {
    std::vector<double> score;
    std::vector<double> p;  // relative frequency
    double n = 0;           // trials
};

Frequencies frequencies(std::span<const double> scores,
                        std::span<const std::int64_t> counts,
                        double s0,
                        double s1,
                        bool may_regularise = true) {
    Frequencies f;
    const std::size_t k = std::min(scores.size(), counts.size());
    bool below0 = false, above0 = false, below1 = false, above1 = false;
    for (std::size_t i = 0; i < k; ++i) {
        if (counts[i] <= 0) {
            continue;
        }
        below0 = below0 || scores[i] < s0;
        above0 = above0 || scores[i] > s0;
        below1 = below1 || scores[i] < s1;
        above1 = above1 || scores[i] > s1;
    }
    const bool regularise = may_regularise && !(below0 && above0 && below1 && above1);
    for (std::size_t i = 0; i < k; ++i) {
        const double c =
            counts[i] > 0 ? static_cast<double>(counts[i]) : (regularise ? kRegularisation : 0.0);
        if (c <= 0) {
            continue;
        }
        f.score.push_back(scores[i]);
        f.p.push_back(c);
        f.n += c;
    }
    for (double& p : f.p) {
        p /= f.n;
    }
    return f;
}

// The Lagrange multiplier of the maximum-likelihood distribution with mean s:
// p_i = f_i / (1 + lambda (a_i - s)), where sum f_i (a_i - s) / (1 + lambda (a_i - s)) = 0.
double lagrange(const Frequencies& f, double s) {
    double lo_dev = 0, hi_dev = 0;  // min and max of a_i - s
    for (const double a : f.score) {
        lo_dev = std::min(lo_dev, a - s);
        hi_dev = std::max(hi_dev, a - s);
    }
    // 1 + lambda (a_i - s) > 0 for every i: lambda in (-1 / hi_dev, -1 / lo_dev).
    double lo    = -1.0 / hi_dev;
    double hi    = -1.0 / lo_dev;
    const auto g = [&](double lambda) {
        double sum = 0;
        for (std::size_t i = 0; i < f.p.size(); ++i) {
            const double d = f.score[i] - s;
            sum += f.p[i] * d / (1.0 + lambda * d);
        }
        return sum;  // decreasing in lambda
    };
    for (int it = 0; it < 200; ++it) {
        const double mid = 0.5 * (lo + hi);
        if (g(mid) > 0) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    return 0.5 * (lo + hi);
}

// The observed frequencies, as they are (for the estimate).
Frequencies observed(const Counts& c, Counting counting) {
    if (counting == Counting::Pentanomial) {
        return frequencies(kPairScores, c.pairs, 0.5, 0.5, false);
    }
    const std::array<std::int64_t, 3> games = {c.losses, c.draws, c.wins};
    return frequencies(kGameScores, games, 0.5, 0.5, false);
}

}  // namespace

void Counts::add_pair(int first_half_points, int second_half_points) noexcept {
    for (const int h : {first_half_points, second_half_points}) {
        (h == 2 ? wins : h == 0 ? losses : draws) += 1;
    }
    const int sum = std::clamp(first_half_points + second_half_points, 0, 4);
    pairs[static_cast<std::size_t>(sum)] += 1;
}

double score_of_elo(double elo) noexcept {
    return 1.0 / (1.0 + std::pow(10.0, -elo / 400.0));
}

double elo_of_score(double score) noexcept {
    if (score <= 0) {
        return -2000;
    }
    if (score >= 1) {
        return 2000;
    }
    return std::clamp(-400.0 * std::log10(1.0 / score - 1.0), -2000.0, 2000.0);
}

SprtBounds sprt_bounds(const SprtParams& p) noexcept {
    return {std::log(p.beta / (1.0 - p.alpha)), std::log((1.0 - p.beta) / p.alpha)};
}

double llr(std::span<const double> outcome_scores,
           std::span<const std::int64_t> counts,
           double s0,
           double s1) {
    std::size_t observed = 0;
    for (std::size_t i = 0; i < std::min(outcome_scores.size(), counts.size()); ++i) {
        observed += counts[i] > 0 ? 1U : 0U;
    }
    if (observed < 2) {
        return 0;
    }
    const Frequencies f  = frequencies(outcome_scores, counts, s0, s1);
    const double lambda0 = lagrange(f, s0);
    const double lambda1 = lagrange(f, s1);
    double per_trial     = 0;
    for (std::size_t i = 0; i < f.p.size(); ++i) {
        per_trial += f.p[i] * (std::log1p(lambda0 * (f.score[i] - s0)) -
                               std::log1p(lambda1 * (f.score[i] - s1)));
    }
    return f.n * per_trial;
}

double llr(const Counts& c, const SprtParams& p, Counting counting) {
    const double s0 = score_of_elo(p.elo0);
    const double s1 = score_of_elo(p.elo1);
    if (counting == Counting::Pentanomial) {
        return llr(kPairScores, c.pairs, s0, s1);
    }
    const std::array<std::int64_t, 3> games = {c.losses, c.draws, c.wins};
    return llr(kGameScores, games, s0, s1);
}

Decision decide(double value, const SprtBounds& b) noexcept {
    if (value >= b.upper) {
        return Decision::AcceptH1;
    }
    if (value <= b.lower) {
        return Decision::AcceptH0;
    }
    return Decision::Continue;
}

EloEstimate estimate_elo(const Counts& c, Counting counting) {
    EloEstimate e;
    const Frequencies f = observed(c, counting);
    if (f.n <= 0) {
        e.lower = -2000;
        e.upper = 2000;
        return e;
    }
    double mean = 0;
    for (std::size_t i = 0; i < f.p.size(); ++i) {
        mean += f.p[i] * f.score[i];
    }
    double var = 0;
    for (std::size_t i = 0; i < f.p.size(); ++i) {
        var += f.p[i] * (f.score[i] - mean) * (f.score[i] - mean);
    }
    const double se = std::sqrt(var / f.n);
    e.score         = mean;
    e.elo           = elo_of_score(mean);
    e.lower         = elo_of_score(mean - 1.96 * se);
    e.upper         = elo_of_score(mean + 1.96 * se);
    return e;
}

std::string_view counting_name(Counting c) noexcept {
    return c == Counting::Pentanomial ? "pentanomial" : "trinomial";
}

}  // namespace papan::selfplay
