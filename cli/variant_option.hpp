// Shared helpers of the subcommands: variant lookup, the --fen position and JSON of moves.
#pragma once

#include "commands.hpp"

#include <papan/core/move.hpp>
#include <papan/core/position.hpp>

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace papan::cli {

// The variant for a --variant value, or nullopt after fail() with an error that lists the ids.
[[nodiscard]] std::optional<core::VariantId> lookup_variant(CommandContext& ctx,
                                                            const std::string& key);

// A --fen value, or the variant's start position when it is empty.
[[nodiscard]] std::string fen_or_start(core::VariantId v, const std::string& fen);

// The position of a FEN, or nullopt after fail() with the reader's error.
[[nodiscard]] std::optional<core::Position>
parse_position(CommandContext& ctx, core::VariantId v, const std::string& fen);

// {"from":32,"to":28,"path":[32,28],"captures":[],"text":"32-28"}
[[nodiscard]] nlohmann::ordered_json
move_json(const core::Position& pos, const core::Move& m, const core::MoveList& legal);

// The moves ordered by their landing path in square numbers (stable, readable output).
[[nodiscard]] std::vector<const core::Move*> sorted_moves(const core::Position& pos,
                                                          const core::MoveList& legal);

}  // namespace papan::cli
