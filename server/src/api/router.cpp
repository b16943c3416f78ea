#include "api/router.hpp"

#include "api/auth_service.hpp"
#include "api/edge.hpp"
#include "api/handlers.hpp"
#include "api/http_auth.hpp"
#include "api/pdn_import.hpp"
#include "game/store_executor.hpp"
#include "support/log.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <memory>

namespace papan::server {

namespace {

constexpr std::array kRoutes{
    Route{Method::Get, "/healthz", get_healthz},
    Route{Method::Get, "/api/variants", get_variants},
    Route{Method::Post, "/api/register", post_register},
    Route{Method::Post, "/api/login", post_login},
    Route{Method::Post, "/api/logout", post_logout},
    Route{Method::Post, "/api/password", post_password},
    Route{Method::Get, "/api/me", get_me},
    Route{Method::Get, "/api/leaderboard", get_leaderboard},
    Route{Method::Get, "/api/games", get_games},
    Route{Method::Get, "/api/games/{id}", get_game},
    Route{Method::Get, "/api/games/{id}/pdn", get_game_pdn},
    Route{Method::Get, "/api/players/{name}", get_player},
    Route{Method::Post, "/api/import", post_import},
    Route{Method::Get, "/api/auth/config", get_auth_config},
    Route{Method::Post, "/api/auth/oidc/start", post_oidc_start},
    Route{Method::Get, "/api/auth/oidc/callback", get_oidc_callback},
    Route{Method::Post, "/api/auth/finish", post_auth_finish},
    Route{Method::Post, "/api/auth/telegram", post_telegram_session},
    Route{Method::Post, "/api/telegram/webhook", post_telegram_webhook},
    Route{Method::Post, "/api/telegram/share", post_telegram_share},
    Route{Method::Get, "/api/puzzles", get_puzzles},
    Route{Method::Get, "/api/puzzles/next", get_puzzle_next},
    Route{Method::Get, "/api/puzzles/daily", get_puzzle_daily},
    Route{Method::Get, "/api/puzzles/history", get_puzzle_history},
    Route{Method::Post, "/api/puzzles/streak", post_puzzle_streak},
    Route{Method::Post, "/api/puzzles/adopt", post_puzzle_adopt},
    Route{Method::Get, "/api/puzzles/{id}", get_puzzle},
    Route{Method::Post, "/api/puzzles/{id}/attempt", post_puzzle_attempt},
    Route{Method::Get, "/{file*}", get_static},
};

std::vector<std::string_view> pattern_segments(std::string_view pattern) {
    std::vector<std::string_view> out;
    pattern.remove_prefix(1);
    while (true) {
        const auto slash = pattern.find('/');
        out.push_back(pattern.substr(0, slash));
        if (slash == std::string_view::npos) {
            return out;
        }
        pattern.remove_prefix(slash + 1);
    }
}

bool matches(std::string_view pattern, const Request& req, RouteArgs& args) {
    args.clear();
    const auto parts = pattern_segments(pattern);
    for (std::size_t i = 0; i < parts.size(); ++i) {
        const auto p = parts[i];
        if (p.size() > 2 && p.front() == '{' && p.substr(p.size() - 2) == "*}") {
            std::string rest;
            for (std::size_t k = i; k < req.segments.size(); ++k) {
                rest += k > i ? "/" : "";
                rest += req.segments[k];
            }
            args.push_back(std::move(rest));
            return true;
        }
        if (i >= req.segments.size()) {
            return false;
        }
        if (p.size() > 2 && p.front() == '{' && p.back() == '}') {
            if (req.segments[i].empty()) {
                return false;
            }
            args.push_back(req.segments[i]);
        } else if (p != req.segments[i]) {
            return false;
        }
    }
    return parts.size() == req.segments.size();
}

}  // namespace

std::span<const Route> http_routes() {
    return kRoutes;
}

std::string_view method_name(Method m) noexcept {
    return m == Method::Get ? "GET" : "POST";
}

const Route*
match_route(const Request& req, RouteArgs& args, bool& path_known, std::string& allow) {
    path_known = false;
    allow.clear();
    const Route* found = nullptr;
    for (const auto& r : kRoutes) {
        RouteArgs a;
        if (!matches(r.pattern, req, a)) {
            continue;
        }
        // The static catch-all answers only GET: a POST to an unknown path is not a file.
        if (r.method == req.method) {
            if (found == nullptr) {
                found = &r;
                args  = std::move(a);
            }
        } else if (r.pattern != "/{file*}") {
            path_known = true;
            allow      = r.method == Method::Get ? "GET, HEAD" : "POST";
        }
    }
    if (found != nullptr && found->pattern == "/{file*}" && path_known) {
        return nullptr;  // e.g. GET /api/login: a known API path with another method
    }
    return found;
}

void handle_http(ApiContext& ctx, const HttpRequest& raw, Reply reply) {
    auto checked = check_request(raw);
    if (auto* refused = std::get_if<HttpResponse>(&checked)) {
        reply(std::move(*refused));
        return;
    }
    const Request& req = std::get<Request>(checked);
    RouteArgs args;
    bool path_known = false;
    std::string allow;
    const Route* route = match_route(req, args, path_known, allow);
    if (route == nullptr) {
        if (path_known) {
            auto r = error_response(405, "method_not_allowed", "use " + allow);
            r.headers.emplace_back("Allow", allow);
            reply(std::move(r));
        } else if (req.path.rfind("/api/", 0) == 0) {
            reply(error_response(404, "not_found", "no such API route"));
        } else {
            reply(error_response(405, "method_not_allowed", "use GET"));
        }
        return;
    }
    // One reply, whatever the handler does: a throw before it replied is answered `internal`.
    auto once     = std::make_shared<std::atomic<bool>>(false);
    Reply guarded = [once, auth = ctx.auth, reply = std::move(reply)](HttpResponse r) {
        if (!once->exchange(true)) {
            apply_page_policy(auth, r);  // the Mini App's page may load Telegram's script
            reply(std::move(r));
        }
    };
    try {
        route->handler(ctx, req, args, guarded);
    } catch (const std::exception& e) {
        log_line("http", std::string(route->pattern) + ": internal error: " + e.what());
        guarded(internal_error_response());
    }
}

void reply_from_store(ApiContext& ctx, Reply reply, std::function<HttpResponse(Store&)> fn) {
    ctx.svc.store.run([fn = std::move(fn), reply = std::move(reply)](Store& s) {
        HttpResponse r;
        try {
            r = fn(s);
        } catch (const std::exception& e) {
            log_line("http", std::string("store: internal error: ") + e.what());
            r = error_response(503, "store_unavailable", "the store could not answer; try again");
            r.headers.emplace_back("Retry-After", "1");
        }
        if (r.status != 0) {
            reply(std::move(r));
        }
    });
}

HttpResponse replied_later() {
    HttpResponse r;
    r.status = 0;
    return r;
}

}  // namespace papan::server
