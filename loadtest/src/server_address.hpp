// A server node named by --url, resolved once before the run.
#pragma once

#include "asio_types.hpp"

#include <papan/loadtest/options.hpp>

#include <string>
#include <vector>

namespace papan::loadtest {

struct ServerAddress {
    Url url;
    tcp::resolver::results_type endpoints;
};

// Parses and resolves every URL; throws std::runtime_error naming the first that fails.
[[nodiscard]] std::vector<ServerAddress> resolve_servers(const std::vector<std::string>& urls,
                                                         net::io_context& ioc);

}  // namespace papan::loadtest
