// HTTP handlers of puzzles (docs/protocol.md, "Puzzles"): the next puzzle near the solver's
// rating, the daily puzzle, one puzzle, an attempt, a streak's end, a solver's history, a guest's
// ratings taken over at sign-in, and the set's figures. The solver is the account of the Bearer
// token, else the guest of "Authorization: Guest SECRET", else nobody (unrated). Every request
// is counted per address (PuzzleOptions); the work runs on the puzzle service's thread.
#include "api/handlers.hpp"
#include "game/peer.hpp"
#include "game/store_executor.hpp"
#include "puzzles/play.hpp"
#include "puzzles/service.hpp"

#include <papan/core/rules/registry.hpp>
#include <papan/server/tokens.hpp>

#include <cmath>

namespace papan::server {

using Json = nlohmann::json;

namespace {

constexpr int kHistoryListed      = 100;
constexpr std::size_t kMaxMoves   = 64;
constexpr std::size_t kMaxIdChars = 32;

int rounded(double x) {
    return static_cast<int>(std::lround(x));
}

Json solver_json(const PuzzleRatingRow& r) {
    return Json{{"variant", r.variant},
                {"rating", rounded(r.rating.rating)},
                {"deviation", rounded(r.rating.deviation)},
                {"attempts", r.attempts},
                {"solved", r.solved},
                {"best_streak", r.best_streak}};
}

Json served_json(const ServedPuzzle& s) {
    return puzzles::puzzle_json(s.puzzle, s.rating, s.plays, s.solved);
}

HttpResponse no_puzzles() {
    return error_response(404, "no_puzzles", "this variant has no puzzles yet");
}

HttpResponse unavailable() {
    auto r = error_response(503, "store_unavailable", "the store could not answer; try again");
    r.headers.emplace_back("Retry-After", "1");
    return r;
}

// The variant of ?variant=, or a 400 sent.
std::optional<std::string> variant_param(const Request& req, const Reply& reply) {
    const auto v = core::variant_from_key(req.param("variant"));
    if (!v) {
        reply(error_response(400, "bad_variant", "give ?variant=<variant key>"));
        return std::nullopt;
    }
    return std::string(core::rules(*v).key);
}

// The per-address cap; false after a 429 was sent.
bool admitted(ApiContext& ctx, const Request& req, const Reply& reply, bool attempt) {
    if (ctx.puzzles == nullptr) {
        reply(error_response(503, "no_puzzles", "puzzles are off on this server"));
        return false;
    }
    const int limit = attempt ? ctx.puzzle_attempts_per_minute : ctx.puzzle_requests_per_minute;
    if (limit <= 0 || ctx.puzzle_limits == nullptr) {
        return true;
    }
    const auto key = std::string(attempt ? "attempt:" : "request:") + req.remote;
    if (const auto wait = ctx.puzzle_limits->take(key, limit); wait > 0) {
        auto r = error_response(429, "too_many_requests", "too many puzzle requests; slow down");
        r.headers.emplace_back("Retry-After", std::to_string(wait));
        reply(std::move(r));
        return false;
    }
    return true;
}

// Runs fn(service, solver id) on the puzzle service's thread once the solver is known ("" for
// nobody); an exception is answered 503. need_account: a guest or nobody is answered 401.
void with_solver(ApiContext& ctx,
                 const Request& req,
                 Reply reply,
                 bool need_account,
                 std::function<HttpResponse(PuzzleService&, const std::string&)> fn) {
    PuzzleService* service = ctx.puzzles;
    auto run               = [service, reply, fn = std::move(fn)](const std::string& who) {
        service->post([reply, fn, who](PuzzleService& s) {
            HttpResponse r;
            try {
                r = fn(s, who);
            } catch (const std::exception&) {
                r = unavailable();
            }
            reply(std::move(r));
        });
    };
    if (!req.bearer.empty()) {
        const std::string token = req.bearer;
        reply_from_store(ctx, reply, [&ctx, token, run](Store& st) {
            const auto u = token.size() > 128 ? std::nullopt : session_of(ctx, st, token);
            if (!u) {
                return not_signed_in();
            }
            run(account_player_id(u->id));
            return replied_later();
        });
        return;
    }
    if (need_account) {
        reply(not_signed_in());
        return;
    }
    run(req.guest.empty() ? std::string{} : guest_player_id(req.guest));
}

bool valid_id(const std::string& id) {
    return !id.empty() && id.size() <= kMaxIdChars &&
           id.find_first_not_of("0123456789abcdefp") == std::string::npos;
}

}  // namespace

void get_puzzle_next(ApiContext& ctx, const Request& req, const RouteArgs&, Reply reply) {
    if (!admitted(ctx, req, reply, false)) {
        return;
    }
    const auto variant = variant_param(req, reply);
    if (!variant) {
        return;
    }
    std::optional<int> streak;
    if (const auto s = req.param("streak"); !s.empty()) {
        if (s.size() > 4 || s.find_first_not_of("0123456789") != std::string::npos) {
            reply(error_response(400, "bad_request", "streak is the number of puzzles solved"));
            return;
        }
        streak = std::stoi(s);
    }
    std::optional<double> asked;
    if (const auto r = req.param("rating"); !r.empty()) {
        if (r.size() > 4 || r.find_first_not_of("0123456789") != std::string::npos) {
            reply(error_response(400, "bad_request", "rating is a whole number"));
            return;
        }
        asked = std::stod(r);
    }
    with_solver(ctx,
                req,
                std::move(reply),
                false,
                [variant = *variant, streak, asked](PuzzleService& s, const std::string& who) {
                    const auto me       = s.solver(who, variant);
                    const double target = streak                 ? puzzles::streak_target(*streak)
                                          : who.empty() && asked ? *asked
                                                                 : me.rating.rating;
                    const auto p        = s.next(variant, target, streak ? std::string{} : who);
                    if (!p) {
                        return no_puzzles();
                    }
                    return json_response(
                        200, Json{{"puzzle", served_json(*p)}, {"player", solver_json(me)}});
                });
}

void get_puzzle_daily(ApiContext& ctx, const Request& req, const RouteArgs&, Reply reply) {
    if (!admitted(ctx, req, reply, false)) {
        return;
    }
    const auto variant = variant_param(req, reply);
    if (!variant) {
        return;
    }
    const auto day = puzzles::utc_day(ctx.svc.clock.now_ms());
    with_solver(ctx,
                req,
                std::move(reply),
                false,
                [variant = *variant, day](PuzzleService& s, const std::string& who) {
                    const auto p = s.daily(variant, day);
                    if (!p) {
                        return no_puzzles();
                    }
                    Json out{{"day", day}, {"puzzle", served_json(*p)}};
                    if (!who.empty()) {
                        out["player"] = solver_json(s.solver(who, variant));
                    }
                    return json_response(200, out);
                });
}

void get_puzzle(ApiContext& ctx, const Request& req, const RouteArgs& args, Reply reply) {
    if (!admitted(ctx, req, reply, false)) {
        return;
    }
    const std::string& id = args.at(0);
    if (!valid_id(id)) {
        reply(error_response(404, "not_found", "no such puzzle"));
        return;
    }
    with_solver(ctx, req, std::move(reply), false, [id](PuzzleService& s, const std::string& who) {
        const auto p = s.puzzle(id);
        if (!p) {
            return error_response(404, "not_found", "no such puzzle");
        }
        Json out{{"puzzle", served_json(*p)}};
        if (!who.empty()) {
            out["player"] =
                solver_json(s.solver(who, std::string(core::rules(p->puzzle.variant).key)));
        }
        return json_response(200, out);
    });
}

void post_puzzle_attempt(ApiContext& ctx, const Request& req, const RouteArgs& args, Reply reply) {
    if (!admitted(ctx, req, reply, true)) {
        return;
    }
    const std::string& id = args.at(0);
    if (!valid_id(id)) {
        reply(error_response(404, "not_found", "no such puzzle"));
        return;
    }
    const Json body = Json::parse(req.body, nullptr, false);
    if (!body.is_object()) {
        reply(error_response(400, "bad_json", "the body must be a JSON object"));
        return;
    }
    std::vector<std::string> moves;
    const auto m = body.find("moves");
    if (m == body.end() || !m->is_array() || m->size() > kMaxMoves) {
        reply(error_response(400, "bad_request", "give \"moves\": the solver's moves as played"));
        return;
    }
    for (const auto& t : *m) {
        if (!t.is_string() || t.get_ref<const std::string&>().size() > 200) {
            reply(error_response(400, "bad_request", "each move is a move text"));
            return;
        }
        moves.push_back(t.get<std::string>());
    }
    const auto g       = body.find("gave_up");
    const bool gave_up = g != body.end() && g->is_boolean() && g->get<bool>();
    with_solver(ctx,
                req,
                std::move(reply),
                false,
                [id, moves, gave_up](PuzzleService& s, const std::string& who) {
                    const auto r = s.attempt(who, id, moves, gave_up);
                    if (!r.found) {
                        return error_response(404, "not_found", "no such puzzle");
                    }
                    if (!r.error.empty()) {
                        return error_response(400, "bad_moves", r.error);
                    }
                    return json_response(
                        200,
                        Json{{"solved", r.solved},
                             {"wrong_step", r.wrong_step},
                             {"rated", r.rated},
                             {"rating", rounded(r.after.rating)},
                             {"deviation", rounded(r.after.deviation)},
                             {"change", rounded(r.after.rating) - rounded(r.before.rating)},
                             {"puzzle_rating", rounded(r.puzzle_after.rating)}});
                });
}

void post_puzzle_streak(ApiContext& ctx, const Request& req, const RouteArgs&, Reply reply) {
    if (!admitted(ctx, req, reply, true)) {
        return;
    }
    const Json body = Json::parse(req.body, nullptr, false);
    const auto v    = body.is_object() && body.contains("variant") && body["variant"].is_string()
                          ? core::variant_from_key(body["variant"].get<std::string>())
                          : std::nullopt;
    const auto n    = body.is_object() ? body.find("length") : body.end();
    if (!v || n == body.end() || !n->is_number_integer() || n->get<int>() < 0 ||
        n->get<int>() > 10000) {
        reply(error_response(400, "bad_request", "give \"variant\" and \"length\""));
        return;
    }
    const std::string variant(core::rules(*v).key);
    const int length = n->get<int>();
    with_solver(
        ctx,
        req,
        std::move(reply),
        false,
        [variant, length](PuzzleService& s, const std::string& who) {
            return json_response(200, Json{{"best_streak", s.record_streak(who, variant, length)}});
        });
}

void get_puzzle_history(ApiContext& ctx, const Request& req, const RouteArgs&, Reply reply) {
    if (!admitted(ctx, req, reply, false)) {
        return;
    }
    const auto list = [](PuzzleService& s, const std::string& who) {
        Json ratings = Json::array();
        for (const auto& r : s.ratings_of(who)) {
            ratings.push_back(solver_json(r));
        }
        Json attempts = Json::array();
        for (const auto& a : s.history(who, kHistoryListed)) {
            attempts.push_back({{"puzzle", a.puzzle_id},
                                {"variant", a.variant},
                                {"solved", a.solved},
                                {"rated", a.rated},
                                {"rating", a.rating},
                                {"change", a.delta},
                                {"at_ms", a.at_ms}});
        }
        return json_response(200,
                             Json{{"player", who}, {"ratings", ratings}, {"attempts", attempts}});
    };
    const std::string name = req.param("player");
    if (name.empty()) {
        with_solver(
            ctx, req, std::move(reply), false, [list](PuzzleService& s, const std::string& who) {
                if (who.empty()) {
                    return not_signed_in();
                }
                return list(s, who);
            });
        return;
    }
    if (name.size() > 64) {
        reply(error_response(404, "not_found", "no such player"));
        return;
    }
    PuzzleService* service = ctx.puzzles;
    reply_from_store(ctx, reply, [name, service, list, reply](Store& st) {
        const auto u = st.user_by_name(name);
        if (!u) {
            return error_response(404, "not_found", "no such player");
        }
        const std::string who = account_player_id(u->id);
        service->post([reply, list, who](PuzzleService& s) {
            try {
                reply(list(s, who));
            } catch (const std::exception&) {
                reply(unavailable());
            }
        });
        return replied_later();
    });
}

void post_puzzle_adopt(ApiContext& ctx, const Request& req, const RouteArgs&, Reply reply) {
    if (!admitted(ctx, req, reply, false)) {
        return;
    }
    const Json body   = Json::parse(req.body, nullptr, false);
    const auto secret = body.is_object() && body.contains("guest") && body["guest"].is_string()
                            ? body["guest"].get<std::string>()
                            : std::string{};
    if (secret.size() != 32 || secret.find_first_not_of("0123456789abcdef") != std::string::npos) {
        reply(error_response(400, "bad_secret", "give \"guest\": the browser's guest secret"));
        return;
    }
    const std::string guest = guest_player_id(secret);
    with_solver(
        ctx, req, std::move(reply), true, [guest](PuzzleService& s, const std::string& who) {
            Json moved = Json::array();
            for (const auto& v : s.adopt(guest, who)) {
                moved.push_back(v);
            }
            return json_response(200, Json{{"variants", moved}});
        });
}

void get_puzzles(ApiContext& ctx, const Request& req, const RouteArgs&, Reply reply) {
    if (!admitted(ctx, req, reply, false)) {
        return;
    }
    with_solver(ctx, req, std::move(reply), false, [](PuzzleService& s, const std::string&) {
        Json variants = Json::array();
        for (const auto& [variant, set, site] : s.counts()) {
            variants.push_back({{"variant", variant}, {"set", set}, {"site", site}});
        }
        const auto m = s.mining_figures();
        return json_response(
            200,
            Json{{"variants", variants},
                 {"mining", {{"games", m.games}, {"positions", m.positions}, {"kept", m.kept}}}});
    });
}

}  // namespace papan::server
