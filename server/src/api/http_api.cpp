#include "api/api.hpp"
#include "game/room.hpp"
#include "game/store_executor.hpp"

#include <papan/core/game.hpp>
#include <papan/core/notation/fen.hpp>
#include <papan/core/notation/move_text.hpp>
#include <papan/core/notation/pdn.hpp>
#include <papan/core/notation/squares.hpp>
#include <papan/core/rules/registry.hpp>
#include <papan/server/elo.hpp>
#include <papan/server/tokens.hpp>

#include <boost/asio/post.hpp>
#include <boost/asio/thread_pool.hpp>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <map>
#include <sstream>

namespace papan::server {

using Json = nlohmann::json;

namespace {

HttpResponse json_response(unsigned status, const Json& body) {
    HttpResponse r;
    r.status = status;
    r.body   = body.dump();
    return r;
}

HttpResponse error_response(unsigned status, std::string_view code, std::string_view message) {
    return json_response(status, Json{{"error", code}, {"message", message}});
}

std::string url_decode(std::string_view s) {
    std::string out;
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (s[i] == '%' && i + 2 < s.size() &&
            std::isxdigit(static_cast<unsigned char>(s[i + 1])) &&
            std::isxdigit(static_cast<unsigned char>(s[i + 2]))) {
            out += static_cast<char>(std::stoi(std::string(s.substr(i + 1, 2)), nullptr, 16));
            i += 2;
        } else if (s[i] == '+') {
            out += ' ';
        } else {
            out += s[i];
        }
    }
    return out;
}

std::map<std::string, std::string> parse_query(std::string_view q) {
    std::map<std::string, std::string> out;
    while (!q.empty()) {
        const auto amp  = q.find('&');
        const auto part = q.substr(0, amp);
        const auto eq   = part.find('=');
        if (eq != std::string_view::npos) {
            out[url_decode(part.substr(0, eq))] = url_decode(part.substr(eq + 1));
        } else if (!part.empty()) {
            out[url_decode(part)] = "";
        }
        if (amp == std::string_view::npos) {
            break;
        }
        q.remove_prefix(amp + 1);
    }
    return out;
}

std::string_view topology_key(core::Topology t) {
    switch (t) {
    case core::Topology::Diagonal8:
        return "diagonal8";
    case core::Topology::Diagonal10:
        return "diagonal10";
    case core::Topology::Orthogonal8:
        return "orthogonal8";
    }
    return "";
}

std::string_view numbering_key(core::Numbering n) {
    switch (n) {
    case core::Numbering::Standard:
        return "standard";
    case core::Numbering::Italian:
        return "italian";
    case core::Numbering::Spanish:
        return "spanish";
    }
    return "";
}

std::string bearer(const std::string& authorization) {
    constexpr std::string_view kPrefix = "Bearer ";
    if (authorization.rfind(kPrefix, 0) == 0) {
        return authorization.substr(kPrefix.size());
    }
    return {};
}

bool valid_username(const std::string& u) {
    return u.size() >= 3 && u.size() <= 24 && std::all_of(u.begin(), u.end(), [](char c) {
               return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-';
           });
}

Json game_summary(const GameRecord& g) {
    const auto seat = [](const SeatRecord& s) {
        return Json{{"id", s.player_id}, {"name", s.name}, {"computer", s.computer}};
    };
    return Json{{"id", g.id},
                {"variant", g.variant},
                {"mode", g.mode},
                {"status", g.status},
                {"white", seat(g.seats[0])},
                {"black", seat(g.seats[1])},
                {"outcome", g.outcome},
                {"reason", g.reason},
                {"result_text", g.result_text},
                {"rated", g.rated},
                {"created_ms", g.created_ms}};
}

std::optional<std::string> make_pdn(const GameRecord& g) {
    const auto v = core::variant_from_key(g.variant);
    if (!v) {
        return std::nullopt;
    }
    auto start = core::parse_fen(*v, g.start_fen);
    if (!start) {
        return std::nullopt;
    }
    core::GameOptions opts;
    opts.forced_capture = g.forced_capture;
    opts.draw_rules     = static_cast<core::DrawRuleSet>(g.draw_rules);
    auto game           = core::Game::create(*start, opts);
    if (!game) {
        return std::nullopt;
    }
    core::PdnGame pdn = core::make_pdn_game(*v);
    pdn.start         = *start;
    for (const auto& m : g.moves) {
        const auto before = game->position();
        auto mv           = core::parse_move(before, m.text, game.value().movegen_options());
        if (!mv || !game.value().play(*mv)) {
            return std::nullopt;
        }
        pdn.moves.push_back(*mv);
    }
    pdn.comments.assign(pdn.moves.size() + 1, "");
    pdn.set_tag("Event", "Papan " + g.mode + " game");
    pdn.set_tag("Site", "Papan");
    pdn.set_tag("White", g.seats[0].name);
    pdn.set_tag("Black", g.seats[1].name);
    const std::time_t t = static_cast<std::time_t>(g.created_ms / 1000);
    std::tm tm{};
    gmtime_r(&t, &tm);
    char date[16];
    std::strftime(date, sizeof date, "%Y.%m.%d", &tm);
    pdn.set_tag("Date", date);
    if (g.start_fen != core::rules(*v).start_fen) {
        pdn.set_tag("FEN", g.start_fen);
    }
    core::PdnResult res = core::PdnResult::Unknown;
    if (g.outcome == "white_wins") {
        res = core::PdnResult::FirstWins;
    } else if (g.outcome == "black_wins") {
        res = core::PdnResult::SecondWins;
    } else if (g.outcome == "draw") {
        res = core::PdnResult::Draw;
    }
    pdn.result = std::string(core::pdn_result_text(res, *v));
    pdn.set_tag("Result", pdn.result);
    if (!g.result_text.empty()) {
        pdn.set_tag("Termination", g.result_text);
    }
    return core::write_pdn_game(pdn);
}

std::string_view mime_type(const std::filesystem::path& p) {
    const auto ext = p.extension().string();
    if (ext == ".html") {
        return "text/html; charset=utf-8";
    }
    if (ext == ".js" || ext == ".mjs") {
        return "text/javascript; charset=utf-8";
    }
    if (ext == ".css") {
        return "text/css; charset=utf-8";
    }
    if (ext == ".json" || ext == ".map") {
        return "application/json";
    }
    if (ext == ".svg") {
        return "image/svg+xml";
    }
    if (ext == ".png") {
        return "image/png";
    }
    if (ext == ".ico") {
        return "image/x-icon";
    }
    if (ext == ".woff2") {
        return "font/woff2";
    }
    if (ext == ".wasm") {
        return "application/wasm";  // the analysis engine; browsers compile it while it streams in
    }
    if (ext == ".txt" || ext == ".md") {
        return "text/plain; charset=utf-8";
    }
    return "application/octet-stream";
}

constexpr std::string_view kFallbackPage = R"(<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Papan</title>
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body style="font-family: sans-serif; max-width: 40em; margin: 3em auto">
<h1>Papan</h1>
<p>The game server is running, but the web client has not been built.</p>
<p>Build it with <code>make build</code> (it produces <code>web/dist</code>), then reload this page.</p>
<p>Meanwhile: <a href="/api/variants">/api/variants</a>, <a href="/healthz">/healthz</a>, and the
WebSocket protocol in <code>docs/protocol.md</code>.</p>
</body></html>
)";

