#include "support/log.hpp"

#include <cstdio>
#include <string>

namespace papan::server {

void log_line(std::string_view context, std::string_view message) {
    std::string line;
    line.reserve(context.size() + message.size() + 4);
    line += '[';
    line += context;
    line += "] ";
    line += message;
    line += '\n';
    std::fwrite(line.data(), 1, line.size(), stderr);
}

}  // namespace papan::server
