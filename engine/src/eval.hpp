// Static evaluation, one template per variant (the board family picks the terms). The score is
// in hundredths of a man from the side to move's point of view. Precondition of the search's
// use: the side to move has no capture (a capture position is never evaluated statically,
// except by the Easy level's shortened quiescence). Weights are documented in docs/engine.md.
#pragma once

#include <papan/core/position.hpp>
#include <papan/core/types.hpp>

namespace papan::engine::detail {

template <core::VariantId V>
[[nodiscard]] int evaluate(const core::Position& pos) noexcept;

// Run-time dispatch (tests, tools); the search calls evaluate<V> directly.
[[nodiscard]] int evaluate(const core::Position& pos) noexcept;

// Material value of a king for the variant (a man = 100).
[[nodiscard]] int king_value(core::VariantId v) noexcept;

}  // namespace papan::engine::detail