HttpResponse serve_static(const ApiContext& ctx, std::string path) {
    HttpResponse r;
    const auto fallback = [&] {
        r.content_type = "text/html; charset=utf-8";
        r.body         = std::string(kFallbackPage);
        return r;
    };
    path = url_decode(path);
    if (path.find("..") != std::string::npos || path.find('\\') != std::string::npos ||
        path.find('\0') != std::string::npos || path.empty() || path[0] != '/') {
        return error_response(400, "bad_path", "bad path");
    }
    if (ctx.web_root.empty()) {
        if (path == "/" || path == "/index.html") {
            return fallback();
        }
        return error_response(404, "not_found", "no such page: " + path);
    }
    if (path.back() == '/') {
        path += "index.html";
    }
    std::filesystem::path file = ctx.web_root / path.substr(1);
    std::error_code ec;
    if (!std::filesystem::is_regular_file(file, ec)) {
        // Client-side routes (no extension) get the single page.
        if (std::filesystem::path(path).has_extension()) {
            return error_response(404, "not_found", "no such file: " + path);
        }
        file = ctx.web_root / "index.html";
    }
    // The resolved file must stay under the web root (symlinks included).
    const auto root  = std::filesystem::weakly_canonical(ctx.web_root, ec);
    const auto canon = std::filesystem::weakly_canonical(file, ec);
    const auto rel   = canon.lexically_relative(root);
    if (ec || rel.empty() || *rel.begin() == "..") {
        return error_response(404, "not_found", "no such file: " + path);
    }
    std::ifstream in(canon, std::ios::binary);
    if (!in) {
        return error_response(404, "not_found", "no such file: " + path);
    }
    std::ostringstream ss;
    ss << in.rdbuf();
    r.body         = ss.str();
    r.content_type = std::string(mime_type(canon));
    return r;
}

