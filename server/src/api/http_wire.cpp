#include "api/http_wire.hpp"

#include <boost/beast/http/error.hpp>
#include <boost/beast/http/field.hpp>

namespace papan::server {

namespace http = boost::beast::http;

namespace {

// The page may load only its own scripts, styles and images, talk only to its own origin
// (WebSocket included), and never be framed (click-jacking of the resign button).
constexpr std::string_view kCsp =
    "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; connect-src 'self' ws: wss:; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'";

bool has_header(const HttpResponse& r, std::string_view name) {
    for (const auto& [k, v] : r.headers) {
        if (boost::beast::iequals(k, name)) {
            return true;
        }
    }
    return false;
}

}  // namespace

std::string_view content_security_policy() noexcept {
    return kCsp;
}

HttpRequest from_wire(const WireRequest& req, std::string remote) {
    return HttpRequest{std::string(req.method_string()),
                       std::string(req.target()),
                       req.body(),
                       std::string(req[http::field::authorization]),
                       std::string(req[http::field::accept_encoding]),
                       std::string(req[http::field::if_none_match]),
                       std::move(remote),
                       std::string(req[http::field::cookie]),
                       std::string(req[http::field::host]),
                       std::string(req["X-Telegram-Bot-Api-Secret-Token"])};
}

HttpResponse for_parse_error(const boost::system::error_code& ec) {
    if (ec == http::error::header_limit) {
        return error_response(431, "headers_too_large", "the request headers are too large");
    }
    if (ec == http::error::body_limit) {
        return error_response(413, "body_too_large", "the request body is too large");
    }
    return error_response(400, "bad_request", "the request is not valid HTTP/1.1");
}

WireResponse to_wire(HttpResponse res, unsigned version, bool keep_alive, bool head) {
    WireResponse out{static_cast<http::status>(res.status), version};
    out.set(http::field::server, "papan");
    if (res.status != 304) {
        out.set(http::field::content_type, res.content_type);
    }
    if (!has_header(res, "Cache-Control")) {
        out.set(http::field::cache_control, "no-store");
    }
    out.set("Content-Security-Policy", kCsp);
    out.set("X-Content-Type-Options", "nosniff");
    out.set("Referrer-Policy", "no-referrer");
    out.set("X-Frame-Options", "DENY");
    for (const auto& [k, v] : res.headers) {
        if (v.empty()) {
            out.erase(k);  // a handler's way to drop a default header
        } else {
            out.set(k, v);
        }
    }
    out.keep_alive(keep_alive);
    if (!head && res.status != 304) {
        out.body() = std::move(res.body);
    }
    out.prepare_payload();
    if (head) {
        // HEAD: the length GET would have, without the body.
        out.content_length(res.body.size());
    }
    return out;
}

}  // namespace papan::server
