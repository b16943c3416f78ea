// The logistic ("Texel") fit of every evaluation weight: minimise the mean log-loss of
// sigmoid(k * eval) against the game result over the training positions, plus a ridge prior that
// pulls each pattern entry towards 0 with the weight of `prior` positions.
//
// Method: full-batch diagonal Newton steps with heavy-ball momentum. Every step uses the exact
// gradient g and the diagonal h of the Gauss-Newton curvature over the whole training set; a
// weight moves by rate * g / (h + lambda), lambda being the prior's curvature, so an entry many
// positions see takes a near-Newton step and one few positions see barely moves (Adam's
// normalised steps let rare pattern entries jump by the full step on one game). A step that
// raises the objective (loss plus prior) is taken back and retried at half the rate without
// momentum (the rate then grows back by a quarter per accepted step), so the training objective
// falls at every epoch. The scale k is fitted once, to the starting weights (golden-section
// search), and then held: it fixes the unit (a hundredth of a man as the starting evaluation
// means it), which the weights cannot do themselves (the piece-square and pattern entries can
// add to any piece's value, so fixing the man's weight alone lets the scale drift). A held-out
// share of the games gives the validation loss of every epoch. At the end every weight is
// scaled so that a man is worth 100 again (the mean of its middle-game and endgame values:
// the engine's unit).
//
// Deterministic: the split comes from the seed; the data is cut into kLanes fixed slices whose
// sums are combined in slice order whatever the thread count, so the same data, options and
// seed give the same weights bit for bit with any number of threads.
#pragma once

#include "samples.hpp"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

namespace papan::tune {

struct FitOptions {
    int epochs           = 50;
    std::uint64_t seed   = 1;
    int threads          = 1;
    double learning_rate = 0.5;  // share of the diagonal Newton step
    double momentum      = 0.9;
    double prior         = 20;         // ridge prior of a piece-square or pattern entry, in
                                       // positions
    double validation_fraction = 0.1;  // share of games held out
};

struct EpochReport {
    int epoch              = 0;  // 0: the starting weights; n: after n steps
    double train_loss      = 0;
    double validation_loss = 0;
    double k               = 0;  // sigmoid scale, per hundredth of a man
    double rate            = 0;  // the step rate used (halved after a rejected step)
};

struct FitResult {
    std::vector<std::int16_t> weights;     // the engine's units (evaluation.hpp)
    double k                         = 0;  // the scale of the returned weights
    double unit_factor               = 1;  // the final scaling of the fitted weights (man = 100)
    std::size_t train_positions      = 0;
    std::size_t validation_positions = 0;
    std::size_t duplicate_games      = 0;  // games left out as repeats of earlier ones
    std::vector<EpochReport> epochs;
};

using EpochCallback = std::function<void(const EpochReport&)>;

// Fits the weights of `variant`'s layout, starting from `initial` (engine units), on the
// samples of every set in `data` (sets of variants with the same layout).
[[nodiscard]] FitResult fit(core::VariantId variant,
                            const std::vector<SampleSet>& data,
                            const std::vector<std::int16_t>& initial,
                            const FitOptions& options,
                            const EpochCallback& on_epoch = {});

inline constexpr int kLanes = 8;

}  // namespace papan::tune