std::string string_field(const Json& body, const char* key) {
    const auto it = body.find(key);
    return it != body.end() && it->is_string() ? it->get<std::string>() : std::string{};
}

using Reply = std::function<void(HttpResponse)>;

// Password hashing (Argon2id: deliberately slow and memory-hard) runs on the crypto thread, so
// it delays neither the network threads nor the store thread's move writes.
void run_crypto(ApiContext& ctx, std::function<void()> fn) {
    if (ctx.crypto != nullptr) {
        net::post(*ctx.crypto, std::move(fn));
    } else {
        fn();
    }
}

HttpResponse session_response(unsigned status, Store& s, const Clock& clock, const UserRecord& u) {
    const std::string token = random_token();
    s.create_session(hash_secret(token), u.id, clock.now_ms());
    std::string id = "u";
    id += std::to_string(u.id);
    return json_response(status,
                         Json{{"token", token}, {"user", {{"id", id}, {"username", u.username}}}});
}

void register_user(ApiContext& ctx, const Json& body, Reply reply) {
    const std::string user = string_field(body, "username");
    const std::string pass = string_field(body, "password");
    if (!valid_username(user)) {
        reply(error_response(
            400, "bad_username", "a username has 3 to 24 letters, digits, '_' or '-'"));
        return;
    }
    if (pass.size() < 8 || pass.size() > 128) {
        reply(error_response(400, "bad_password", "a password has 8 to 128 characters"));
        return;
    }
    run_crypto(ctx, [&ctx, user, pass, reply] {
        std::string hash;
        try {
            hash = hash_password(pass);
        } catch (const std::exception& e) {
            reply(error_response(503, "busy", e.what()));
            return;
        }
        ctx.svc.store.run([&ctx, user, hash, reply](Store& s) {
            UserRecord u{0, user, hash, ctx.svc.clock.now_ms()};
            const auto id = s.create_user(u);
            if (!id) {
                reply(error_response(409, "username_taken", "that username is taken"));
                return;
            }
            u.id = *id;
            reply(session_response(201, s, ctx.svc.clock, u));
        });
    });
}

void login_user(ApiContext& ctx, const Json& body, const std::string& ip, Reply reply) {
    const std::string user = string_field(body, "username");
    const std::string pass = string_field(body, "password");
    if (ctx.logins != nullptr) {
        if (const auto wait = ctx.logins->retry_after(user, ip); wait > 0) {
            auto r =
                error_response(429, "too_many_attempts", "too many failed logins; try again later");
            r.headers.emplace_back("Retry-After", std::to_string(wait));
            reply(std::move(r));
            return;
        }
    }
    auto failed = [&ctx, user, ip, reply] {
        if (ctx.logins != nullptr) {
            ctx.logins->failed(user, ip);
        }
        reply(error_response(401, "bad_credentials", "wrong username or password"));
    };
    ctx.svc.store.run([&ctx, user, pass, reply, failed](Store& s) {
        const auto u = s.user_by_name(user);
        if (!u) {
            failed();
            return;
        }
        run_crypto(ctx, [&ctx, u = *u, user, pass, reply, failed] {
            if (!verify_password(u.password_hash, pass)) {
                failed();
                return;
            }
            if (ctx.logins != nullptr) {
                ctx.logins->succeeded(user);
            }
            ctx.svc.store.run([&ctx, u, reply](Store& st) {
                reply(session_response(200, st, ctx.svc.clock, u));
            });
        });
    });
}

}  // namespace

std::int64_t LoginThrottle::blocked_for(const std::string& key, int limit, std::int64_t now) {
    if (limit <= 0) {
        return 0;
    }
    const auto it = windows_.find(key);
    if (it == windows_.end()) {
        return 0;
    }
    const auto end = it->second.start_ms + window_ms_;
    if (now >= end) {
        windows_.erase(it);
        return 0;
    }
    return it->second.failures >= limit ? (end - now + 999) / 1000 : 0;
}

