// POST /api/import (docs/protocol.md, "Importing PDN"): a signed-in account sends a PDN file as
// the body; every good game is stored as a finished, unrated game of mode `imported`, and the
// answer lists the stored games (with their links) and the rejected ones (game, move, reason).
// Reading runs on a bounded pool of one thread of its own (a full pool answers 503 busy), the
// writes in one store transaction.
#include "api/handlers.hpp"
#include "api/pdn_import.hpp"
#include "game/peer.hpp"
#include "game/store_executor.hpp"
#include "support/log.hpp"

#include <papan/server/tokens.hpp>

#include <algorithm>
#include <memory>

namespace papan::server {

using Json = nlohmann::json;

namespace {

bool blank(std::string_view body) {
    return std::all_of(body.begin(), body.end(), [](char c) {
        return c == ' ' || c == '\t' || c == '\r' || c == '\n';
    });
}

HttpResponse no_games() {
    return error_response(400, "no_games", "the body holds no PDN game");
}

Json rejected_json(const std::vector<RejectedGame>& rejected) {
    Json list = Json::array();
    for (const auto& r : rejected) {
        list.push_back({{"game", r.number},
                        {"move", r.move},
                        {"line", r.line},
                        {"kind", r.kind},
                        {"reason", r.reason}});
    }
    return list;
}

Json report_json(const ImportReport& report) {
    Json stored = Json::array();
    for (const auto& g : report.good) {
        stored.push_back({{"game", g.number},
                          {"id", g.record.id},
                          {"variant", g.record.variant},
                          {"white", g.record.seats[0].name},
                          {"black", g.record.seats[1].name},
                          {"result", g.result},
                          {"moves", g.record.moves.size()},
                          {"link", "/#/game/" + g.record.id},
                          {"api", "/api/games/" + g.record.id}});
    }
    return Json{{"encoding", report.encoding},
                {"games", report.games},
                {"stored", stored},
                {"rejected", rejected_json(report.rejected)}};
}

HttpResponse busy() {
    auto r = error_response(503, "busy", "the server is busy; try the import again");
    r.headers.emplace_back("Retry-After", "1");
    return r;
}

// Reads the file and stores its good games (on the pool's thread).
void read_and_store(ApiContext& ctx,
                    const std::shared_ptr<const std::string>& body,
                    const std::string& importer,
                    Reply reply) {
    auto report = std::make_shared<ImportReport>();
    try {
        *report = import_pdn(*body, ctx.svc.clock.now_ms(), [] { return random_hex(8); });
    } catch (const std::exception& e) {
        log_line("http", std::string("import: internal error: ") + e.what());
        reply(internal_error_response());
        return;
    }
    if (report->games == 0) {
        reply(no_games());
        return;
    }
    if (report->good.empty()) {
        Json body_json{{"error", "no_good_games"},
                       {"message", "no game of the file could be imported"},
                       {"rejected", rejected_json(report->rejected)}};
        reply(json_response(422, body_json));
        return;
    }
    reply_from_store(ctx, std::move(reply), [report, importer](Store& s) {
        s.transaction([&] {
            for (const auto& g : report->good) {
                s.insert_game_with_moves(g.record);
                // Listed among the importer's games (its profile, "Your games") to find again.
                s.record_import(importer, g.record.id);
            }
        });
        return json_response(201, report_json(*report));
    });
}

}  // namespace

void post_import(ApiContext& ctx, const Request& req, const RouteArgs&, Reply reply) {
    if (req.body.size() > kMaxImportBytes) {
        reply(error_response(413, "body_too_large", "a PDN import is at most 1 MiB"));
        return;
    }
    const std::string token = req.bearer;
    const bool empty        = blank(req.body);
    auto body               = std::make_shared<const std::string>(req.body);
    reply_from_store(ctx, reply, [&ctx, token, empty, body, reply](Store& s) {
        const auto user = session_of(ctx, s, token);
        if (!user) {
            return not_signed_in();
        }
        if (empty) {
            return no_games();
        }
        if (const auto wait = ctx.accounts->take_import(user->id); wait > 0) {
            auto r = error_response(429, "too_many_imports", "too many imports; try again later");
            r.headers.emplace_back("Retry-After", std::to_string(wait));
            return r;
        }
        const std::string importer = account_player_id(user->id);
        const bool queued          = ctx.accounts->importing().try_post(
            [&ctx, body, importer, reply] { read_and_store(ctx, body, importer, reply); });
        return queued ? replied_later() : busy();
    });
}

}  // namespace papan::server
