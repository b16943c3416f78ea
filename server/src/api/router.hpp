// The HTTP routes as a table (docs/protocol.md, "HTTP", lists the same patterns; the doc test
// reads this table). A pattern is a path of literal segments, `{name}` segments (any one
// segment, handed to the handler in order) and a final `{name*}` (the rest of the path).
#pragma once

#include "api/api.hpp"

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace papan::server {

using RouteArgs = std::vector<std::string>;
using Handler   = void (*)(ApiContext& ctx, const Request& req, const RouteArgs& args, Reply reply);

struct Route {
    Method method;
    std::string_view pattern;
    Handler handler;
};

[[nodiscard]] std::span<const Route> http_routes();
[[nodiscard]] std::string_view method_name(Method m) noexcept;

// The route of a checked request and its arguments; nullptr when none matches its path (405 is
// for a path that matches with another method: `path_known` tells).
[[nodiscard]] const Route*
match_route(const Request& req, RouteArgs& args, bool& path_known, std::string& allow);

}  // namespace papan::server