void LoginThrottle::count(const std::string& key, int limit, std::int64_t now) {
    if (limit <= 0) {
        return;
    }
    auto& w = windows_[key];
    if (w.failures == 0 || now >= w.start_ms + window_ms_) {
        w = Window{0, now};
    }
    ++w.failures;
}

std::int64_t LoginThrottle::retry_after(const std::string& user, const std::string& ip) {
    const auto now = clock_.now_ms();
    std::lock_guard lock(mutex_);
    return std::max(blocked_for("u:" + user, per_user_, now),
                    ip.empty() ? std::int64_t{0} : blocked_for("ip:" + ip, per_ip_, now));
}

void LoginThrottle::failed(const std::string& user, const std::string& ip) {
    const auto now = clock_.now_ms();
    std::lock_guard lock(mutex_);
    if (windows_.size() > 100'000) {  // drop finished windows (a flood of made-up names)
        std::erase_if(windows_,
                      [&](const auto& kv) { return now >= kv.second.start_ms + window_ms_; });
    }
    count("u:" + user, per_user_, now);
    if (!ip.empty()) {
        count("ip:" + ip, per_ip_, now);
    }
}

void LoginThrottle::succeeded(const std::string& user) {
    std::lock_guard lock(mutex_);
    windows_.erase("u:" + user);
}

const Json& variants_json() {
    static const Json table = [] {
        Json list = Json::array();
        for (const auto& r : core::all_variants()) {
            Json squares = Json::array();
            const int n  = core::square_count(r.id);
            for (int s = 1; s <= n; ++s) {
                const auto c = core::square_coord(r.id, s);
                squares.push_back({{"n", s},
                                   {"file", c.file},
                                   {"rank", c.rank},
                                   {"name", core::square_text(r.id, s)}});
            }
            Json rule_sets = Json::array({"standard"});
            if (r.id == core::VariantId::American) {
                rule_sets.push_back("american_club");
            }
            if (r.id == core::VariantId::Russian) {
                rule_sets.push_back("russian_official");
            }
            list.push_back(
                {{"key", r.key},
                 {"name", r.name},
                 {"topology", topology_key(r.topology)},
                 {"board", {{"size", r.board().size}, {"squares", n}}},
                 {"numbering", numbering_key(r.numbering)},
                 {"notation", r.notation == core::NotationStyle::Numeric ? "numeric" : "algebraic"},
                 {"first_to_move", r.first_to_move == core::Color::White ? "white" : "black"},
                 {"start_fen", r.start_fen},
                 {"no_forced_capture_option", r.optional_capture_house_rule},
                 {"draw_rule_sets", rule_sets},
                 {"square_coords", squares}});
        }
        return Json{{"variants", list}};
    }();
    return table;
}

