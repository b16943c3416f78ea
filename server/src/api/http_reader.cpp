#include "api/http_reader.hpp"

#include "api/edge.hpp"
#include "api/pdn_import.hpp"

#include <boost/asio/buffer.hpp>
#include <boost/beast/core/string.hpp>
#include <boost/beast/http/error.hpp>
#include <boost/beast/http/field.hpp>

#include <algorithm>

namespace papan::server {

namespace http = boost::beast::http;

namespace {

// The end of the head (just past its blank line) in `s`, searching from `from` (a few bytes
// back, so a terminator split between two reads is found); 0 when it is not there yet. A bare
// LF line end is accepted here only to hand it to Beast, which refuses it.
std::size_t head_end(std::string_view s, std::size_t from) {
    for (std::size_t i = from > 3 ? from - 3 : 0; i < s.size(); ++i) {
        if (s[i] != '\n') {
            continue;
        }
        if (i + 1 < s.size() && s[i + 1] == '\n') {
            return i + 2;
        }
        if (i + 2 < s.size() && s[i + 1] == '\r' && s[i + 2] == '\n') {
            return i + 3;
        }
    }
    return 0;
}

// A header line that continues the one before (obs-fold, RFC 9112 section 5.2).
bool has_folded_line(std::string_view head) {
    for (std::size_t i = head.find('\n'); i != std::string_view::npos && i + 1 < head.size();
         i             = head.find('\n', i + 1)) {
        if (head[i + 1] == ' ' || head[i + 1] == '\t') {
            return true;
        }
    }
    return false;
}

HttpResponse bad_request(std::string_view message) {
    return error_response(400, "bad_request", message);
}

}  // namespace

std::size_t body_limit_for(std::string_view method, std::string_view target, std::size_t fallback) {
    const auto path = target.substr(0, target.find('?'));
    return method == "POST" && path == "/api/import" ? std::max(fallback, kMaxImportBytes)
                                                     : fallback;
}

HttpResponse head_too_large(std::string_view head) {
    const auto line_end = head.find('\n');
    if (line_end == std::string_view::npos || line_end > kMaxTargetBytes + 32) {
        return error_response(414, "target_too_long", "the request target is too long");
    }
    return error_response(431, "headers_too_large", "the request headers are too large");
}

RequestReader::RequestReader(std::size_t max_body) : max_body_(max_body) {
    parser_.header_limit(static_cast<std::uint32_t>(kMaxHeaderBytes + 4));
    parser_.body_limit(boost::none);  // set from the route once the head is in
}

void RequestReader::refuse(HttpResponse r) {
    status_  = Status::Refused;
    refusal_ = std::move(r);
}

std::size_t RequestReader::put(std::string_view bytes) {
    if (status_ != Status::NeedMore) {
        return 0;
    }
    return in_body_ ? put_body(bytes) : put_head(bytes);
}

std::size_t RequestReader::put_head(std::string_view bytes) {
    const std::size_t before = head_.size();
    // Room for the longest head and its blank line; a longer one is refused below.
    const std::size_t room = kMaxHeaderBytes + 4 - before;
    head_.append(bytes.substr(0, room));
    const std::size_t end = head_end(head_, before);
    if (end == 0) {
        if (head_.size() > kMaxHeaderBytes) {
            refuse(head_too_large(head_));
        }
        return std::min(bytes.size(), room);
    }
    head_.resize(end);
    const std::size_t used = end - before;
    if (has_folded_line(head_)) {
        refuse(bad_request("a header line is folded (obs-fold)"));
        return used;
    }
    boost::system::error_code ec;
    const auto n = parser_.put(boost::asio::buffer(head_.data(), head_.size()), ec);
    if (!ec && (n != head_.size() || !parser_.is_header_done())) {
        ec = http::error::bad_line_ending;  // Beast stopped inside what ends a head
    }
    if (ec) {
        refuse(for_parse_error(ec));
        return used;
    }
    if (!check_framing()) {
        return used;
    }
    if (parser_.is_done()) {
        status_ = Status::Done;
        return used;
    }
    in_body_ = true;
    return used + put_body(bytes.substr(used));
}

bool RequestReader::check_framing() {
    const auto& req  = parser_.get();
    const auto hosts = req.count(http::field::host);
    if (hosts > 1 || (hosts == 0 && req.version() >= 11)) {
        refuse(bad_request("an HTTP/1.1 request needs exactly one Host header"));
        return false;
    }
    if (req.count(http::field::transfer_encoding) > 0) {
        // Only `chunked` alone is understood; with a Content-Length as well the length of the
        // body is ambiguous (RFC 9112 section 6.3).
        const auto te = req[http::field::transfer_encoding];
        if (req.count(http::field::transfer_encoding) > 1 ||
            !boost::beast::iequals(te, "chunked") || req.count(http::field::content_length) > 0) {
            refuse(bad_request("the request's Transfer-Encoding is not a plain 'chunked' one"));
            return false;
        }
    }
    const auto limit =
        body_limit_for(std::string_view(req.method_string().data(), req.method_string().size()),
                       std::string_view(req.target().data(), req.target().size()),
                       max_body_);
    if (const auto length = parser_.content_length(); length && *length > limit) {
        refuse(for_parse_error(http::error::body_limit));
        return false;
    }
    parser_.body_limit(limit);
    return true;
}

std::size_t RequestReader::put_body(std::string_view bytes) {
    std::size_t used = 0;
    while (used < bytes.size() && !parser_.is_done()) {
        boost::system::error_code ec;
        const auto n =
            parser_.put(boost::asio::buffer(bytes.data() + used, bytes.size() - used), ec);
        used += n;
        if (ec == http::error::need_more) {
            break;
        }
        if (ec) {
            refuse(for_parse_error(ec));
            return used;
        }
        if (n == 0) {
            break;
        }
    }
    if (parser_.is_done()) {
        status_ = Status::Done;
    }
    return used;
}

void RequestReader::put_eof() {
    if (status_ != Status::NeedMore || head_.empty()) {
        return;
    }
    if (in_body_) {
        boost::system::error_code ec;
        parser_.put_eof(ec);
        if (!ec && parser_.is_done()) {
            status_ = Status::Done;
            return;
        }
    }
    refuse(bad_request("the request ended before it was complete"));
}

}  // namespace papan::server
