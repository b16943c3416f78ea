// RequestReader: one HTTP/1.1 request read off a byte stream the way RFC 9112 asks a server to,
// before any handler sees it. The transport (net/server.cpp) and the HTTP fuzz target
// feed it the same bytes; it touches no socket.
//
// 1. The head: the bytes up to the first blank line, at most kMaxHeaderBytes. Too long: 414
//    when the request line alone is over the target limit (the edge's kMaxTargetBytes), else
//    431. A folded header line (obs-fold: a line starting with a space or a tab) is 400.
// 2. Beast parses the head (bad syntax, a bad or repeated Content-Length: 400).
// 3. Framing: an HTTP/1.1 request without exactly one Host header, or any request with two, is
//    400; a Transfer-Encoding other than exactly `chunked`, or one together with a
//    Content-Length, is 400 (the body's length is not known for sure: request smuggling behind a
//    proxy); a Content-Length over the route's body limit is 413.
// 4. The body, up to that limit (413 beyond it).
//
// Every refusal is answered and then the connection is closed: after it the stream cannot be
// trusted to find the next request. Bytes after the request (a pipelined next one) are left
// unread for the next reader.
#pragma once

#include "api/http.hpp"
#include "api/http_wire.hpp"

#include <boost/beast/http/parser.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace papan::server {

// The largest body the transport reads for a request of this method and target, known from its
// head: `fallback` (--max-message-bytes), more for POST /api/import (1 MiB).
[[nodiscard]] std::size_t
body_limit_for(std::string_view method, std::string_view target, std::size_t fallback);

class RequestReader {
public:
    enum class Status : std::uint8_t {
        NeedMore,  // give it more bytes
        Done,      // request() is complete
        Refused,   // answer refusal() and close the connection
    };

    // `max_body`: the body limit of every route but those body_limit_for raises.
    explicit RequestReader(std::size_t max_body);

    // Takes bytes of the stream; returns how many it used (the rest belong to the next request,
    // or were not needed because the request was refused).
    std::size_t put(std::string_view bytes);
    // The stream ended (the peer closed): a request cut short is refused, none at all is not.
    void put_eof();

    [[nodiscard]] Status status() const noexcept { return status_; }

    // Whether any byte of a request came (a connection closed between requests is quiet).
    [[nodiscard]] bool started() const noexcept { return !head_.empty(); }

    [[nodiscard]] const HttpResponse& refusal() const noexcept { return refusal_; }

    // The request, once Done.
    [[nodiscard]] WireRequest release() { return parser_.release(); }

private:
    std::size_t put_head(std::string_view bytes);
    std::size_t put_body(std::string_view bytes);
    void refuse(HttpResponse r);
    // Checks of the parsed head (Host, Transfer-Encoding, the body limit); false when refused.
    bool check_framing();

    std::size_t max_body_;
    std::string head_;
    bool in_body_  = false;
    Status status_ = Status::NeedMore;
    HttpResponse refusal_;
    boost::beast::http::request_parser<boost::beast::http::string_body> parser_;
};

// The answer to a head that reached kMaxHeaderBytes without its blank line: 414 when the
// request line is longer than the target limit (or has not ended), 431 otherwise.
[[nodiscard]] HttpResponse head_too_large(std::string_view head);

}  // namespace papan::server
