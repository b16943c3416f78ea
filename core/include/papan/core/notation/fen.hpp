// FEN (PDN 3.0): "SIDE:WLIST:BLIST". Read liberally: ranges "31-50", king prefixes "K", empty
// sides, a trailing dot, lidraughts' ":H<n>:F<n>" suffix, algebraic squares on 8x8 boards,
// either colour list first. Written strictly: W list then B list, ascending, no ranges.
#pragma once

#include <papan/core/expected.hpp>
#include <papan/core/position.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace papan::core {

struct FenInfo {
    Position position;
    std::optional<int> halfmove_clock;   // lidraughts :H
    std::optional<int> fullmove_number;  // lidraughts :F
    std::vector<int> crowned;            // men read as kings (FenReadOptions), square numbers
};

struct FenReadOptions {
    // Problem collections set men on their own promotion row. By default that is an error (such
    // a man would have been crowned); with this option the man is read as a king.
    bool crown_men_on_promotion_row = false;
};

// Parses a FEN for the given variant. Errors name what is wrong and where.
[[nodiscard]] Expected<FenInfo> parse_fen_info(VariantId v, std::string_view fen);
[[nodiscard]] Expected<FenInfo>
parse_fen_info(VariantId v, std::string_view fen, const FenReadOptions& options);
[[nodiscard]] Expected<Position> parse_fen(VariantId v, std::string_view fen);
[[nodiscard]] Expected<Position>
parse_fen(VariantId v, std::string_view fen, const FenReadOptions& options);

[[nodiscard]] std::string to_fen(const Position& pos);

}  // namespace papan::core
