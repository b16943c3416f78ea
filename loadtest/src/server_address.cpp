#include "server_address.hpp"

#include <stdexcept>

namespace papan::loadtest {

std::vector<ServerAddress> resolve_servers(const std::vector<std::string>& urls,
                                           net::io_context& ioc) {
    std::vector<ServerAddress> out;
    for (const auto& text : urls) {
        ServerAddress s;
        if (const auto e = parse_url(text, s.url); !e.empty()) {
            throw std::runtime_error(e);
        }
        tcp::resolver resolver(ioc);
        beast::error_code ec;
        s.endpoints = resolver.resolve(s.url.host, s.url.port, ec);
        if (ec) {
            throw std::runtime_error("cannot resolve " + s.url.host + ": " + ec.message());
        }
        out.push_back(std::move(s));
    }
    return out;
}

}  // namespace papan::loadtest
