#include "stored_moves.hpp"

#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http/empty_body.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/string_body.hpp>
#include <boost/beast/http/write.hpp>

namespace papan::loadtest {

namespace {

namespace http = beast::http;

// GET /api/games/{id} from one server: the stored move texts, or nullopt.
std::optional<std::vector<std::string>> fetch_from(const ServerAddress& server,
                                                   const std::string& id) {
    net::io_context ioc;
    beast::tcp_stream stream(ioc);
    http::request<http::empty_body> req{http::verb::get, "/api/games/" + id, 11};
    req.set(http::field::host, server.url.host + ":" + server.url.port);
    http::response<http::string_body> res;
    beast::flat_buffer buf;
    bool ok = false;
    stream.expires_after(std::chrono::seconds(10));
    stream.async_connect(server.endpoints, [&](beast::error_code ec, const tcp::endpoint&) {
        if (ec) {
            return;
        }
        http::async_write(stream, req, [&](beast::error_code ew, std::size_t) {
            if (ew) {
                return;
            }
            http::async_read(
                stream, buf, res, [&](beast::error_code er, std::size_t) { ok = !er; });
        });
    });
    ioc.run();
    beast::error_code ignored;
    stream.socket().shutdown(tcp::socket::shutdown_both, ignored);
    if (!ok || res.result_int() != 200) {
        return std::nullopt;
    }
    const Json j = Json::parse(res.body(), nullptr, false);
    if (j.is_discarded() || !j.contains("moves") || !j["moves"].is_array()) {
        return std::nullopt;
    }
    std::vector<std::string> moves;
    for (const auto& m : j["moves"]) {
        moves.push_back(m.is_string() ? m.get<std::string>() : m.value("text", ""));
    }
    return moves;
}

}  // namespace

std::optional<std::vector<std::string>> fetch_stored_moves(
    const std::vector<ServerAddress>& servers, const std::string& game_id, std::size_t first) {
    for (std::size_t k = 0; k < servers.size(); ++k) {
        if (auto r = fetch_from(servers[(first + k) % servers.size()], game_id)) {
            return r;
        }
    }
    return std::nullopt;
}

}  // namespace papan::loadtest
