// The API layer: the HTTP router and the WebSocket message dispatcher. Handlers are plain
// functions of a decoded request and the ApiContext; they touch no socket. HTTP handlers that
// need the store run on the store executor and reply through a callback; WebSocket commands are
// posted to the lobby or a room strand, which answer through the Peer.
#pragma once

#include "game/peer.hpp"
#include "game/services.hpp"

#include <boost/asio/thread_pool.hpp>
#include <nlohmann/json.hpp>

#include <atomic>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace papan::server {

class Lobby;

struct ApiContext {
    Services& svc;
    Lobby& lobby;
    std::filesystem::path web_root;  // empty: serve the fallback page
    std::atomic<bool> ready{false};
    net::thread_pool* crypto = nullptr;  // password hashing; nullptr: inline
};

struct HttpRequest {
    std::string method;  // GET, POST, ...
    std::string target;  // path and query
    std::string body;
    std::string authorization;  // the Authorization header
};

struct HttpResponse {
    unsigned status          = 200;
    std::string content_type = "application/json";
    std::string body;
    std::vector<std::pair<std::string, std::string>> headers;
};

// Routes one request; `reply` is called exactly once (possibly from the store thread).
void handle_http(ApiContext& ctx, HttpRequest req, std::function<void(HttpResponse)> reply);

// The variant table as served by GET /api/variants.
[[nodiscard]] const nlohmann::json& variants_json();

// A WebSocket peer as the dispatcher sees it: a Peer with a session-owned identity that may be
// read and written only from the session's own strand (run_on_session).
class SessionPeer : public Peer {
public:
    virtual void run_on_session(std::function<void()> fn) = 0;
    virtual Identity& identity()                          = 0;
};

// Handles one text message of a peer; runs on the session's strand.
void handle_ws_message(ApiContext& ctx,
                       const std::shared_ptr<SessionPeer>& peer,
                       std::string_view text);

}  // namespace papan::server
