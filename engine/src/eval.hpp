// Static evaluation, one template per variant (the board family picks the terms and the
// pattern layout, eval/layout.hpp). The score is in hundredths of a man from the side to move's
// point of view. Precondition of the search's use: the side to move has no capture (a capture
// position is never evaluated statically, except by the Easy level's shortened quiescence), and
// `weights` is a set of pos.variant. Terms, layout and training: docs/engine.md.
#pragma once

#include <papan/core/position.hpp>
#include <papan/core/types.hpp>
#include <papan/engine/weights.hpp>

namespace papan::engine::detail {

template <core::VariantId V>
[[nodiscard]] int evaluate(const core::Position& pos, const EvalWeights& weights) noexcept;

}  // namespace papan::engine::detail
