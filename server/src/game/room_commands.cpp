// Room: the players' commands (docs/protocol.md, "Commands"). Each is checked against the game
// first; a refused command changes nothing and answers an error; an accepted one is a change
// (room.cpp: begin_change, then commit).
#include "game/game_json.hpp"
#include "game/lobby.hpp"
#include "game/room.hpp"

#include <papan/core/movegen.hpp>
#include <papan/core/notation/move_text.hpp>
#include <papan/core/notation/squares.hpp>

namespace papan::server {

using Json = nlohmann::json;

void Room::handle(const ClientMessage& m, const Identity& who, const std::shared_ptr<Peer>& peer) {
    if (defer_while_writing(
            [self = shared_from_this(), m, who, peer] { self->handle(m, who, peer); })) {
        return;
    }
    if (closed_) {
        send_error(peer, "shutting_down", "the server is shutting down", m.id);
        return;
    }
    const auto mine = owned_color(who);
    if (!mine) {
        send_error(peer, "not_your_game", "you are not a player of game " + id_, m.id);
        return;
    }
    guarded({peer, m.id}, [&] {
        subscribe(peer, who);
        // In hot-seat one player holds both seats: they act for the side to move.
        const core::Color me = rec_.mode == GameMode::Hotseat ? game_.side_to_move() : *mine;
        switch (m.type) {
        case MessageType::Move:
            on_move(m, who, peer);
            return;
        case MessageType::Undo:
            on_undo(m, who, peer);
            return;
        case MessageType::Rematch:
            on_rematch(m, who, peer);
            return;
        case MessageType::TakebackOffer:
        case MessageType::TakebackAccept:
        case MessageType::TakebackDecline:
            on_takeback(m, *mine, peer);
            return;
        case MessageType::Chat:
            on_chat(m, *mine, peer);
            return;
        case MessageType::Resign:
        case MessageType::DrawOffer:
        case MessageType::DrawAccept:
        case MessageType::DrawDecline:
        case MessageType::DrawClaim:
            break;
        case MessageType::Hello:
        case MessageType::Create:
        case MessageType::Join:
        case MessageType::Resume:
        case MessageType::Seek:
        case MessageType::CancelSeek:
            send_error(peer, "bad_message", "not a game command", m.id);
            return;
        }
        if (rec_.status == GameStatus::Waiting) {
            send_error(
                peer, "not_started", "the game has not started: waiting for the opponent", m.id);
            return;
        }
        if (rec_.status == GameStatus::Over) {
            send_error(peer, "game_over", "the game is over: " + rec_.result_text, m.id);
            return;
        }
        if (m.type == MessageType::Resign) {
            begin_change();
            if (auto r = game_.resign(me); !r) {
                restore();
                send_error(peer, "refused", r.error(), m.id);
                return;
            }
            apply_ending("resign", me, {peer, m.id});
            return;
        }
        on_draw(m, me, peer);
    });
}

void Room::on_draw(const ClientMessage& m, core::Color me, const std::shared_ptr<Peer>& peer) {
    const bool hotseat = rec_.mode == GameMode::Hotseat;
    const Origin origin{peer, m.id};
    switch (m.type) {
    case MessageType::DrawOffer: {
        if (draw_offer_ == me) {
            send_error(peer, "already_offered", "you have already offered a draw", m.id);
            return;
        }
        begin_change();
        if (draw_offer_ == core::opposite(me)) {
            if (auto r = game_.agree_draw(); r) {
                apply_ending("draw_agreed", me, origin);
            } else {
                restore();
            }
            return;
        }
        if (is_computer(core::opposite(me))) {
            commit(
                Json{{"kind", "draw_decline"}, {"by", color_key(core::opposite(me))}},
                [](Store&) {},
                origin);
            return;
        }
        draw_offer_        = me;
        const GameRecord h = next_header();
        commit(
            Json{{"kind", "draw_offer"}, {"by", color_key(me)}},
            [h](Store& s) { s.update_game(h); },
            origin);
        return;
    }
    case MessageType::DrawAccept: {
        const core::Color other = hotseat ? core::opposite(draw_offer_.value_or(me)) : me;
        if (!draw_offer_ || *draw_offer_ == other) {
            send_error(peer, "no_draw_offer", "there is no draw offer to accept", m.id);
            return;
        }
        begin_change();
        if (auto r = game_.agree_draw(); !r) {
            restore();
            send_error(peer, "refused", r.error(), m.id);
            return;
        }
        apply_ending("draw_agreed", other, origin);
        return;
    }
    case MessageType::DrawDecline: {
        const core::Color other = hotseat ? core::opposite(draw_offer_.value_or(me)) : me;
        if (!draw_offer_ || *draw_offer_ == other) {
            send_error(peer, "no_draw_offer", "there is no draw offer to decline", m.id);
            return;
        }
        begin_change();
        draw_offer_        = std::nullopt;
        const GameRecord h = next_header();
        commit(
            Json{{"kind", "draw_decline"}, {"by", color_key(other)}},
            [h](Store& s) { s.update_game(h); },
            origin);
        return;
    }
    case MessageType::DrawClaim: {
        if (!game_.claimable_draw()) {
            send_error(peer, "no_claim", "no draw can be claimed in this position", m.id);
            return;
        }
        if (game_.side_to_move() != me) {
            send_error(peer, "not_your_turn", "a draw is claimed on your turn", m.id);
            return;
        }
        begin_change();
        if (auto r = game_.claim_draw(me); !r) {
            restore();
            send_error(peer, "no_claim", r.error(), m.id);
            return;
        }
        apply_ending("draw_claimed", me, origin);
        return;
    }
    case MessageType::Hello:
    case MessageType::Create:
    case MessageType::Join:
    case MessageType::Resume:
    case MessageType::Move:
    case MessageType::Resign:
    case MessageType::Undo:
    case MessageType::Rematch:
    case MessageType::Seek:
    case MessageType::CancelSeek:
    case MessageType::TakebackOffer:
    case MessageType::TakebackAccept:
    case MessageType::TakebackDecline:
    case MessageType::Chat:
        return;
    }
}

void Room::on_resend(const ClientMessage& m,
                     const Identity& who,
                     const std::shared_ptr<Peer>& peer) {
    // A resend of a move already applied gets the current state; anything else is stale.
    const int ply      = *m.ply;
    const auto v       = game_.variant();
    const auto idx     = static_cast<std::size_t>(ply);
    const auto& done   = game_.moves()[idx];
    const auto& before = game_.positions()[idx];
    const auto path    = core::path_squares(v, done);
    bool same          = false;
    if (!m.path.empty()) {
        same = path == m.path || (m.path.size() == 2 && m.path.front() == path.front() &&
                                  m.path.back() == path.back());
    } else if (m.from && m.to) {
        same = path.front() == *m.from && path.back() == *m.to;
    } else if (!m.text.empty()) {
        auto parsed = core::parse_move(before, m.text, game_.movegen_options());
        same        = parsed && parsed->same_as(done);
    }
    if (same && owns(who, before.side)) {
        peer->send_game(std::make_shared<const std::string>(state_message(m.id)), id_);
        return;
    }
    send_error(peer,
               "stale_ply",
               "ply " + std::to_string(ply) + " was already played; the game is at ply " +
                   std::to_string(game_.ply()),
               m.id);
}

std::optional<core::Move> Room::find_requested_move(const ClientMessage& m,
                                                    std::string& described) const {
    const auto v    = game_.variant();
    const auto& pos = game_.position();
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
        for (const auto& mv : game_.legal_moves()) {
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
        if (auto r = core::find_move(pos, *m.from, *m.to, m.captures, game_.movegen_options())) {
            return *r;
        }
        if (!m.captures.empty()) {
            return std::nullopt;
        }
        std::optional<core::Move> only;
        int count = 0;
        for (const auto& mv : game_.legal_moves()) {
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
    if (auto r = core::parse_move(pos, m.text, game_.movegen_options())) {
        return *r;
    }
    return std::nullopt;
}

void Room::on_move(const ClientMessage& m, const Identity& who, const std::shared_ptr<Peer>& peer) {
    if (rec_.status == GameStatus::Waiting) {
        send_error(peer, "not_started", "the game has not started: waiting for the opponent", m.id);
        return;
    }
    if (!m.ply) {
        send_error(peer, "bad_message", "a move needs the ply it is played on ('ply')", m.id);
        return;
    }
    const int ply = *m.ply;
    if (ply < game_.ply()) {
        on_resend(m, who, peer);
        return;
    }
    if (rec_.status == GameStatus::Over) {
        send_error(peer, "game_over", "the game is over: " + rec_.result_text, m.id);
        return;
    }
    if (ply > game_.ply()) {
        send_error(peer,
                   "bad_ply",
                   "ply " + std::to_string(ply) + " is ahead of the game (at ply " +
                       std::to_string(game_.ply()) + ")",
                   m.id);
        return;
    }
    const auto side = game_.side_to_move();
    if (!owns(who, side)) {
        send_error(
            peer, "not_your_turn", "it is " + std::string(color_key(side)) + "'s turn", m.id);
        return;
    }
    if (m.path.empty() && !(m.from && m.to) && m.text.empty()) {
        send_error(peer, "bad_message", "a move needs 'path', 'from' and 'to', or 'text'", m.id);
        return;
    }
    std::string described;
    const auto found = find_requested_move(m, described);
    if (!found || !game_.find_legal(*found)) {
        std::string hint;
        if (game_.options().forced_capture && core::has_capture(game_.position())) {
            hint = " (a capture is compulsory)";
        }
        send_error(peer, "illegal_move", described + " is not a legal move here" + hint, m.id);
        return;
    }
    if (clock_running() && !clock_after_move(tc_, clock_of(side), elapsed_ms())) {
        check_flag();
        send_error(peer, "out_of_time", "your time ran out before the move arrived", m.id);
        return;
    }
    if (first_move_overdue()) {
        check_abort();  // the timer may not have fired yet: the first move came too late
        send_error(
            peer, "game_over", "the game was aborted: the first move did not come in time", m.id);
        return;
    }
    apply_move(*found, false, {peer, m.id});
}

void Room::apply_move(const core::Move& mv, bool by_computer, const Origin& origin) {
    begin_change();
    const auto side   = game_.side_to_move();
    const auto before = game_.position();
    const auto now    = svc_.clock.now_ms();
    if (clock_running()) {  // a side's first move is not timed
        auto& pc = clock_of(side);
        pc       = clock_after_move(tc_, pc, now - turn_started_ms_).value_or(PlayerClock{});
    }
    const std::string text = core::move_text(before, mv, game_.legal_moves());
    const std::string full = core::move_text_full(before, mv);
    if (auto r = game_.play(mv); !r) {
        restore();
        throw std::logic_error("a checked move failed: " + r.error());
    }
    move_times_.push_back(now);
    turn_started_ms_ = now;
    draw_offer_      = std::nullopt;
    takeback_offer_  = std::nullopt;  // a move answers a takeback request
    update_status();
    const int ply      = game_.ply() - 1;
    const GameRecord h = next_header();
    const MoveRecord mr{ply, full, now};
    StoreOp op = [h, mr](Store& s) { s.append_move(h, mr); };
    StoreWrite write =
        game_.is_over() ? with_results(std::move(op)) : StoreWrite{std::move(op), nullptr};
    commit(Json{{"kind", "move"},
                {"computer", by_computer},
                {"move",
                 {{"ply", ply},
                  {"color", color_key(side)},
                  {"text", text},
                  {"path", core::path_squares(game_.variant(), mv)},
                  {"captures", core::captured_squares(game_.variant(), mv)}}}},
           std::move(write),
           origin,
           [this] { start(); });
}

bool Room::undo_mode() const {
    return rec_.mode == GameMode::Computer || rec_.mode == GameMode::Hotseat;
}

bool Room::over_for_good() const {
    if (!game_.is_over()) {
        return false;
    }
    const auto reason = game_.result().reason;
    return reason == core::Reason::Resignation || reason == core::Reason::Agreement;
}

int Room::undo_plies() const {
    if (!undo_mode() || over_for_good()) {
        return 0;
    }
    if (rec_.mode == GameMode::Hotseat) {
        return game_.ply() >= 1 ? 1 : 0;
    }
    // Take back the computer's reply (if it has moved) and the player's last move.
    const auto human = is_computer(core::Color::White) ? core::Color::Black : core::Color::White;
    const int plies  = game_.side_to_move() == human ? 2 : 1;
    const auto start_side = game_.start_position().side;
    if (game_.ply() < plies || (plies == 2 && game_.ply() == 2 && start_side != human) ||
        (plies == 1 && game_.ply() == 1 && start_side != human)) {
        return 0;
    }
    return plies;
}

void Room::on_undo(const ClientMessage& m, const Identity&, const std::shared_ptr<Peer>& peer) {
    if (!undo_mode()) {
        send_error(peer,
                   "undo_not_allowed",
                   "undo is allowed only against the computer and in hot-seat games",
                   m.id);
        return;
    }
    if (over_for_good()) {
        send_error(peer, "game_over", "the game is over: " + game_.result_text(), m.id);
        return;
    }
    const int plies = undo_plies();
    if (plies == 0) {
        send_error(peer, "nothing_to_undo", "you have no move to take back", m.id);
        return;
    }
    begin_change();
    take_back(plies, Json{{"kind", "undo"}, {"plies", plies}}, {peer, m.id});
}

void Room::take_back(int plies, Json event, const Origin& origin) {
    // Precondition: begin_change() ran.
    for (int i = 0; i < plies; ++i) {
        (void)game_.undo();
        move_times_.pop_back();
    }
    ++ai_epoch_;
    ai_thinking_ = false;
    draw_offer_  = std::nullopt;
    update_status();
    const GameRecord h = next_header();
    const int from     = game_.ply();
    commit(
        std::move(event),
        [h, from](Store& s) { s.truncate_moves(h, from); },
        origin,
        [this] { start(); });
}

void Room::on_rematch(const ClientMessage& m,
                      const Identity& who,
                      const std::shared_ptr<Peer>& peer) {
    if (rec_.status != GameStatus::Over) {
        send_error(peer, "game_not_over", "a rematch can be asked once the game is over", m.id);
        return;
    }
    if (!rematch_game_.empty()) {
        peer->send_game(std::make_shared<const std::string>(state_message(m.id)), id_);
        return;
    }
    const auto mine  = *owned_color(who);
    const auto other = core::opposite(mine);
    const bool both  = rec_.mode == GameMode::Hotseat || is_computer(other) || owns(who, other) ||
                      rematch_wanted_[static_cast<std::size_t>(core::index(other))];
    if (!both) {
        begin_change();
        rematch_wanted_[static_cast<std::size_t>(core::index(mine))] = true;
        commit(
            Json{{"kind", "rematch_offer"}, {"by", color_key(mine)}}, [](Store&) {}, {peer, m.id});
        return;
    }
    rematch_wanted_[static_cast<std::size_t>(core::index(mine))] = true;
    GameRecord next;
    next.variant        = rec_.variant;
    next.mode           = rec_.mode;
    next.level          = rec_.level;
    next.forced_capture = rec_.forced_capture;
    next.draw_rules     = rec_.draw_rules;
    next.start_fen      = rec_.start_fen;
    next.seats          = {rec_.seats[1], rec_.seats[0]};  // colours swap
    next.time_control   = rec_.time_control;
    next.status         = GameStatus::Playing;
    next.rated          = rec_.rated;
    next.rematch_of     = id_;
    std::vector<std::pair<std::shared_ptr<Peer>, Identity>> peers;
    for (const auto& s : subscribers_) {
        if (auto p = s.peer.lock()) {
            Identity i;
            i.player_id = s.player_id;
            peers.emplace_back(std::move(p), std::move(i));
        }
    }
    auto self = shared_from_this();
    svc_.lobby->post([lobby = svc_.lobby,
                      self,
                      next   = std::move(next),
                      peers  = std::move(peers),
                      origin = Origin{peer, m.id}]() mutable {
        lobby->add_rematch(std::move(next), peers, [self, origin](const std::string& new_id) {
            self->post([self, new_id, origin] { self->announce_rematch(new_id, origin); });
        });
    });
}

void Room::announce_rematch(const std::string& new_id, const Origin& origin) {
    if (defer_while_writing([self = shared_from_this(), new_id, origin] {
            self->announce_rematch(new_id, origin);
        })) {
        return;
    }
    guarded(origin, [&] {
        begin_change();
        rematch_game_ = new_id;
        commit(
            Json{{"kind", "rematch"}, {"game", new_id}}, [](Store&) {}, origin);
    });
}

}  // namespace papan::server
