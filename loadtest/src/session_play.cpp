// The server's messages and the game: the state and events of the current game, errors, the
// next move (picked at random from the state's legal moves), its acknowledgement, the computer's
// reply in computer games, the end of a game and the start of the next one.
#include "client_messages.hpp"
#include "session.hpp"

#include <papan/loadtest/reconnection.hpp>
#include <papan/loadtest/state_delta.hpp>

#include <algorithm>

namespace papan::loadtest {

void Session::handle(int pi, const Json& msg) {
    Player& p              = player(pi);
    const std::string type = msg.value("type", "");
    const std::int64_t ref =
        msg.contains("ref") && msg["ref"].is_number_integer() ? msg["ref"].get<std::int64_t>() : -1;
    if (type == "welcome") {
        on_welcome(pi, msg);
    } else if (type == "created") {
        if (pi == 0 && awaiting_create_ && ref == create_id_) {
            awaiting_create_ = false;
            create_errors_   = 0;
            game_.id         = msg.value("game", "");
            invite_          = msg.value("invite", "");
            if (friend_mode()) {
                maybe_join();
            }
        }
    } else if (type == "state" || type == "event") {
        if (game_.id.empty() || msg.value("game", "") != game_.id) {
            return;
        }
        switch (take_game_frame(p.state, msg)) {
        case GameFrame::Applied: {
            Json full     = msg;
            full["state"] = p.state;
            on_game_message(pi, full, type == "event", ref);
            break;
        }
        case GameFrame::Old:
            break;
        case GameFrame::Gap:
            // A delta whose base this connection does not have: ask for the whole state.
            run_.error("delta_gap");
            send_resume(pi, false);
            break;
        }
    } else if (type == "resumed") {
        if (p.resyncing && ref == p.resync_id && msg.value("game", "") == game_.id) {
            p.have_version = true;
            p.last_version = msg.value("version", p.last_version);
            finish_resync(pi, true);
        }
    } else if (type == "error") {
        on_error(pi, msg, ref);
    }
}

void Session::on_game_message(int pi, const Json& msg, bool is_event, std::int64_t ref) {
    Player& p      = player(pi);
    const Json& st = msg["state"];
    p.have_version = true;
    p.last_version = msg.value("version", p.last_version);
    const int sp   = st.value("ply", 0);
    p.seen_ply     = std::max(p.seen_ply, sp);
    if (friend_mode() && pi == 1 && !p.joined && holds_seat(st, p.player_id)) {
        p.joined       = true;
        p.join_pending = false;
        if (!p.resyncing) {
            resumed(pi);
        }
    }
    const bool resync_reply = p.resyncing && !is_event && ref == p.resync_id;
    if (pending_ && pending_player_ == pi) {
        if (is_event) {
            const Json& ev = msg["event"];
            if (ev.is_object() && ev.value("kind", "") == "move" && ev.contains("move") &&
                ev["move"].is_object() && ev["move"].value("ply", -1) == pending_ply_) {
                ack(ev["move"].value("text", ""));
            }
        } else if (ref == pending_id_ && sp > pending_ply_ && st.contains("moves") &&
                   st["moves"].is_array() &&
                   st["moves"].size() > static_cast<std::size_t>(pending_ply_)) {
            // The move was sent again (after a drop or a stall) and the server already had
            // it: it answers with the state. Stored, but no event acknowledged it here.
            settle_stored(st["moves"][static_cast<std::size_t>(pending_ply_)].value("text", ""));
        }
    }
    // The two players' connections deliver the same events; the game's view is the most
    // advanced one (plies only grow in these games), or what a resume returns.
    if (!view_.have_state || sp >= view_.ply || resync_reply) {
        view_.apply(st);
        track_computer_reply();
    }
    if (resync_reply) {
        finish_resync(pi);
        return;
    }
    if (p.resyncing && is_event) {
        // Missed events replayed after a resume: the resume is done when they stop.
        p.quiet.expires_after(std::chrono::milliseconds(300));
        p.quiet.async_wait([self = shared_from_this(), pi](beast::error_code ec) {
            if (!ec && self->player(pi).resyncing) {
                self->finish_resync(pi);
            }
        });
        return;
    }
    progress();
}

void Session::on_error(int pi, const Json& msg, std::int64_t ref) {
    Player& p              = player(pi);
    const std::string code = msg.value("code", "unknown");
    if (p.join_pending && ref == p.join_id) {
        p.join_pending = false;
        if (p.join_attempts > 1 && (code == "invite_invalid" || code == "invite_used")) {
            // Joined before the drop and the game has started since: the seat is ours.
            send_resume(pi, false);
            return;
        }
        run_.error(code);
        end_game(false);
        return;
    }
    run_.error(code);
    if (pending_ && pending_player_ == pi && ref == pending_id_) {
        pending_ = false;  // an error changes nothing: the move was not played
        stall_timer_.cancel();
        ++consecutive_errors_;
        if (!run_.opt.reconnect) {
            if (consecutive_errors_ >= 3) {
                end_game(false);  // give this game up; the next one starts clean
            } else {
                progress();
            }
            return;
        }
        // With reconnection (a node may be down or taking games over): fetch the server's
        // state and play on from it; give the game up only after many errors in a row.
        if (consecutive_errors_ >= kMaxErrorsInARow) {
            end_game(false);
        } else if (code == "stale_ply" || code == "bad_ply" || code == "not_your_turn" ||
                   code == "not_started") {
            send_resume(pi, false);  // our view of the game is behind or ahead
        } else {
            player(pi).resume_errors = consecutive_errors_;
            schedule_resume(pi);
        }
        return;
    }
    if (awaiting_create_ && pi == 0 && ref == create_id_) {
        awaiting_create_ = false;
        store_game();
        if (!run_.opt.reconnect || ++create_errors_ >= kMaxErrorsInARow) {
            begin_close();
            return;
        }
        // A node refusing now may accept in a moment: try a new game later.
        auto t = std::make_shared<net::steady_timer>(
            strand_, std::chrono::milliseconds(backoff_ms(create_errors_)));
        t->async_wait([self = shared_from_this(), t](beast::error_code ec) {
            if (!ec && !self->closing_ && !self->in_game_ &&
                self->player(0).phase == Phase::Ready) {
                self->new_game();
            }
        });
        return;
    }
    if (p.resyncing && ref == p.resync_id) {
        p.resyncing = false;
        if (!run_.opt.reconnect || ++p.resume_errors >= kMaxErrorsInARow) {
            end_game(false);
        } else {
            schedule_resume(pi);
        }
    }
}

// The player to move (-1: nobody of ours, e.g. the computer). In hot-seat games ours is both.
int Session::mover_index() const {
    if (run_.opt.mode == Mode::Hotseat) {
        return 0;
    }
    const std::string& id = view_.turn == "white" ? view_.white_id : view_.black_id;
    for (std::size_t i = 0; i < players_.size(); ++i) {
        if (!id.empty() && players_[i]->player_id == id) {
            return static_cast<int>(i);
        }
    }
    return -1;
}

// Friend games: an acknowledged move the other player's connection has not seen yet.
bool Session::awaiting_opponent() const {
    if (!friend_mode() || !in_game_) {
        return false;
    }
    return players_[1]->seen_ply <= last_acked_by_[0] || players_[0]->seen_ply <= last_acked_by_[1];
}

// Whatever changed, do what comes next: the next move, the end of the game, the close.
void Session::progress() {
    if (closing_) {
        return;
    }
    if (!in_game_ || game_.id.empty() || !view_.have_state) {
        maybe_close();
        return;
    }
    if (view_.over) {
        maybe_end_game();
        return;
    }
    if (deadline_) {
        maybe_close();
        return;
    }
    if (pending_ || !view_.playing) {
        return;
    }
    const int m = mover_index();
    if (m < 0) {
        return;
    }
    const Player& p = player(m);
    if (p.phase != Phase::Ready || p.resyncing) {
        return;  // the mover is reconnecting: it plays once it is back
    }
    if (view_.legal.empty()) {
        end_game(false);
        return;
    }
    if (Clock::now() < next_move_at_) {
        if (!think_armed_) {
            think_armed_ = true;
            think_timer_.expires_at(next_move_at_);
            think_timer_.async_wait([self = shared_from_this()](beast::error_code ec) {
                self->think_armed_ = false;
                if (!ec) {
                    self->progress();
                }
            });
        }
        return;
    }
    send_move(m);
}

void Session::send_move(int m) {
    std::uniform_int_distribution<std::size_t> pick(0, view_.legal.size() - 1);
    const Json& mv        = view_.legal[pick(rng_)];
    pending_              = true;
    pending_ply_          = view_.ply;
    pending_player_       = m;
    pending_crossed_drop_ = false;
    pending_path_         = mv.value("path", Json::array());
    pending_text_         = mv.value("text", "");
    const auto p          = static_cast<std::size_t>(view_.ply);
    if (game_.sent.size() <= p) {
        game_.sent.resize(p + 1);
    }
    game_.sent[p] = pending_text_;
    transmit();
}

// The move in flight was not stored (or its ack is overdue): the same move again.
void Session::resend() {
    run_.locked([&] { ++run_.rc.resent; });
    pending_crossed_drop_ = false;
    transmit();
}

void Session::transmit() {
    pending_id_ = ++next_id_;
    sent_at_    = Clock::now();
    send(pending_player_, move_message(pending_id_, game_.id, pending_ply_, pending_path_));
    arm_stall();
}

void Session::arm_stall() {
    if (!run_.opt.reconnect) {
        return;
    }
    stall_timer_.expires_after(seconds_of(run_.opt.stall));
    stall_timer_.async_wait([self = shared_from_this(), id = pending_id_](beast::error_code ec) {
        if (ec || !self->pending_ || self->pending_id_ != id || self->closing_) {
            return;
        }
        // No ack for --stall seconds: resume the game on the mover's connection (which
        // settles the move as after a drop: stored, or sent again).
        Player& p = self->player(self->pending_player_);
        if (p.phase == Phase::Ready && !p.resyncing) {
            self->run_.locked([&] { ++self->run_.rc.stalls; });
            self->send_resume(self->pending_player_, true);
        }
        self->arm_stall();
    });
}

// The move in flight turned out to be stored already (a resend was answered with the state):
// it counts as stored but not acknowledged (compare_game: stored_unacked).
void Session::settle_stored(const std::string& text) {
    run_.locked([&] {
        ++run_.rc.in_flight_stored;
        if (resent_after_resumed_) {
            // "resumed" said nothing was missed, yet the move had been stored: the server's
            // version did not count the move's event.
            ++run_.rc.resumed_but_stored;
        }
    });
    if (!same_move(text, pending_text_)) {
        run_.error("resume_other_move");
    }
    pending_              = false;
    resent_after_resumed_ = false;
    consecutive_errors_   = 0;
    stall_timer_.cancel();
}

void Session::ack(const std::string& text) {
    const auto now = Clock::now();
    const auto us  = std::chrono::duration_cast<std::chrono::microseconds>(now - sent_at_).count();
    run_.locked([&] {
        if (!pending_crossed_drop_) {  // a move sent before a drop has no round trip time
            run_.latencies_us.push_back(us);
        }
        ++run_.moves;
        run_.last_ack = std::max(run_.last_ack, now);
    });
    const auto p = static_cast<std::size_t>(pending_ply_);
    if (game_.acked.size() <= p) {
        game_.acked.resize(p + 1, false);
        game_.acked_text.resize(p + 1);
        mover_.resize(p + 1, 0);
    }
    game_.acked[p]      = true;
    game_.acked_text[p] = text;
    mover_[p]           = pending_player_;
    auto& last          = last_acked_by_[static_cast<std::size_t>(pending_player_)];
    last                = std::max(last, pending_ply_);
    game_.continuity.on_ack();
    resent_after_resumed_ = false;
    pending_              = false;
    consecutive_errors_   = 0;
    stall_timer_.cancel();
    next_move_at_ = now + std::chrono::milliseconds(run_.opt.think_ms);
}

void Session::maybe_end_game() {
    if (pending_) {
        return;  // our last move's ack has not come on the mover's connection yet
    }
    if (awaiting_opponent() && !end_wait_over_) {
        // Give the other player's connection time to see the last move (else it counts as
        // opponent_missed).
        if (!end_wait_armed_) {
            end_wait_armed_ = true;
            end_timer_.expires_after(seconds_of(run_.opt.stall));
            end_timer_.async_wait([self = shared_from_this()](beast::error_code ec) {
                self->end_wait_armed_ = false;
                if (!ec) {
                    self->end_wait_over_ = true;
                    self->progress();
                }
            });
        }
        return;
    }
    end_game(true);
}

// Leaves the current game (ended by the rules or given up) and starts the next one.
void Session::end_game(bool finished_by_rules) {
    if (finished_by_rules) {
        run_.locked([&] { ++run_.games_finished; });
        game_.continuity.on_end();
    }
    store_game();
    if (deadline_) {
        maybe_close();
        return;
    }
    if (player(0).phase == Phase::Ready) {
        new_game();  // else at the creator's next welcome
    }
}

void Session::new_game() {
    if (in_game_ || closing_) {
        return;
    }
    if (deadline_ || run_.stopping || run_.games_created.fetch_add(1) >= run_.max_games) {
        begin_close();
        return;
    }
    run_.locked([&] {
        ++run_.live;
        run_.peak = std::max(run_.peak, run_.live);
    });
    in_game_            = true;
    awaiting_create_    = true;
    consecutive_errors_ = 0;
    next_move_at_       = Clock::now();
    create_id_          = ++next_id_;
    send(0, create_message(create_id_, run_.opt, slot_));
}

// Hands the current game to the store check and clears the game's state.
void Session::store_game() {
    if (!in_game_) {
        return;
    }
    in_game_ = false;
    settle_computer_reply();
    if (!game_.id.empty() && friend_mode()) {
        game_.opponent_seen.assign(game_.acked.size(), false);
        for (std::size_t p = 0; p < game_.acked.size(); ++p) {
            if (game_.acked[p]) {
                const auto other       = static_cast<std::size_t>(1 - mover_[p]);
                game_.opponent_seen[p] = players_[other]->seen_ply > static_cast<int>(p);
            }
        }
    }
    run_.locked([&] {
        --run_.live;
        if (!game_.id.empty()) {
            run_.games.push_back(std::move(game_));
        }
    });
    game_ = GameCheck{};
    invite_.clear();
    awaiting_create_ = false;
    view_            = GameView{};
    pending_         = false;
    mover_.clear();
    last_acked_by_ = {-1, -1};
    end_wait_over_ = false;
    stall_timer_.cancel();
    end_timer_.cancel();
    for (auto& p : players_) {
        p->have_version  = false;
        p->last_version  = 0;
        p->seen_ply      = 0;
        p->joined        = false;
        p->join_pending  = false;
        p->join_attempts = 0;
        p->resyncing     = false;
        p->resume_errors = 0;
        p->quiet.cancel();
        p->wait.cancel();
    }
}

// After the duration: close once nothing is awaited any more.
void Session::maybe_close() {
    if (closing_ || !deadline_) {
        return;
    }
    if (pending_ || awaiting_opponent() || awaiting_reply_) {
        return;  // an ack, the opponent's copy of one, or the computer's reply is still expected
    }
    begin_close();
}

// Computer games: a reply is timed from the first message that shows the computer to move (the
// ack of our move, or the game's first state when the computer opens) to the first message that
// holds its move. The computer's move counts as acknowledged for the store check: the server
// sends its event once it is stored.
void Session::track_computer_reply() {
    if (run_.opt.mode != Mode::Computer || !in_game_) {
        return;
    }
    const auto now = Clock::now();
    if (awaiting_reply_ && view_.ply > reply_ply_) {
        awaiting_reply_ = false;
        replied_        = true;
        const auto p    = static_cast<std::size_t>(reply_ply_);
        if (game_.acked.size() <= p) {
            game_.acked.resize(p + 1, false);
            game_.acked_text.resize(p + 1);
        }
        game_.acked[p]      = true;
        game_.acked_text[p] = p < view_.moves.size() ? view_.moves[p] : std::string{};
        const auto waited   = now - reply_from_;
        if (waited > seconds_of(run_.opt.reply_deadline)) {
            reply_late_ = true;
        }
        const auto us = std::chrono::duration_cast<std::chrono::microseconds>(waited).count();
        run_.locked([&] {
            run_.computer_reply_us.push_back(us);
            ++run_.computer_moves;
            run_.last_computer_move = std::max(run_.last_computer_move, now);
        });
        next_move_at_ = now + std::chrono::milliseconds(run_.opt.think_ms);
    }
    if (!awaiting_reply_ && view_.playing && !view_.over && mover_index() < 0) {
        awaiting_reply_ = true;
        reply_ply_      = view_.ply;
        reply_from_     = now;
    }
}

// The game is left (ended, given up, or the run is over): a reply still awaited is late once it
// has waited longer than the deadline, else it is counted as awaited at the end.
void Session::settle_computer_reply() {
    if (run_.opt.mode != Mode::Computer) {
        return;
    }
    const bool awaited = awaiting_reply_ && !game_.id.empty();
    if (awaited) {
        game_.reply_awaited_ply = reply_ply_;
    }
    if (awaited && Clock::now() - reply_from_ > seconds_of(run_.opt.reply_deadline)) {
        reply_late_ = true;
    }
    run_.locked([&] {
        if (reply_late_) {
            ++run_.computer_games_late;
        } else if (awaited) {
            ++run_.computer_replies_awaited;
        }
        if (awaited && !replied_) {
            ++run_.computer_games_without_reply;
        }
    });
    awaiting_reply_ = false;
    reply_late_     = false;
    replied_        = false;
}

}  // namespace papan::loadtest
