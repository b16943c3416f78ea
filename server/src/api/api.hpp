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
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace papan::server {

class Lobby;

// Failed-login throttling (docs/protocol.md, "Limits"): per key ("u:<name>", "ip:<address>")
// the failures of a fixed window. Bookkeeping shared by the network, store and crypto threads,
// hence its own mutex (it is not domain state).
class LoginThrottle {
public:
    LoginThrottle(const Clock& clock, int per_user, int per_ip, int window_seconds)
        : clock_(clock)
        , per_user_(per_user)
        , per_ip_(per_ip)
        , window_ms_(static_cast<std::int64_t>(window_seconds) * 1000) {}

    // Seconds to wait before trying again (0: go ahead).
    [[nodiscard]] std::int64_t retry_after(const std::string& user, const std::string& ip);
    void failed(const std::string& user, const std::string& ip);
    void succeeded(const std::string& user);

private:
    struct Window {
        int failures          = 0;
        std::int64_t start_ms = 0;
    };

    std::int64_t blocked_for(const std::string& key, int limit, std::int64_t now);
    void count(const std::string& key, int limit, std::int64_t now);

    const Clock& clock_;
    int per_user_;
    int per_ip_;
    std::int64_t window_ms_;
    std::mutex mutex_;
    std::unordered_map<std::string, Window> windows_;
};

struct ApiContext {
    Services& svc;
    Lobby& lobby;
    std::filesystem::path web_root;  // empty: serve the fallback page
    std::atomic<bool> ready{false};
    net::thread_pool* crypto = nullptr;  // password hashing; nullptr: inline
    LoginThrottle* logins    = nullptr;  // failed-login throttling; nullptr: none
};

struct HttpRequest {
    std::string method;  // GET, POST, ...
    std::string target;  // path and query
    std::string body;
    std::string authorization;  // the Authorization header
    std::string remote;         // the peer's IP address (login throttling)
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
