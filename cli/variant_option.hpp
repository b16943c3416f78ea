// Shared helpers of the subcommands: variant lookup and JSON of moves.
#pragma once

#include <papan/core/move.hpp>
#include <papan/core/position.hpp>

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace papan::cli {

// The variant for a --variant value, or nullopt after printing an error that lists the ids.
[[nodiscard]] std::optional<core::VariantId> lookup_variant(const std::string& key,
                                                            std::string& error);

// {"from":32,"to":28,"path":[32,28],"captures":[],"text":"32-28"}
[[nodiscard]] nlohmann::ordered_json
move_json(const core::Position& pos, const core::Move& m, const core::MoveList& legal);

// The moves ordered by their landing path in square numbers (stable, readable output).
[[nodiscard]] std::vector<const core::Move*> sorted_moves(const core::Position& pos,
                                                          const core::MoveList& legal);

}  // namespace papan::cli
