#include "api/edge.hpp"

#include "support/text.hpp"

#include <boost/url/parse.hpp>

namespace papan::server {

namespace {

HttpResponse bad(std::string_view code, std::string_view message) {
    return error_response(400, code, message);
}

bool clean_text(std::string_view s) {
    return valid_utf8(s) && !has_control(s);
}

bool printable_ascii(std::string_view s) {
    for (const char ch : s) {
        const auto c = static_cast<unsigned char>(ch);
        if ((c < 0x20 && c != '\t') || c >= 0x7F) {
            return false;
        }
    }
    return true;
}

}  // namespace

HttpResponse json_response(unsigned status, const nlohmann::json& body) {
    HttpResponse r;
    r.status = status;
    // Replacement of invalid UTF-8 rather than an exception: a handler's text is ours, but a
    // stored name from an older version might not be.
    r.body = body.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    return r;
}

HttpResponse error_response(unsigned status, std::string_view code, std::string_view message) {
    return json_response(status, nlohmann::json{{"error", code}, {"message", message}});
}

HttpResponse internal_error_response() {
    return error_response(500, "internal", "the server could not answer this request");
}

std::variant<Request, HttpResponse> check_request(const HttpRequest& raw) {
    Request out;
    if (raw.method == "GET" || raw.method == "HEAD") {
        out.method = Method::Get;
    } else if (raw.method == "POST") {
        out.method = Method::Post;
    } else {
        auto r = error_response(405, "method_not_allowed", "only GET, HEAD and POST are served");
        r.headers.emplace_back("Allow", "GET, HEAD, POST");
        return r;
    }
    if (raw.target.size() > kMaxTargetBytes) {
        return error_response(414, "target_too_long", "the request target is too long");
    }
    const auto parsed = boost::urls::parse_origin_form(raw.target);
    if (!parsed) {
        return bad("bad_target", "the request target is not a valid path and query");
    }
    const auto& url = *parsed;
    for (const auto& segment : url.segments()) {
        const std::string s = segment;
        if (!clean_text(s)) {
            return bad("bad_path", "the path is not valid UTF-8 text");
        }
        if (s == "." || s == ".." || s.find('/') != std::string::npos ||
            s.find('\\') != std::string::npos) {
            return bad("bad_path", "the path has a '.', '..', '/' or '\\' segment");
        }
        out.segments.push_back(s);
        out.path += '/';
        out.path += s;
    }
    if (out.path.empty()) {
        out.path.assign(1, '/');
    }
    if (url.has_query()) {
        std::size_t n = 0;
        for (const auto& p : url.params()) {
            if (++n > kMaxQueryParams) {
                return bad("bad_query", "too many query parameters");
            }
            if (!clean_text(p.key) || !clean_text(p.value)) {
                return bad("bad_query",
                           "a query parameter is not valid UTF-8 text (or has control characters)");
            }
            if (out.query.contains(p.key)) {
                return bad("bad_query", "a query parameter is repeated");
            }
            out.query.emplace(p.key, p.value);
        }
    }
    for (const auto* header : {&raw.authorization,
                               &raw.accept_encoding,
                               &raw.if_none_match,
                               &raw.cookie,
                               &raw.host,
                               &raw.telegram_secret}) {
        if (header->size() > kMaxHeaderValue) {
            return error_response(431, "header_too_large", "a header's value is over 4 KiB");
        }
        if (!printable_ascii(*header)) {
            return bad("bad_header", "a header has characters outside printable ASCII");
        }
    }
    constexpr std::string_view kBearer = "Bearer ";
    if (raw.authorization.rfind(kBearer, 0) == 0) {
        out.bearer = raw.authorization.substr(kBearer.size());
    }
    // A guest's browser secret (the one `hello` gave it), for the puzzles' ratings.
    constexpr std::string_view kGuest = "Guest ";
    if (raw.authorization.rfind(kGuest, 0) == 0) {
        const auto secret = std::string_view(raw.authorization).substr(kGuest.size());
        if (secret.size() == 32 &&
            secret.find_first_not_of("0123456789abcdef") == std::string_view::npos) {
            out.guest = std::string(secret);
        }
    }
    out.accept_encoding = raw.accept_encoding;
    out.if_none_match   = raw.if_none_match;
    out.body            = raw.body;
    out.remote          = raw.remote;
    out.cookie          = raw.cookie;
    out.host            = raw.host;
    out.telegram_secret = raw.telegram_secret;
    return out;
}

}  // namespace papan::server
