// The API layer: the HTTP routes (a table: method + path pattern -> handler, router.hpp) behind
// the edge check (edge.hpp), and the WebSocket message dispatcher. Handlers are plain functions
// of a checked request and the ApiContext; they touch no socket. HTTP handlers that need the
// store run on the store executor and reply through a callback; WebSocket commands are posted
// to the lobby, a room strand or the cluster, which answer through the Peer.
#pragma once

#include "api/accounts.hpp"
#include "api/http.hpp"
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

namespace papan::server {

class Lobby;
class Cluster;
class PuzzleService;
class AuthService;

struct ApiContext {
    Services& svc;
    Lobby& lobby;
    std::filesystem::path web_root;  // empty: serve the fallback page
    std::atomic<bool> ready{false};
    Cluster* cluster        = nullptr;   // several nodes (--bus); nullptr: alone
    Accounts* accounts      = nullptr;   // accounts, sessions and their throttles
    Throttle* creates       = nullptr;   // `create` messages per remote address (--creates-per-ip)
    int creates_per_ip      = 0;         // its limit a minute (0: off)
    AuthService* auth       = nullptr;   // sign-in with OpenID Connect and Telegram (auth/)
    PuzzleService* puzzles  = nullptr;   // /api/puzzles/* (api/http_puzzles.cpp)
    Throttle* puzzle_limits = nullptr;   // its requests and attempts per remote address
    int puzzle_requests_per_minute = 0;  // their limits a minute (0: off)
    int puzzle_attempts_per_minute = 0;
};

using Reply = std::function<void(HttpResponse)>;

// Checks and routes one request; `reply` is called exactly once (possibly from another thread),
// with a 4xx for anything malformed and `internal` (500, no internal text) should a handler
// throw.
void handle_http(ApiContext& ctx, const HttpRequest& req, Reply reply);

// The variant table as served by GET /api/variants.
[[nodiscard]] const nlohmann::json& variants_json();

// A WebSocket peer as the dispatcher sees it: a Peer with a session-owned identity that may be
// read and written only from the session's own strand (run_on_session).
class SessionPeer : public Peer {
public:
    virtual void run_on_session(std::function<void()> fn) = 0;
    virtual Identity& identity()                          = 0;
    // The peer's IP address as the server sees it (empty if unknown).
    [[nodiscard]] virtual const std::string& remote_address() const = 0;
    // The connection's id in the log ("c17").
    [[nodiscard]] virtual const std::string& connection_id() const = 0;
};

// Handles one text message of a peer; runs on the session's strand. Never throws: an
// exception is logged and answered `internal`.
void handle_ws_message(ApiContext& ctx,
                       const std::shared_ptr<SessionPeer>& peer,
                       std::string_view text);

}  // namespace papan::server
