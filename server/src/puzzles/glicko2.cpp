#include "puzzles/glicko2.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace papan::server::puzzles {

namespace {

constexpr double kScale     = 173.7178;  // Glicko-2 scale factor
constexpr double kEpsilon   = 0.000001;  // convergence of the volatility iteration
constexpr double kMaxRd     = 350;
constexpr double kMinRating = 400;
constexpr double kMaxRating = 3500;

double g(double phi) {
    return 1.0 / std::sqrt(1.0 + 3.0 * phi * phi / (std::numbers::pi * std::numbers::pi));
}

double expected(double mu, double mu_j, double phi_j) {
    return 1.0 / (1.0 + std::exp(-g(phi_j) * (mu - mu_j)));
}

}  // namespace

double glicko_expected(const Glicko& player, const Glicko& opponent) {
    return expected((player.rating - 1500) / kScale,
                    (opponent.rating - 1500) / kScale,
                    opponent.deviation / kScale);
}

Glicko glicko_update(const Glicko& player, const Glicko& opponent, double score) {
    // Step 2: to the Glicko-2 scale.
    const double mu    = (player.rating - 1500) / kScale;
    const double phi   = player.deviation / kScale;
    const double sigma = player.volatility;
    const double mu_j  = (opponent.rating - 1500) / kScale;
    const double phi_j = opponent.deviation / kScale;
    // Steps 3 and 4: the estimated variance and improvement.
    const double gj    = g(phi_j);
    const double e     = expected(mu, mu_j, phi_j);
    const double v     = 1.0 / (gj * gj * e * (1 - e));
    const double delta = v * gj * (score - e);
    // Step 5: the new volatility (Illinois algorithm).
    const double a = std::log(sigma * sigma);
    const auto f   = [&](double x) {
        const double ex = std::exp(x);
        const double d  = phi * phi + v + ex;
        return ex * (delta * delta - phi * phi - v - ex) / (2 * d * d) -
               (x - a) / (kGlickoTau * kGlickoTau);
    };
    double big_a = a;
    double big_b = 0;
    if (delta * delta > phi * phi + v) {
        big_b = std::log(delta * delta - phi * phi - v);
    } else {
        int k = 1;
        while (f(a - k * kGlickoTau) < 0 && k < 100) {
            ++k;
        }
        big_b = a - k * kGlickoTau;
    }
    double fa = f(big_a);
    double fb = f(big_b);
    for (int i = 0; i < 100 && std::abs(big_b - big_a) > kEpsilon; ++i) {
        const double c  = big_a + (big_a - big_b) * fa / (fb - fa);
        const double fc = f(c);
        if (fc * fb <= 0) {
            big_a = big_b;
            fa    = fb;
        } else {
            fa /= 2;
        }
        big_b = c;
        fb    = fc;
    }
    const double sigma_new = std::exp(big_a / 2);
    // Steps 6 to 8: the new deviation and rating, back to the Glicko scale.
    const double phi_star = std::sqrt(phi * phi + sigma_new * sigma_new);
    const double phi_new  = 1.0 / std::sqrt(1.0 / (phi_star * phi_star) + 1.0 / v);
    const double mu_new   = mu + phi_new * phi_new * gj * (score - e);
    Glicko out;
    out.rating     = std::clamp(mu_new * kScale + 1500, kMinRating, kMaxRating);
    out.deviation  = std::clamp(phi_new * kScale, kMinDeviation, kMaxRd);
    out.volatility = sigma_new;
    return out;
}

}  // namespace papan::server::puzzles
