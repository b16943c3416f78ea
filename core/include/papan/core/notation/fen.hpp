// FEN (PDN 3.0): "SIDE:WLIST:BLIST". Read liberally: ranges "31-50", king prefixes "K", empty
// sides, a trailing dot, lidraughts' ":H<n>:F<n>" suffix, algebraic squares on 8x8 boards,
// either colour list first. Written strictly: W list then B list, ascending, no ranges.
#pragma once

#include <papan/core/expected.hpp>
#include <papan/core/position.hpp>

#include <optional>
#include <string>
#include <string_view>

namespace papan::core {

struct FenInfo {
    Position position;
    std::optional<int> halfmove_clock;   // lidraughts :H
    std::optional<int> fullmove_number;  // lidraughts :F
};

// Parses a FEN for the given variant. Errors name what is wrong and where.
[[nodiscard]] Expected<FenInfo> parse_fen_info(VariantId v, std::string_view fen);
[[nodiscard]] Expected<Position> parse_fen(VariantId v, std::string_view fen);

[[nodiscard]] std::string to_fen(const Position& pos);

}  // namespace papan::core
