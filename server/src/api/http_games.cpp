// HTTP handlers of games, players, variants and health (docs/protocol.md, "HTTP").
#include "api/handlers.hpp"
#include "game/ai_pool.hpp"
#include "game/endgame_builds.hpp"
#include "game/lobby.hpp"
#include "game/store_executor.hpp"

#include <papan/core/game.hpp>
#include <papan/core/notation/fen.hpp>
#include <papan/core/notation/move_text.hpp>
#include <papan/core/notation/pdn.hpp>
#include <papan/core/notation/squares.hpp>
#include <papan/core/rules/registry.hpp>
#include <papan/server/elo.hpp>
#include <papan/server/wire/names.hpp>

#include <ctime>
#include <map>
#include <string>

namespace papan::server {

using Json = nlohmann::json;

namespace {

constexpr int kGamesListed   = 100;
constexpr std::size_t kMaxId = 32;

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

std::string_view man_captures_key(core::ManDirections d) {
    switch (d) {
    case core::ManDirections::Forward:
        return "forward";
    case core::ManDirections::ForwardAndBackward:
        return "forward_and_backward";
    case core::ManDirections::ForwardAndSideways:
        return "forward_and_sideways";
    }
    return "";
}

std::string_view precedence_key(core::CapturePrecedence p) {
    switch (p) {
    case core::CapturePrecedence::Free:
        return "free";
    case core::CapturePrecedence::Majority:
        return "majority";
    case core::CapturePrecedence::MajorityThenKings:
        return "majority_then_kings";
    case core::CapturePrecedence::Italian:
        return "italian";
    case core::CapturePrecedence::KingsFirst:
        return "kings_first";
    }
    return "";
}

// The capture facts of a variant's rules the client explains in play.
Json rules_json(const core::RuleSet& r) {
    return Json{{"man_captures", man_captures_key(r.man_captures)},
                {"man_captures_king", r.man_captures_king},
                {"king_range", r.king_range == core::KingRange::Short ? "short" : "flying"},
                {"precedence", precedence_key(r.precedence)}};
}

Json seat_json(const SeatRecord& s) {
    return Json{{"id", s.player_id}, {"name", s.name}, {"computer", s.computer}};
}

Json game_summary(const GameRecord& g) {
    return Json{{"id", g.id},
                {"variant", g.variant},
                {"mode", wire::name(g.mode)},
                {"status", wire::name(g.status)},
                {"white", seat_json(g.seats[0])},
                {"black", seat_json(g.seats[1])},
                {"outcome", wire::name(g.outcome)},
                {"reason", wire::name(g.reason)},
                {"result_text", g.result_text},
                {"rated", g.rated},
                {"created_ms", g.created_ms}};
}

// A player's games, newest first; a signed-in player's rated games carry `rating_change` (what
// the game did to the player's rating in its variant).
Json games_of(Store& s, const std::string& player_id) {
    std::map<std::string, int> changes;
    if (const auto user = account_of(player_id)) {
        for (const auto& c : s.rating_history(*user)) {
            changes[c.game_id] = c.change;
        }
    }
    Json games = Json::array();
    for (const auto& g : s.games_of(player_id, kGamesListed)) {
        Json row = game_summary(g);
        if (const auto it = changes.find(g.id); g.rated && it != changes.end()) {
            row["rating_change"] = it->second;
        }
        games.push_back(std::move(row));
    }
    return games;
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
    opts.draw_rules     = g.draw_rules;
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
    pdn.set_tag("Event", "Papan " + std::string(wire::name(g.mode)) + " game");
    pdn.set_tag("Site", "Papan");
    // An unnamed guest is "" on the wire (each client has its word); a PDN file says Guest.
    const auto pdn_name = [](const SeatRecord& seat) {
        return seat.name.empty() ? std::string("Guest") : seat.name;
    };
    pdn.set_tag("White", pdn_name(g.seats[0]));
    pdn.set_tag("Black", pdn_name(g.seats[1]));
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
    switch (g.outcome) {
    case core::Outcome::WhiteWins:
        res = core::PdnResult::FirstWins;
        break;
    case core::Outcome::BlackWins:
        res = core::PdnResult::SecondWins;
        break;
    case core::Outcome::Draw:
        res = core::PdnResult::Draw;
        break;
    case core::Outcome::Ongoing:
        break;
    }
    pdn.result = std::string(core::pdn_result_text(res, *v));
    pdn.set_tag("Result", pdn.result);
    if (!g.result_text.empty()) {
        pdn.set_tag("Termination", g.result_text);
    }
    return core::write_pdn_game(pdn);
}

}  // namespace

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
                 {"rules", rules_json(r)},
                 {"square_coords", squares}});
        }
        return Json{{"variants", list}};
    }();
    return table;
}

