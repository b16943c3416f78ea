// The messages the tool sends (docs/protocol.md): each a JSON object, dumped as one text frame.
#pragma once

#include "asio_types.hpp"

#include <papan/loadtest/options.hpp>

#include <cstdint>
#include <string>

namespace papan::loadtest {

// A guest says hello; with the secret of its first welcome it is the same player again.
[[nodiscard]] Json hello_message(const std::string& name, const std::string& secret);

// A new game of the run's mode; a friend game's creator plays white in even slots, black in odd
// ones, without a clock (the time a killed server is down then costs nothing); against the
// computer the tool plays white at the run's level (the computer opens where black starts).
[[nodiscard]] Json create_message(std::int64_t id, const Options& options, int slot);

[[nodiscard]] Json join_message(std::int64_t id, const std::string& invite);

// Resume with the last version seen (the missed events come back), or without (the state).
[[nodiscard]] Json resume_message(std::int64_t id,
                                  const std::string& game,
                                  bool with_version,
                                  std::int64_t last_version);

[[nodiscard]] Json
move_message(std::int64_t id, const std::string& game, int ply, const Json& path);

}  // namespace papan::loadtest
