// The edge: the one place that percent-decodes and checks every request target, query and
// header the handlers see (Boost.URL). Whatever the bytes, the answer is a Request or a 4xx
// response with {"error","message"}; nothing throws.
#pragma once

#include "api/http.hpp"

#include <variant>

namespace papan::server {

inline constexpr std::size_t kMaxTargetBytes = 4096;
inline constexpr std::size_t kMaxQueryParams = 16;
inline constexpr std::size_t kMaxHeaderValue = 4096;

[[nodiscard]] std::variant<Request, HttpResponse> check_request(const HttpRequest& raw);

}  // namespace papan::server
