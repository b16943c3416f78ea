// GameSession: the players' commands (docs/protocol.md, "Commands"). Each is checked against the
// game first; a refused command changes nothing; an accepted one is a change (session.cpp).
#include "game/session.hpp"

#include <papan/core/movegen.hpp>
#include <papan/core/notation/move_text.hpp>

namespace papan::server {

namespace {

const char* const kWaiting = "the game has not started: waiting for the opponent";

std::string_view color_word(core::Color c) {
    return c == core::Color::White ? "white" : "black";
}

}  // namespace

Decision GameSession::command(const GameCommand& c,
                              const Identity& who,
                              std::int64_t now_ms,
                              const GameSettings& settings) {
    const auto mine = *owned_color(who);
    // In hot-seat one player holds both seats: they act for the side to move.
    const core::Color me = header.mode == GameMode::Hotseat ? game.side_to_move() : mine;
    switch (c.kind) {
    case CommandKind::Move:
        return on_move(c, who, now_ms, settings);
    case CommandKind::Undo:
        return on_undo(now_ms);
    case CommandKind::Rematch:
        return on_rematch(who);
    case CommandKind::TakebackOffer:
    case CommandKind::TakebackAccept:
    case CommandKind::TakebackDecline:
        return on_takeback(c, mine, now_ms);
    case CommandKind::Chat:
        return on_chat(c, mine, now_ms);
    case CommandKind::Resign:
    case CommandKind::DrawOffer:
    case CommandKind::DrawAccept:
    case CommandKind::DrawDecline:
    case CommandKind::DrawClaim:
        break;
    }
    if (header.status == GameStatus::Waiting) {
        return Refusal{ErrorCode::NotStarted, kWaiting};
    }
    if (header.status == GameStatus::Over) {
        return Refusal{ErrorCode::GameOver, "the game is over: " + header.result_text};
    }
    if (c.kind == CommandKind::Resign) {
        if (auto r = game.resign(me); !r) {
            return Refusal{ErrorCode::Refused, r.error()};
        }
        return end(EventKind::Resign, me, now_ms);
    }
    return on_draw(c, me, now_ms);
}

Decision GameSession::on_draw(const GameCommand& c, core::Color me, std::int64_t now_ms) {
    const bool hotseat = header.mode == GameMode::Hotseat;
    // The side answering an offer: in hot-seat the one the offer was made to.
    const core::Color other = hotseat ? core::opposite(draw.by().value_or(me)) : me;
    switch (c.kind) {
    case CommandKind::DrawOffer: {
        if (draw.by() == me) {
            return Refusal{ErrorCode::AlreadyOffered, "you have already offered a draw"};
        }
        if (draw.by() == core::opposite(me)) {
            if (auto r = game.agree_draw(); !r) {
                return Refusal{ErrorCode::Refused, r.error()};
            }
            return end(EventKind::DrawAgreed, me, now_ms);
        }
        if (is_computer(core::opposite(me))) {  // the computer declines
            return changed(GameEvent::of(EventKind::DrawDecline, core::opposite(me)),
                           StoreWrite::Kind::None,
                           now_ms);
        }
        (void)draw.offer(me);
        return changed(GameEvent::of(EventKind::DrawOffer, me), StoreWrite::Kind::Header, now_ms);
    }
    case CommandKind::DrawAccept:
        if (!draw.answerable_by(other)) {
            return Refusal{ErrorCode::NoDrawOffer, "there is no draw offer to accept"};
        }
        if (auto r = game.agree_draw(); !r) {
            return Refusal{ErrorCode::Refused, r.error()};
        }
        return end(EventKind::DrawAgreed, other, now_ms);
    case CommandKind::DrawDecline:
        if (!draw.answerable_by(other)) {
            return Refusal{ErrorCode::NoDrawOffer, "there is no draw offer to decline"};
        }
        draw.clear();
        return changed(
            GameEvent::of(EventKind::DrawDecline, other), StoreWrite::Kind::Header, now_ms);
    case CommandKind::DrawClaim:
        if (!game.claimable_draw()) {
            return Refusal{ErrorCode::NoClaim, "no draw can be claimed in this position"};
        }
        if (game.side_to_move() != me) {
            return Refusal{ErrorCode::NotYourTurn, "a draw is claimed on your turn"};
        }
        if (auto r = game.claim_draw(me); !r) {
            return Refusal{ErrorCode::NoClaim, r.error()};
        }
        return end(EventKind::DrawClaimed, me, now_ms);
    case CommandKind::Move:
    case CommandKind::Resign:
    case CommandKind::Undo:
    case CommandKind::Rematch:
    case CommandKind::TakebackOffer:
    case CommandKind::TakebackAccept:
    case CommandKind::TakebackDecline:
    case CommandKind::Chat:
        break;
    }
    return Refusal{ErrorCode::BadMessage, "not a draw command"};
}

Decision GameSession::on_resend(const MoveRequest& m, const Identity& who) const {
    // A resend of a move already applied gets the current state; anything else is stale.
    const int ply      = *m.ply;
    const auto idx     = static_cast<std::size_t>(ply);
    const auto& done   = game.moves()[idx];
    const auto& before = game.positions()[idx];
    const auto path    = core::path_squares(game.variant(), done);
    bool same          = false;
    if (!m.path.empty()) {
        same = path == m.path || (m.path.size() == 2 && m.path.front() == path.front() &&
                                  m.path.back() == path.back());
    } else if (m.from && m.to) {
        same = path.front() == *m.from && path.back() == *m.to;
    } else if (!m.text.empty()) {
        auto parsed = core::parse_move(before, m.text, game.movegen_options());
        same        = parsed && parsed->same_as(done);
    }
    if (same && owns(who, before.side)) {
        return SendState{};
    }
    return Refusal{ErrorCode::StalePly,
                   "ply " + std::to_string(ply) + " was already played; the game is at ply " +
                       std::to_string(game.ply())};
}

std::optional<core::Move> GameSession::find_move(const MoveRequest& m,
                                                 std::string& described) const {
    const auto v    = game.variant();
    const auto& pos = game.position();
    if (!m.path.empty()) {
        described = "path";
        for (int sq : m.path) {
            described += ' ';
            described += std::to_string(sq);
        }
        if (m.path.size() < 2) {
            return std::nullopt;
        }
        std::optional<core::Move> partial;
        int partial_count = 0;
        for (const auto& mv : game.legal_moves()) {
            const auto p = core::path_squares(v, mv);
            if (p == m.path) {
                return mv;
            }
            if (p.front() == m.path.front() && p.back() == m.path.back()) {
                partial = mv;
                ++partial_count;
            }
        }
        return partial_count == 1 ? partial : std::nullopt;
    }
    if (m.from && m.to) {
        described = std::to_string(*m.from);
        described += '-';
        described += std::to_string(*m.to);
        if (auto r = core::find_move(pos, *m.from, *m.to, m.captures, game.movegen_options())) {
            return *r;
        }
        if (!m.captures.empty()) {
            return std::nullopt;
        }
        std::optional<core::Move> only;
        int count = 0;
        for (const auto& mv : game.legal_moves()) {
            const auto p = core::path_squares(v, mv);
            if (p.front() == *m.from && p.back() == *m.to) {
                only = mv;
                ++count;
            }
        }
        return count == 1 ? only : std::nullopt;
    }
    described.assign(1, '\'');
    described += m.text;
    described += '\'';
    if (auto r = core::parse_move(pos, m.text, game.movegen_options())) {
        return *r;
    }
    return std::nullopt;
}

Decision GameSession::on_move(const GameCommand& c,
                              const Identity& who,
                              std::int64_t now_ms,
                              const GameSettings& settings) {
    const MoveRequest& m = c.move;
    if (header.status == GameStatus::Waiting) {
        return Refusal{ErrorCode::NotStarted, kWaiting};
    }
    if (!m.ply) {
        return Refusal{ErrorCode::BadMessage, "a move needs the ply it is played on ('ply')"};
    }
    const int ply = *m.ply;
    if (ply < game.ply()) {
        return on_resend(m, who);
    }
    if (header.status == GameStatus::Over) {
        return Refusal{ErrorCode::GameOver, "the game is over: " + header.result_text};
    }
    if (ply > game.ply()) {
        return Refusal{ErrorCode::BadPly,
                       "ply " + std::to_string(ply) + " is ahead of the game (at ply " +
                           std::to_string(game.ply()) + ")"};
    }
    const auto side = game.side_to_move();
    if (!owns(who, side)) {
        return Refusal{ErrorCode::NotYourTurn,
                       "it is " + std::string(color_word(side)) + "'s turn"};
    }
    if (m.path.empty() && !(m.from && m.to) && m.text.empty()) {
        return Refusal{ErrorCode::BadMessage, "a move needs 'path', 'from' and 'to', or 'text'"};
    }
    std::string described;
    const auto found = find_move(m, described);
    const auto legal = found ? game.find_legal(*found) : std::nullopt;
    if (!legal) {
        std::string hint;
        if (game.options().forced_capture && core::has_capture(game.position())) {
            hint = " (a capture is compulsory)";
        }
        return Refusal{ErrorCode::IllegalMove, described + " is not a legal move here" + hint};
    }
    // Too late: the flag (or the abort of a first move) the timer may not have given yet is the
    // change, and the mover is told why the move was not played.
    if (auto due = clock_due(now_ms, settings)) {
        due->reply =
            due->event.kind == EventKind::Flag
                ? Refusal{ErrorCode::OutOfTime, "your time ran out before the move arrived"}
                : Refusal{ErrorCode::GameOver,
                          "the game was aborted: the first move did not come in time"};
        return std::move(*due);
    }
    return play(*legal, false, now_ms);
}

Decision GameSession::on_undo(std::int64_t now_ms) {
    if (!undo_mode()) {
        return Refusal{ErrorCode::UndoNotAllowed,
                       "undo is allowed only against the computer and in hot-seat games"};
    }
    if (over_for_good()) {
        return Refusal{ErrorCode::GameOver, "the game is over: " + game.result_text()};
    }
    const int plies = undo_plies();
    if (plies == 0) {
        return Refusal{ErrorCode::NothingToUndo, "you have no move to take back"};
    }
    return take_back(plies, GameEvent::of(EventKind::Undo), now_ms);
}

Decision GameSession::on_takeback(const GameCommand& c, core::Color me, std::int64_t now_ms) {
    if (!between_people() || header.rated) {
        return Refusal{ErrorCode::TakebackNotAllowed,
                       "takebacks are for unrated friend and random games between people"};
    }
    if (header.status == GameStatus::Waiting) {
        return Refusal{ErrorCode::NotStarted, kWaiting};
    }
    if (!playing()) {
        return Refusal{ErrorCode::GameOver, "the game is over: " + header.result_text};
    }
    if (c.kind == CommandKind::TakebackOffer) {
        if (takeback.asker() == me) {
            return Refusal{ErrorCode::AlreadyOffered, "you have already asked to take back"};
        }
        if (takeback.asker()) {
            return Refusal{ErrorCode::AlreadyOffered, "your opponent's takeback request waits"};
        }
        if (TakebackRequest::plies(game, me) == 0) {
            return Refusal{ErrorCode::NothingToUndo, "you have no move to take back"};
        }
        takeback.ask(me);
        return changed(GameEvent::of(EventKind::TakebackOffer, me), StoreWrite::Kind::None, now_ms);
    }
    if (!takeback.asker() || *takeback.asker() == me) {
        return Refusal{ErrorCode::NoTakebackOffer, "there is no takeback request to answer"};
    }
    const core::Color asker = *takeback.asker();
    takeback.clear();
    if (c.kind == CommandKind::TakebackDecline) {
        return changed(
            GameEvent::of(EventKind::TakebackDecline, me), StoreWrite::Kind::None, now_ms);
    }
    if (clock_running() && !clock.charge(game.side_to_move(), now_ms)) {
        clock.flag(game.side_to_move());
    }
    // The clocks keep the time spent: the side thinking until now (the accepter, or the asker
    // when the opponent had answered) is charged for it, as by a move; the asker's clock runs
    // from the acceptance.
    clock.start_turn(now_ms);
    return take_back(
        TakebackRequest::plies(game, asker), GameEvent::of(EventKind::Undo, me), now_ms);
}

Decision GameSession::on_chat(const GameCommand& c, core::Color me, std::int64_t now_ms) {
    if (!chat_allowed()) {
        return Refusal{ErrorCode::ChatNotAllowed,
                       "chat is for friend and random games between people"};
    }
    if (header.status == GameStatus::Waiting) {
        return Refusal{ErrorCode::NotStarted, kWaiting};
    }
    auto written = chat.write(me, c.text, game.ply(), now_ms);
    if (auto* refused = std::get_if<Refusal>(&written)) {
        return std::move(*refused);
    }
    GameEvent e       = GameEvent::of(EventKind::Chat, me);
    e.line            = std::get<ChatRecord>(std::move(written));
    Change change     = changed(std::move(e), StoreWrite::Kind::Chat, now_ms);
    change.write.line = change.event.line;
    return change;
}

Decision GameSession::on_rematch(const Identity& who) {
    if (header.status != GameStatus::Over) {
        return Refusal{ErrorCode::GameNotOver, "a rematch can be asked once the game is over"};
    }
    if (!rematch.game().empty()) {
        return SendState{};
    }
    const auto mine  = *owned_color(who);
    const auto other = core::opposite(mine);
    const bool both  = header.mode == GameMode::Hotseat || is_computer(other) || owns(who, other) ||
                      rematch.wanted(other);
    rematch.want(mine);
    if (!both) {
        return changed(GameEvent::of(EventKind::RematchOffer, mine),
                       StoreWrite::Kind::None,
                       header.updated_ms);
    }
    return OpenRematch{rematch_record()};
}

Decision GameSession::join(const Identity& who, std::int64_t now_ms) {
    const auto free = header.seats[0].player_id.empty() ? core::Color::White : core::Color::Black;
    header.seats[static_cast<std::size_t>(core::index(free))] =
        SeatRecord{who.player_id, who.name, false, who.user_id};
    if (header.rated && !(header.seats[0].user_id && header.seats[1].user_id && who.may_rate())) {
        header.rated = false;  // rated only between two signed-in players the rule admits
    }
    header.status = GameStatus::Playing;
    clock.start_turn(now_ms);
    Change c  = changed(GameEvent::of(EventKind::Start, free), StoreWrite::Kind::Header, now_ms);
    c.restart = true;
    return c;
}

}  // namespace papan::server
