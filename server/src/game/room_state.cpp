// Room: the game's state as sent to clients (docs/protocol.md, "Game state").
#include "game/game_json.hpp"
#include "game/move_limit_json.hpp"
#include "game/room.hpp"

#include <papan/core/movegen.hpp>
#include <papan/core/notation/fen.hpp>
#include <papan/core/notation/move_text.hpp>
#include <papan/core/notation/squares.hpp>

namespace papan::server {

using Json = nlohmann::json;

Json Room::state_json() const {
    Json s = event_state_json();
    add_chat(s);
    return s;
}

void Room::add_chat(Json& state) const {
    if (chat_allowed()) {
        state["chat"] = chat_json();
    }
}

Json Room::event_state_json() const {
    const auto v       = game_.variant();
    const auto& pos    = game_.position();
    const bool playing = rec_.status == GameStatus::Playing;
    Json s;
    s["id"]           = id_;
    s["version"]      = version_;
    s["variant"]      = rec_.variant;
    s["variant_name"] = std::string(core::rules(v).name);
    s["mode"]         = game_mode_name(rec_.mode);
    s["level"]        = rec_.level;
    s["status"]       = game_status_name(rec_.status);
    s["rated"]        = rec_.rated;
    s["options"]      = {{"forced_capture", rec_.forced_capture}, {"draw_rules", rec_.draw_rules}};
    Json players;
    for (int c = 0; c < 2; ++c) {
        const auto& seat = rec_.seats[static_cast<std::size_t>(c)];
        Json p           = nullptr;
        if (!seat.player_id.empty()) {
            // A computer is shown as one, in random pairings too, with its strength.
            p = {{"id", seat.player_id},
                 {"name", seat.name},
                 {"computer", seat.computer},
                 {"account", seat.user_id.has_value()}};
            if (seat.computer) {
                p["level"] = rec_.level;
            }
        }
        players[c == 0 ? "white" : "black"] = p;
    }
    s["players"]   = players;
    s["start_fen"] = rec_.start_fen;
    s["fen"]       = core::to_fen(pos);
    s["turn"]      = color_key(pos.side);
    s["ply"]       = game_.ply();
    s["position"]  = {{"white", squares_json(v, pos.men(core::Color::White))},
                      {"white_kings", squares_json(v, pos.kings_of(core::Color::White))},
                      {"black", squares_json(v, pos.men(core::Color::Black))},
                      {"black_kings", squares_json(v, pos.kings_of(core::Color::Black))}};
    Json legal     = Json::array();
    if (playing) {
        for (const auto& m : game_.legal_moves()) {
            legal.push_back({{"text", core::move_text(pos, m, game_.legal_moves())},
                             {"path", core::path_squares(v, m)},
                             {"captures", core::captured_squares(v, m)}});
        }
    }
    s["legal_moves"]      = legal;
    s["capturers"]        = playing && game_.options().forced_capture
                                ? squares_json(v, core::capturers(pos))
                                : Json::array();
    Json moves            = Json::array();
    const auto& positions = game_.positions();
    for (std::size_t i = 0; i < game_.moves().size(); ++i) {
        const auto& before = positions[i];
        const auto& m      = game_.moves()[i];
        moves.push_back({{"ply", i},
                         {"color", color_key(before.side)},
                         {"text", core::move_text(before, m)},
                         {"path", core::path_squares(v, m)},
                         {"captures", core::captured_squares(v, m)}});
    }
    s["moves"]  = moves;
    Json limits = Json::array();
    if (!game_.is_over()) {
        for (const auto& d : game_.move_limits()) {
            limits.push_back(move_limit_json(d));
        }
    }
    s["move_limits"]    = limits;
    const auto claim    = game_.claimable_draw();
    s["claimable_draw"] = claim && playing ? Json(std::string(reason_key(*claim))) : Json(nullptr);
    s["draw_offer"]     = draw_offer_ ? Json(color_key(*draw_offer_)) : Json(nullptr);
    s["takeback_offer"] = takeback_offer_ ? Json(color_key(*takeback_offer_)) : Json(nullptr);
    s["rematch"]        = {{"white", rematch_wanted_[0]},
                           {"black", rematch_wanted_[1]},
                           {"game", rematch_game_.empty() ? Json(nullptr) : Json(rematch_game_)}};
    if (tc_.enabled()) {
        Json clock{{"time_control", time_control_json(tc_)},
                   {"server_time_ms", svc_.clock.now_ms()}};
        const bool running = clock_running();
        for (int c = 0; c < 2; ++c) {
            const auto col  = static_cast<core::Color>(c);
            const auto& pc  = clocks_[static_cast<std::size_t>(c)];
            const auto view = clock_at(tc_, pc, running && col == pos.side ? elapsed_ms() : 0)
                                  .value_or(ClockView{});
            clock[std::string(color_key(col))] = {{"main_ms", view.main_ms},
                                                  {"periods", view.periods},
                                                  {"period_ms", view.period_ms}};
        }
        clock["running"] = running ? Json(color_key(pos.side)) : Json(nullptr);
        clock["started"] = {{"white", has_moved(core::Color::White)},
                            {"black", has_moved(core::Color::Black)}};
        s["clock"]       = clock;
    } else {
        s["clock"] = nullptr;
    }
    s["undo_allowed"] = undo_plies() > 0;
    if (rec_.status == GameStatus::Over) {
        s["result"] = {
            {"outcome", rec_.outcome}, {"reason", rec_.reason}, {"text", rec_.result_text}};
        if (!result_ratings_.is_null()) {
            s["result"]["ratings"] = result_ratings_;
        }
    } else {
        s["result"] = nullptr;
    }
    return s;
}

std::string Room::state_message(std::optional<std::int64_t> ref) const {
    return state_message(state_json(), ref);
}

std::string Room::state_message(const Json& state, std::optional<std::int64_t> ref) const {
    Json j{{"type", "state"}, {"game", id_}, {"version", version_}, {"state", state}};
    if (ref) {
        j["ref"] = *ref;
    }
    return j.dump();
}

}  // namespace papan::server
