// HTTP as the API layer sees it: a request as it came from the transport (HttpRequest), the same
// request once checked at the edge (Request: percent-decoded, valid UTF-8, no control
// characters), and the response. No sockets here.
#pragma once

#include <nlohmann/json.hpp>

#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace papan::server {

struct HttpRequest {
    std::string method;  // GET, POST, ...
    std::string target;  // path and query, as sent
    std::string body;
    std::string authorization;      // the Authorization header
    std::string accept_encoding;    // the Accept-Encoding header
    std::string if_none_match;      // the If-None-Match header
    std::string remote;             // the peer's IP address (throttling)
    std::string cookie{};           // the Cookie header (the sign-in's browser binding)
    std::string host{};             // the Host header (the site's address without --public-url)
    std::string telegram_secret{};  // X-Telegram-Bot-Api-Secret-Token (the bot's webhook)
};

enum class Method : std::uint8_t {
    Get,  // HEAD is answered as GET without the body
    Post,
};

struct Request {
    Method method = Method::Get;
    std::vector<std::string> segments;  // the decoded path segments ("/a/b" -> {"a", "b"})
    std::string path;                   // "/" + the segments joined by '/'
    std::map<std::string, std::string> query;
    std::string body;
    std::string bearer;  // the token of "Authorization: Bearer TOKEN", if any
    std::string accept_encoding;
    std::string if_none_match;
    std::string remote;
    std::string cookie;
    std::string host;
    std::string telegram_secret;

    [[nodiscard]] std::string param(const std::string& key) const {
        const auto it = query.find(key);
        return it == query.end() ? std::string{} : it->second;
    }
};

struct HttpResponse {
    unsigned status          = 200;
    std::string content_type = "application/json";
    std::string body;
    std::vector<std::pair<std::string, std::string>> headers;
};

[[nodiscard]] HttpResponse json_response(unsigned status, const nlohmann::json& body);
// {"error": code, "message": message}; the message never carries internal text.
[[nodiscard]] HttpResponse
error_response(unsigned status, std::string_view code, std::string_view message);
// 500 `internal`, for a request whose handling threw: no internal text reaches the client.
[[nodiscard]] HttpResponse internal_error_response();

}  // namespace papan::server
