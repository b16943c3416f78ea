// Logging: one line per event on stderr, with a context prefix ("[room 3f2a..] ..."). Lines are
// written with a single write call so threads do not interleave within a line.
#pragma once

#include <string_view>

namespace papan::server {

void log_line(std::string_view context, std::string_view message);

}  // namespace papan::server
