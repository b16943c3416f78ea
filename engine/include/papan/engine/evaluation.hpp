// The static evaluation seen from outside the search: its score for a position, the layout of
// its weights and the features the training pipeline (tools/tune) fits.
//
// The score is linear in the weights before two fixed steps: with f the features of a position
// (White's count minus Black's), p its phase (pieces on the board) out of P, and w the pairs
// (middle game, endgame) of weights in eighths of a hundredth of a man,
//   raw   = sum_i f_i * (w_i.mg * p + w_i.eg * (P - p)) / P / 8       (White's view)
//   score = raw * s / 16,  s = scale_white if raw >= 0 else scale_black (endgame knowledge)
// and the side to move's view is score or -score. The engine computes it in integers (each
// division truncates), so it may differ from the real-valued form by a unit or two.
#pragma once

#include <papan/core/position.hpp>
#include <papan/engine/weights.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

namespace papan::engine {

struct EvalLayoutInfo {
    std::size_t terms          = 0;  // scalar terms, pairs 0 .. terms-1
    std::size_t squares        = 0;  // piece-square pairs: men, then kings, `squares` each
    std::size_t first_region   = 0;  // first pair of the pattern regions
    std::size_t regions        = 0;  // pattern regions, `region_entries` pairs each
    std::size_t region_entries = 0;
    std::size_t weight_count   = 0;  // numbers in a weight set (two per pair)
    std::uint32_t id           = 0;  // written into weight files
    int fine_units             = 8;  // weight units per hundredth of a man
    std::span<const std::string_view> term_names;
};

[[nodiscard]] EvalLayoutInfo eval_layout(core::VariantId variant) noexcept;

struct EvalFeatures {
    struct Entry {
        std::uint32_t pair = 0;  // weights 2 * pair (middle game) and 2 * pair + 1 (endgame)
        std::int32_t coef  = 0;
    };

    static constexpr std::size_t kCapacity = 128;
    std::array<Entry, kCapacity> entries{};
    std::size_t count = 0;
    int phase         = 0;  // p
    int phase_total   = 1;  // P
    int scale_white   = 16;
    int scale_black   = 16;
};

// The features of `pos` (any consistent position of its variant).
void eval_features(const core::Position& pos, EvalFeatures& out) noexcept;

// The static evaluation, hundredths of a man, side to move's view. Null weights, or weights of
// another variant: the compiled-in set of pos.variant. The search calls the same code.
[[nodiscard]] int static_eval(const core::Position& pos,
                              const EvalWeights* weights = nullptr) noexcept;

// The hand-set starting point of a fit: material and the scalar terms set by hand, every
// pattern entry zero.
[[nodiscard]] std::vector<std::int16_t> initial_weights(core::VariantId variant);

}  // namespace papan::engine