void handle_http(ApiContext& ctx, HttpRequest req, std::function<void(HttpResponse)> reply) {
    std::string path = req.target;
    std::string query;
    if (const auto q = path.find('?'); q != std::string::npos) {
        query = path.substr(q + 1);
        path.resize(q);
    }
    const bool get  = req.method == "GET" || req.method == "HEAD";
    const bool post = req.method == "POST";
    if (path == "/healthz" && get) {
        reply(ctx.ready ? json_response(200, Json{{"status", "ok"}})
                        : json_response(503, Json{{"status", "starting"}}));
        return;
    }
    if (path == "/api/variants" && get) {
        reply(json_response(200, variants_json()));
        return;
    }
    auto in_store = [&](std::function<HttpResponse(Store&)> fn) {
        ctx.svc.store.run([fn = std::move(fn), reply](Store& s) {
            try {
                reply(fn(s));
            } catch (const std::exception& e) {
                reply(error_response(500, "internal", e.what()));
            }
        });
    };
    if (path == "/api/register" || path == "/api/login") {
        if (!post) {
            reply(error_response(405, "method_not_allowed", "use POST"));
            return;
        }
        Json body = Json::parse(req.body, nullptr, false);
        if (!body.is_object()) {
            reply(error_response(400, "bad_json", "the body must be a JSON object"));
            return;
        }
        if (path == "/api/register") {
            register_user(ctx, body, reply);
        } else {
            login_user(ctx, body, req.remote, reply);
        }
        return;
    }
    if (!get && path.rfind("/api/", 0) == 0) {
        reply(error_response(405, "method_not_allowed", "use GET"));
        return;
    }
    const auto params = parse_query(query);
    if (path == "/api/me") {
        const std::string token = bearer(req.authorization);
        in_store([token](Store& s) {
            const auto uid = token.empty() ? std::nullopt : s.session_user(hash_secret(token));
            const auto u   = uid ? s.user_by_id(*uid) : std::nullopt;
            if (!u) {
                return error_response(
                    401, "not_signed_in", "no valid session token (Authorization: Bearer ...)");
            }
            Json ratings = Json::object();
            for (const auto& r : core::all_variants()) {
                const auto rr = s.rating(u->id, std::string(r.key));
                if (rr.games > 0) {
                    ratings[std::string(r.key)] = {{"rating", rr.rating}, {"games", rr.games}};
                }
            }
            const std::string pid = "u" + std::to_string(u->id);
            return json_response(200,
                                 Json{{"user", {{"id", pid}, {"username", u->username}}},
                                      {"ratings", ratings},
                                      {"initial_rating", kInitialRating},
                                      {"reward_points", s.reward_total(pid)}});
        });
        return;
    }
    if (path == "/api/leaderboard") {
        const auto it = params.find("variant");
        const auto v  = core::variant_from_key(it == params.end() ? "international" : it->second);
        if (!v) {
            reply(error_response(400, "bad_variant", "unknown variant"));
            return;
        }
        const std::string key(core::rules(*v).key);
        in_store([key](Store& s) {
            Json players = Json::array();
            for (const auto& r : s.leaderboard(key, 100)) {
                players.push_back(
                    {{"username", r.username}, {"rating", r.rating}, {"games", r.games}});
            }
            return json_response(200, Json{{"variant", key}, {"players", players}});
        });
        return;
    }
    if (path == "/api/games") {
        const auto it = params.find("player");
        if (it == params.end() || it->second.empty()) {
            reply(error_response(400, "bad_request", "give ?player=<username or player id>"));
            return;
        }
        const std::string who = it->second;
        in_store([who](Store& s) {
            std::string pid = who;
            if (const auto u = s.user_by_name(who)) {
                pid = "u" + std::to_string(u->id);
            }
            Json games = Json::array();
            for (const auto& g : s.games_of(pid, 100)) {
                games.push_back(game_summary(g));
            }
            return json_response(200, Json{{"player", pid}, {"games", games}});
        });
        return;
    }
    if (path.rfind("/api/games/", 0) == 0) {
        std::string rest = path.substr(11);
        bool pdn         = false;
        if (rest.size() > 4 && rest.substr(rest.size() - 4) == "/pdn") {
            pdn = true;
            rest.resize(rest.size() - 4);
        }
        if (rest.empty() || rest.size() > 32 || rest.find('/') != std::string::npos) {
            reply(error_response(404, "not_found", "no such game"));
            return;
        }
        in_store([rest, pdn](Store& s) {
            const auto g = s.load_game(rest);
            if (!g) {
                return error_response(404, "not_found", "no such game");
            }
            if (!pdn) {
                Json j     = game_summary(*g);
                Json moves = Json::array();
                for (const auto& m : g->moves) {
                    moves.push_back(m.text);
                }
                j["moves"]     = moves;
                j["start_fen"] = g->start_fen;
                return json_response(200, j);
            }
            if (g->status != "over") {
                return error_response(
                    409, "game_in_progress", "the PDN of a game is available once it is over");
            }
            const auto text = make_pdn(*g);
            if (!text) {
                return error_response(500, "internal", "the game could not be written as PDN");
            }
            HttpResponse r;
            r.content_type = "application/x-pdn; charset=utf-8";
            r.body         = *text;
            r.headers.emplace_back("Content-Disposition",
                                   "attachment; filename=\"papan-" + g->id + ".pdn\"");
            return r;
        });
        return;
    }
    if (path.rfind("/api/", 0) == 0) {
        reply(error_response(404, "not_found", "no such API route: " + path));
        return;
    }
    if (!get) {
        reply(error_response(405, "method_not_allowed", "use GET"));
        return;
    }
    reply(serve_static(ctx, path));
}

}  // namespace papan::server
