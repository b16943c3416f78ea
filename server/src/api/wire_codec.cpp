#include "api/wire_codec.hpp"

#include "game/session.hpp"

#include <papan/core/movegen.hpp>
#include <papan/core/notation/fen.hpp>
#include <papan/core/rules/registry.hpp>
#include <papan/server/wire/game_writer.hpp>
#include <papan/server/wire/json_writer.hpp>
#include <papan/server/wire/names.hpp>

namespace papan::server {

namespace {

using wire::JsonWriter;
using wire::name;

// Room for a typical message, so that it is written without the string growing.
constexpr std::size_t kEventReserve = 2048;
constexpr std::size_t kStateReserve = 8192;

void ref_field(JsonWriter& out, Ref ref) {
    if (ref) {
        out.field("ref", *ref);
    }
}

void write_time_control(JsonWriter& out, const TimeControl& tc) {
    const auto seconds = [](std::int64_t ms) { return static_cast<double>(ms) / 1000.0; };
    switch (tc.kind) {
    case TimeKind::None:
        out.null();
        return;
    case TimeKind::ByoYomi:
        out.begin_object()
            .field("kind", name(tc.kind))
            .field("main", seconds(tc.main_ms))
            .field("periods", tc.periods)
            .field("period", seconds(tc.period_ms))
            .end_object();
        return;
    case TimeKind::Fischer:
        out.begin_object()
            .field("kind", name(tc.kind))
            .field("main", seconds(tc.main_ms))
            .field("increment", seconds(tc.increment_ms))
            .end_object();
        return;
    }
    out.null();
}

void write_optional_color(JsonWriter& out, std::string_view key, std::optional<core::Color> c) {
    out.key(key);
    if (c) {
        out.value(name(*c));
    } else {
        out.null();
    }
}

// ---- the state's fields (docs/protocol.md, "Game state") ---------------------------------------

void write_players(JsonWriter& out, const GameSession& s) {
    out.key("players").begin_object();
    for (const auto c : {core::Color::White, core::Color::Black}) {
        const auto& seat = s.header.seats[static_cast<std::size_t>(core::index(c))];
        out.key(name(c));
        if (seat.player_id.empty()) {
            out.null();
            continue;
        }
        // A computer is shown as one, in random pairings too, with its strength.
        out.begin_object()
            .field("id", seat.player_id)
            .field("name", seat.name)
            .field("computer", seat.computer)
            .field("account", seat.user_id.has_value());
        if (seat.computer) {
            out.field("level", name(s.header.level));
        }
        out.end_object();
    }
    out.end_object();
}

void write_capturers(JsonWriter& out, const GameSession& s) {
    out.key("capturers");
    if (s.header.status == GameStatus::Playing && s.game.options().forced_capture) {
        wire::write_squares(out, s.game.variant(), core::capturers(s.game.position()));
    } else {
        out.begin_array().end_array();
    }
}

void write_position_fields(JsonWriter& out, const GameSession& s) {
    const auto& pos = s.game.position();
    out.field("fen", core::to_fen(pos)).field("turn", name(pos.side)).field("ply", s.game.ply());
    out.key("position");
    wire::write_pieces(out, pos);
}

// The fields that follow the game's progress: what may be played and claimed, the offers that
// a move or an ending answers, and the result.
void write_play_fields(JsonWriter& out, const GameSession& s) {
    const bool playing = s.header.status == GameStatus::Playing;
    out.key("legal_moves");
    wire::write_legal_moves(out, s.game, playing);
    write_capturers(out, s);
    out.key("move_limits");
    wire::write_move_limits(out, s.game, !s.game.is_over());
    out.key("claimable_draw");
    const auto claim = s.game.claimable_draw();
    if (claim && playing) {
        out.value(name(*claim));
    } else {
        out.null();
    }
    write_optional_color(out, "draw_offer", s.draw.by());
    write_optional_color(out, "takeback_offer", s.takeback.asker());
    out.field("undo_allowed", s.undo_plies() > 0);
    out.field("status", name(s.header.status));
    out.key("result");
    if (s.header.status != GameStatus::Over) {
        out.null();
        return;
    }
    out.begin_object();
    wire::write_result_fields(out, s.header.outcome, s.header.reason, s.header.result_text);
    if (s.ratings) {
        out.key("ratings").begin_object();
        for (const auto c : {core::Color::White, core::Color::Black}) {
            const auto& r = (*s.ratings)[static_cast<std::size_t>(core::index(c))];
            out.key(name(c)).begin_object();
            out.field("before", r.before).field("after", r.after).end_object();
        }
        out.end_object();
    }
    out.end_object();
}

void write_rematch(JsonWriter& out, const GameSession& s) {
    out.key("rematch").begin_object();
    out.field("white", s.rematch.wanted(core::Color::White));
    out.field("black", s.rematch.wanted(core::Color::Black));
    out.key("game");
    if (s.rematch.game().empty()) {
        out.null();
    } else {
        out.value(s.rematch.game());
    }
    out.end_object();
}

void write_chat_line(JsonWriter& out, const ChatRecord& l) {
    out.begin_object()
        .field("by", name(static_cast<core::Color>(l.color)))
        .field("ply", l.ply)
        .field("time_ms", l.at_ms)
        .field("text", l.text)
        .end_object();
}

void write_clock(JsonWriter& out, const GameSession& s, std::int64_t now_ms) {
    out.key("clock");
    if (!s.clock.enabled()) {
        out.null();
        return;
    }
    out.begin_object();
    out.key("time_control");
    write_time_control(out, s.clock.tc);
    out.field("server_time_ms", now_ms);
    const bool running = s.clock_running();
    const auto to_move = s.game.side_to_move();
    for (const auto c : {core::Color::White, core::Color::Black}) {
        const auto view = s.clock.view(c, running && c == to_move, now_ms);
        out.key(name(c)).begin_object();
        out.field("main_ms", view.main_ms)
            .field("periods", view.periods)
            .field("period_ms", view.period_ms)
            .end_object();
    }
    write_optional_color(out, "running", running ? std::optional(to_move) : std::nullopt);
    out.key("started").begin_object();
    out.field("white", s.has_moved(core::Color::White));
    out.field("black", s.has_moved(core::Color::Black));
    out.end_object();
    out.end_object();
}

void write_state(JsonWriter& out, const GameSession& s, std::int64_t now_ms) {
    const auto& h = s.header;
    out.begin_object()
        .field("id", h.id)
        .field("version", h.version)
        .field("variant", h.variant)
        .field("variant_name", core::rules(s.game.variant()).name)
        .field("mode", name(h.mode))
        .field("level", name(h.level))
        .field("rated", h.rated);
    out.key("options").begin_object();
    out.field("forced_capture", h.forced_capture)
        .field("draw_rules", static_cast<int>(h.draw_rules))
        .end_object();
    write_players(out, s);
    out.field("start_fen", h.start_fen);
    write_position_fields(out, s);
    out.key("moves");
    wire::write_moves(out, s.game);
    write_play_fields(out, s);
    write_rematch(out, s);
    if (s.chat_allowed()) {
        out.key("chat").begin_array();
        for (const auto& l : s.chat.lines()) {
            write_chat_line(out, l);
        }
        out.end_array();
    }
    write_clock(out, s, now_ms);
    out.end_object();
}

// ---- events ----------------------------------------------------------------------------------

void write_event_body(JsonWriter& out, const GameSession& s, const GameEvent& e) {
    out.begin_object().field("kind", name(e.kind));
    switch (e.kind) {
    case EventKind::Move: {
        out.field("computer", e.computer);
        out.key("move");
        const auto& before = s.game.positions()[static_cast<std::size_t>(e.ply)];
        wire::write_played_move(out, e.ply, before, e.move, e.text);
        break;
    }
    case EventKind::Start:
        write_optional_color(out, "joined", e.by);
        break;
    case EventKind::Undo:
        out.field("plies", e.plies);
        if (e.by) {
            out.field("by", name(*e.by));
        }
        break;
    case EventKind::Rematch:
        out.field("game", e.game);
        break;
    case EventKind::Chat:
        out.field("by", name(static_cast<core::Color>(e.line.color)))
            .field("text", e.line.text)
            .field("time_ms", e.line.at_ms);
        break;
    case EventKind::Resign:
    case EventKind::DrawOffer:
    case EventKind::DrawDecline:
    case EventKind::DrawAgreed:
    case EventKind::DrawClaimed:
    case EventKind::Flag:
    case EventKind::Abort:
    case EventKind::RematchOffer:
    case EventKind::TakebackOffer:
    case EventKind::TakebackDecline:
        write_optional_color(out, "by", e.by);
        break;
    }
    out.end_object();
}

// The fields of the state the event changed (docs/protocol.md, "Events as deltas"): what its
// kind can change, with the values the session has now. The clock of a timed game is always
// there (its display moves with time).
void write_delta(JsonWriter& out, const GameSession& s, const GameEvent& e, std::int64_t now_ms) {
    out.begin_object().field("version", s.version());
    switch (e.kind) {
    case EventKind::Move:
    case EventKind::Undo: {
        write_position_fields(out, s);
        write_play_fields(out, s);
        const auto moves = s.game.moves();
        const int keep   = e.kind == EventKind::Move ? e.ply : s.game.ply();
        out.field("moves_keep", keep);
        out.key("moves_add").begin_array();
        if (e.kind == EventKind::Move) {
            const auto& before = s.game.positions()[static_cast<std::size_t>(e.ply)];
            wire::write_played_move(
                out, e.ply, before, moves[static_cast<std::size_t>(e.ply)], e.text);
        }
        out.end_array();
        break;
    }
    case EventKind::Resign:
    case EventKind::DrawAgreed:
    case EventKind::DrawClaimed:
    case EventKind::Flag:
    case EventKind::Abort:
        write_play_fields(out, s);
        break;
    case EventKind::DrawOffer:
    case EventKind::DrawDecline:
        write_optional_color(out, "draw_offer", s.draw.by());
        break;
    case EventKind::TakebackOffer:
    case EventKind::TakebackDecline:
        write_optional_color(out, "takeback_offer", s.takeback.asker());
        break;
    case EventKind::RematchOffer:
    case EventKind::Rematch:
        write_rematch(out, s);
        break;
    case EventKind::Chat:
        out.key("chat_add").begin_array();
        write_chat_line(out, e.line);
        out.end_array();
        break;
    case EventKind::Start:
        break;
    }
    if (s.clock.enabled()) {
        write_clock(out, s, now_ms);
    }
    out.end_object();
}

}  // namespace

std::string WireMessages::error_text(ErrorCode code, std::string_view message, Ref ref) {
    std::string text;
    text.reserve(64 + message.size());
    JsonWriter out(text);
    out.begin_object().field("type", "error").field("code", name(code)).field("message", message);
    ref_field(out, ref);
    out.end_object();
    return text;
}

std::string WireMessages::internal_error() {
    return error_text(
        ErrorCode::Internal, "the server could not handle that message", std::nullopt);
}

std::string WireMessages::error(ErrorCode code, std::string_view message, Ref ref) const {
    return error_text(code, message, ref);
}

std::string WireMessages::state(const GameSession& s, std::int64_t now_ms, Ref ref) const {
    std::string text;
    text.reserve(kStateReserve);
    JsonWriter out(text);
    out.begin_object().field("type", "state").field("game", s.id()).field("version", s.version());
    ref_field(out, ref);
    out.key("state");
    write_state(out, s, now_ms);
    out.end_object();
    return text;
}

std::string
WireMessages::event(const GameSession& s, const GameEvent& e, std::int64_t now_ms) const {
    std::string text;
    text.reserve(e.kind == EventKind::Start ? kStateReserve : kEventReserve);
    JsonWriter out(text);
    out.begin_object().field("type", "event").field("game", s.id()).field("version", s.version());
    out.key("event");
    write_event_body(out, s, e);
    if (e.kind == EventKind::Start) {
        // The friend who just sat down has no state yet: a start carries it whole.
        out.key("state");
        write_state(out, s, now_ms);
    } else {
        out.key("delta");
        write_delta(out, s, e, now_ms);
    }
    out.end_object();
    return text;
}

std::string WireMessages::resumed(const std::string& game, std::int64_t version, Ref ref) const {
    std::string text;
    JsonWriter out(text);
    out.begin_object().field("type", "resumed").field("game", game).field("version", version);
    ref_field(out, ref);
    out.end_object();
    return text;
}

std::string WireMessages::presence(const std::string& game,
                                   const std::array<bool, 2>& present) const {
    std::string text;
    JsonWriter out(text);
    out.begin_object().field("type", "presence").field("game", game);
    out.key("present")
        .begin_object()
        .field("white", present[0])
        .field("black", present[1])
        .end_object();
    out.end_object();
    return text;
}

std::string WireMessages::created(const GameRecord& rec, const std::string& invite, Ref ref) const {
    std::string text;
    JsonWriter out(text);
    out.begin_object().field("type", "created").field("game", rec.id).field("mode", name(rec.mode));
    if (!invite.empty()) {
        out.field("invite", invite)
            .field("link", "/#join=" + invite)
            .field("expires_ms", rec.invite_expires_ms);
    }
    ref_field(out, ref);
    out.end_object();
    return text;
}

std::string WireMessages::seeking(const std::string& variant,
                                  const TimeControl& clock,
                                  std::int64_t wait_ms,
                                  Ref ref) const {
    std::string text;
    JsonWriter out(text);
    out.begin_object().field("type", "seeking").field("variant", variant);
    out.key("clock");
    write_time_control(out, clock);
    out.field("wait_ms", wait_ms);
    ref_field(out, ref);
    out.end_object();
    return text;
}

std::string WireMessages::paired(const std::string& game, bool computer, Level level) const {
    std::string text;
    JsonWriter out(text);
    out.begin_object().field("type", "paired").field("game", game).field("computer", computer);
    if (computer) {
        out.field("level", name(level));
    }
    out.end_object();
    return text;
}

std::string WireMessages::seek_cancelled(bool cancelled, Ref ref) const {
    std::string text;
    JsonWriter out(text);
    out.begin_object().field("type", "seek_cancelled").field("cancelled", cancelled);
    ref_field(out, ref);
    out.end_object();
    return text;
}

std::string WireMessages::welcome(const Identity& who, const std::string& secret, Ref ref) {
    std::string text;
    JsonWriter out(text);
    out.begin_object().field("type", "welcome");
    out.key("player").begin_object();
    out.field("id", who.player_id)
        .field("name", who.name)
        .field("account", who.user_id.has_value())
        .end_object();
    if (!secret.empty()) {
        out.field("secret", secret);
    }
    ref_field(out, ref);
    out.end_object();
    return text;
}

}  // namespace papan::server