void get_healthz(ApiContext& ctx, const Request&, const RouteArgs&, Reply reply) {
    if (!ctx.ready) {
        reply(json_response(503, Json{{"status", "starting"}}));
        return;
    }
    Json ai{{"queued", ctx.svc.ai.pending()}, {"fallbacks", ctx.svc.ai.fallbacks()}};
    if (const auto* offload = ctx.svc.ai.offload(); offload != nullptr) {
        const auto w  = offload->stats();
        ai["workers"] = {{"alive", w.workers_alive},
                         {"sent", w.sent},
                         {"answered", w.answered},
                         {"thought_here", w.thought_here},
                         {"refused", w.refused}};
    }
    ai["endgames"] = loaded_endgames(ctx.svc.ai.settings().egdb_dir);
    reply(json_response(
        200,
        Json{{"status", "ok"}, {"ai", std::move(ai)}, {"rooms", ctx.lobby.rooms_in_memory()}}));
}

void get_variants(ApiContext&, const Request&, const RouteArgs&, Reply reply) {
    reply(json_response(200, variants_json()));
}

void get_leaderboard(ApiContext& ctx, const Request& req, const RouteArgs&, Reply reply) {
    const auto asked = req.param("variant");
    if (asked.empty()) {
        reply_from_store(ctx, std::move(reply), [](Store& s) {
            Json variants = Json::array();
            for (const auto& [variant, players] : s.rated_variants()) {
                variants.push_back({{"variant", variant}, {"players", players}});
            }
            return json_response(200, Json{{"variants", variants}});
        });
        return;
    }
    const auto v = core::variant_from_key(asked);
    if (!v) {
        reply(error_response(400, "bad_variant", "unknown variant"));
        return;
    }
    const std::string key(core::rules(*v).key);
    reply_from_store(ctx, std::move(reply), [key](Store& s) {
        Json players = Json::array();
        for (const auto& r : s.leaderboard(key, kGamesListed)) {
            players.push_back({{"username", r.username}, {"rating", r.rating}, {"games", r.games}});
        }
        return json_response(200, Json{{"variant", key}, {"players", players}});
    });
}

void get_games(ApiContext& ctx, const Request& req, const RouteArgs&, Reply reply) {
    const std::string who = req.param("player");
    if (who.empty() || who.size() > 64) {
        reply(error_response(400, "bad_request", "give ?player=<username or player id>"));
        return;
    }
    reply_from_store(ctx, std::move(reply), [who](Store& s) {
        std::string pid = who;
        if (const auto u = s.user_by_name(who)) {
            pid = account_player_id(u->id);
        }
        return json_response(200, Json{{"player", pid}, {"games", games_of(s, pid)}});
    });
}

void get_game(ApiContext& ctx, const Request&, const RouteArgs& args, Reply reply) {
    const std::string& id = args.at(0);
    if (id.size() > kMaxId) {
        reply(error_response(404, "not_found", "no such game"));
        return;
    }
    reply_from_store(ctx, std::move(reply), [id](Store& s) {
        const auto g = s.load_game(id);
        if (!g) {
            return error_response(404, "not_found", "no such game");
        }
        Json j     = game_summary(*g);
        Json moves = Json::array();
        for (const auto& m : g->moves) {
            moves.push_back(m.text);
        }
        j["moves"]     = moves;
        j["start_fen"] = g->start_fen;
        return json_response(200, j);
    });
}

void get_game_pdn(ApiContext& ctx, const Request&, const RouteArgs& args, Reply reply) {
    const std::string& id = args.at(0);
    if (id.size() > kMaxId) {
        reply(error_response(404, "not_found", "no such game"));
        return;
    }
    reply_from_store(ctx, std::move(reply), [id](Store& s) {
        const auto g = s.load_game(id);
        if (!g) {
            return error_response(404, "not_found", "no such game");
        }
        if (g->status != GameStatus::Over) {
            return error_response(
                409, "game_in_progress", "the PDN of a game is available once it is over");
        }
        const auto text = make_pdn(*g);
        if (!text) {
            return error_response(409, "no_pdn", "this game cannot be written as PDN");
        }
        HttpResponse r;
        r.content_type = "application/x-pdn; charset=utf-8";
        r.body         = *text;
        r.headers.emplace_back("Content-Disposition",
                               "attachment; filename=\"papan-" + g->id + ".pdn\"");
        return r;
    });
}

void get_player(ApiContext& ctx, const Request&, const RouteArgs& args, Reply reply) {
    const std::string& name = args.at(0);
    reply_from_store(ctx, std::move(reply), [name](Store& s) {
        const auto u = name.size() <= 64 ? s.user_by_name(name) : std::nullopt;
        if (!u) {
            return error_response(404, "not_found", "no such player");
        }
        const std::string pid = account_player_id(u->id);
        Json ratings          = Json::object();
        for (const auto& r : s.ratings_of(u->id)) {
            ratings[r.variant] = {{"rating", r.rating},
                                  {"games", r.games},
                                  {"wins", r.wins},
                                  {"losses", r.losses},
                                  {"draws", r.draws}};
        }
        Json history = Json::array();
        for (const auto& c : s.rating_history(u->id)) {
            history.push_back({{"variant", c.variant},
                               {"game", c.game_id},
                               {"rating", c.rating},
                               {"change", c.change},
                               {"at_ms", c.at_ms}});
        }
        return json_response(200,
                             Json{{"user", {{"id", pid}, {"username", u->username}}},
                                  {"created_ms", u->created_ms},
                                  {"ratings", ratings},
                                  {"history", history},
                                  {"games", games_of(s, pid)}});
    });
}

}  // namespace papan::server
