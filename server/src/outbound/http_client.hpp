// Outgoing HTTP requests: the server's calls to an OpenID Connect provider (discovery, keys,
// token endpoint) and to Telegram's Bot API. HTTPS through Boost.Beast over OpenSSL, the
// certificate checked against the system's trust store and the host name; plain http:// only to a
// loopback address (the tests' local stand-ins, a local proxy), so a secret never crosses the
// network in clear text. Each request has a deadline for the whole exchange and a cap on the
// answer's size. A call blocks its thread: callers run it on a pool of their own (OutboundPool).
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace papan::server {

struct OutboundRequest {
    std::string method = "GET";
    std::string url;  // http://loopback[:port]/... or https://host[:port]/...
    std::string body;
    std::string content_type;  // of the body
    std::vector<std::pair<std::string, std::string>> headers;
    std::chrono::milliseconds timeout{10'000};  // the whole exchange
    std::size_t max_body = 1 << 20;             // a longer answer is an error
};

struct OutboundResponse {
    unsigned status = 0;
    std::string body;
    std::string content_type;
};

// A request that got no HTTP answer: a URL refused, a name not resolved, no connection, a failed
// TLS handshake or certificate, the deadline passed, an answer too large or not HTTP. Its text
// is for the log, never for a client.
class OutboundError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// Sends the request and reads the answer (any status). Throws OutboundError.
[[nodiscard]] OutboundResponse fetch(const OutboundRequest& request);

// What the sign-in and the bot call to reach the outside: `fetch` in the server, a stand-in in
// unit tests.
using Fetcher = std::function<OutboundResponse(const OutboundRequest&)>;

// application/x-www-form-urlencoded of the pairs (RFC 3986 unreserved characters kept).
[[nodiscard]] std::string
form_encode(const std::vector<std::pair<std::string, std::string>>& pairs);
// One value percent-encoded the same way.
[[nodiscard]] std::string percent_encode(std::string_view s);

}  // namespace papan::server
