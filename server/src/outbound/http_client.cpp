#include "outbound/http_client.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl/context.hpp>
#include <boost/asio/ssl/host_name_verification.hpp>
#include <boost/asio/ssl/stream.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http/parser.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/string_body.hpp>
#include <boost/beast/http/write.hpp>
#include <boost/beast/ssl/ssl_stream.hpp>
#include <boost/url/parse.hpp>

#include <exception>
#include <openssl/ssl.h>
#include <optional>

namespace papan::server {

namespace net   = boost::asio;
namespace ssl   = net::ssl;
namespace beast = boost::beast;
namespace http  = beast::http;
using tcp       = net::ip::tcp;

namespace {

struct Target {
    bool tls = false;
    std::string host;
    std::string port;
    std::string path;  // path and query
};

bool loopback(const boost::urls::url_view& u) {
    if (u.host_type() == boost::urls::host_type::ipv4) {
        return u.host_ipv4_address().is_loopback();
    }
    if (u.host_type() == boost::urls::host_type::ipv6) {
        return u.host_ipv6_address().is_loopback();
    }
    return u.host() == "localhost";
}

Target parse_target(const std::string& url) {
    const auto parsed = boost::urls::parse_absolute_uri(url);
    if (!parsed) {
        throw OutboundError("not an absolute URL: " + url);
    }
    const auto& u = *parsed;
    Target t;
    if (u.scheme() == "https") {
        t.tls = true;
    } else if (u.scheme() != "http" || !loopback(u)) {
        throw OutboundError("only https:// (or http:// to a loopback address) is allowed: " + url);
    }
    if (u.has_userinfo() || u.encoded_host().empty()) {
        throw OutboundError("a URL without a host, or with credentials in it: " + url);
    }
    t.host = u.host_type() == boost::urls::host_type::ipv6 ? u.host_ipv6_address().to_string()
                                                           : std::string(u.host());
    t.port = u.has_port() ? std::string(u.port()) : (t.tls ? "443" : "80");
    t.path = u.encoded_path().empty() ? "/" : std::string(u.encoded_path());
    if (u.has_query()) {
        t.path += "?";
        t.path += std::string(u.encoded_query());
    }
    return t;
}

http::request<http::string_body> make_request(const OutboundRequest& r, const Target& t) {
    http::request<http::string_body> req;
    req.method_string(r.method);
    req.target(t.path);
    req.version(11);
    const bool default_port = t.port == (t.tls ? "443" : "80");
    req.set(http::field::host, default_port ? t.host : t.host + ":" + t.port);
    req.set(http::field::user_agent, "papan");
    req.set(http::field::accept, "application/json");
    req.set(http::field::connection, "close");
    for (const auto& [k, v] : r.headers) {
        req.set(k, v);
    }
    if (!r.body.empty() || r.method == "POST") {
        if (!r.content_type.empty()) {
            req.set(http::field::content_type, r.content_type);
        }
        req.body() = r.body;
        req.prepare_payload();
    }
    return req;
}

template <class Stream>
net::awaitable<void> exchange(Stream& stream,
                              http::request<http::string_body>& req,
                              http::response_parser<http::string_body>& parser) {
    co_await http::async_write(stream, req, net::use_awaitable);
    beast::flat_buffer buffer;
    co_await http::async_read(stream, buffer, parser, net::use_awaitable);
}

net::awaitable<void> run(const OutboundRequest& r,
                         const Target& t,
                         ssl::context* tls,
                         http::response_parser<http::string_body>& parser) {
    auto executor = co_await net::this_coro::executor;
    tcp::resolver resolver(executor);
    const auto endpoints = co_await resolver.async_resolve(t.host, t.port, net::use_awaitable);
    auto req             = make_request(r, t);
    if (tls == nullptr) {
        beast::tcp_stream stream(executor);
        stream.expires_after(r.timeout);
        co_await stream.async_connect(endpoints, net::use_awaitable);
        co_await exchange(stream, req, parser);
        co_return;
    }
    beast::ssl_stream<beast::tcp_stream> stream(executor, *tls);
    beast::get_lowest_layer(stream).expires_after(r.timeout);
    // SNI: the name the server is asked for; the certificate must be for that name.
    // SSL_set_tlsext_host_name without its macro's C cast.
    if (SSL_ctrl(stream.native_handle(),
                 SSL_CTRL_SET_TLSEXT_HOSTNAME,
                 TLSEXT_NAMETYPE_host_name,
                 const_cast<char*>(t.host.c_str())) != 1) {
        throw OutboundError("TLS: could not set the server name");
    }
    stream.set_verify_mode(ssl::verify_peer);
    stream.set_verify_callback(ssl::host_name_verification(t.host));
    co_await beast::get_lowest_layer(stream).async_connect(endpoints, net::use_awaitable);
    co_await stream.async_handshake(ssl::stream_base::client, net::use_awaitable);
    co_await exchange(stream, req, parser);
    // No TLS close_notify: the answer is read whole and the connection is not reused.
}

}  // namespace

OutboundResponse fetch(const OutboundRequest& request) {
    const Target target = parse_target(request.url);
    std::optional<ssl::context> tls;
    if (target.tls) {
        tls.emplace(ssl::context::tls_client);
        tls->set_default_verify_paths();
        tls->set_verify_mode(ssl::verify_peer);
    }
    http::response_parser<http::string_body> parser;
    parser.body_limit(request.max_body);
    parser.header_limit(64 * 1024);
    net::io_context ioc(1);
    std::exception_ptr failure;
    bool done = false;
    net::co_spawn(
        ioc, run(request, target, tls ? &*tls : nullptr, parser), [&](std::exception_ptr e) {
            failure = std::move(e);
            done    = true;
        });
    // The streams' deadlines cover connecting, the handshake and the exchange; name resolution
    // has none of its own, so the whole run has one too.
    ioc.run_for(request.timeout + std::chrono::seconds(1));
    if (!done) {
        ioc.stop();
        throw OutboundError("no answer from " + target.host + " in time");
    }
    if (failure) {
        try {
            std::rethrow_exception(failure);
        } catch (const OutboundError&) {
            throw;
        } catch (const std::exception& e) {
            throw OutboundError(target.host + ": " + e.what());
        }
    }
    auto res = parser.release();
    OutboundResponse out;
    out.status       = res.result_int();
    out.content_type = std::string(res[http::field::content_type]);
    out.body         = std::move(res.body());
    return out;
}

std::string percent_encode(std::string_view s) {
    static constexpr char kHex[] = "0123456789ABCDEF";
    std::string out;
    out.reserve(s.size());
    for (const char ch : s) {
        const auto c = static_cast<unsigned char>(ch);
        if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
            c == '-' || c == '.' || c == '_' || c == '~') {
            out += ch;
        } else {
            out += '%';
            out += kHex[c >> 4];
            out += kHex[c & 15];
        }
    }
    return out;
}

std::string form_encode(const std::vector<std::pair<std::string, std::string>>& pairs) {
    std::string out;
    for (const auto& [k, v] : pairs) {
        if (!out.empty()) {
            out += '&';
        }
        out += percent_encode(k);
        out += '=';
        out += percent_encode(v);
    }
    return out;
}

}  // namespace papan::server
