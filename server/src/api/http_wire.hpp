// HTTP on the wire (Beast's message types, no sockets): a parsed request handed to the API, the
// answer to a request that did not parse, and the response as written, with the headers every
// response carries (docs/protocol.md, "HTTP": CSP, X-Content-Type-Options, Referrer-Policy).
// net/ and the HTTP fuzz target (fuzz/http_request_fuzz.cpp) use the same functions.
#pragma once

#include "api/http.hpp"

#include <boost/beast/http/message.hpp>
#include <boost/beast/http/string_body.hpp>
#include <boost/system/error_code.hpp>

#include <string>

namespace papan::server {

using WireRequest  = boost::beast::http::request<boost::beast::http::string_body>;
using WireResponse = boost::beast::http::response<boost::beast::http::string_body>;

inline constexpr std::size_t kMaxHeaderBytes = 16 * 1024;

// The Content-Security-Policy every response carries (a handler may replace it).
[[nodiscard]] std::string_view content_security_policy() noexcept;

[[nodiscard]] HttpRequest from_wire(const WireRequest& req, std::string remote);
// 400 (malformed: a bad Content-Length, bad syntax), 413 (body too large) or 431 (headers too
// large); the connection is closed after it.
[[nodiscard]] HttpResponse for_parse_error(const boost::system::error_code& ec);
[[nodiscard]] WireResponse to_wire(HttpResponse res, unsigned version, bool keep_alive, bool head);

}  // namespace papan::server
