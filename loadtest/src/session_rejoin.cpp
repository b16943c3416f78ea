// Getting a connection back into its game: the welcome, a friend's join, resumes (with the
// last version seen) and their timeouts, and what became of the move in flight meanwhile.
#include "client_messages.hpp"
#include "session.hpp"

#include <papan/loadtest/reconnection.hpp>

#include <algorithm>

namespace papan::loadtest {

void Session::on_welcome(int pi, const Json& msg) {
    Player& p = player(pi);
    if (p.phase != Phase::Welcoming) {
        return;
    }
    p.phase   = Phase::Ready;
    p.attempt = 0;
    if (msg.contains("secret") && msg["secret"].is_string()) {
        p.secret = msg["secret"].get<std::string>();
    }
    if (msg.contains("player") && msg["player"].is_object()) {
        p.player_id = msg["player"].value("id", "");
    }
    if (p.dropped) {
        run_.locked([&] { ++run_.rc.reconnects; });
    }
    sync(pi);
}

// A connection said hello (first time or again): get back into the game, or start one.
void Session::sync(int pi) {
    Player& p = player(pi);
    if (closing_) {
        return;
    }
    if (!in_game_) {
        resumed(pi);  // nothing to resume: the welcome ends the outage
        if (pi == 0) {
            new_game();
        }
        return;
    }
    if (game_.id.empty()) {
        // The create was in flight when the connection dropped: that game is unknown (if it
        // was stored, it holds no move); start another one.
        resumed(pi);
        if (pi == 0) {
            run_.locked([&] { ++run_.rc.creates_unanswered; });
            store_game();
            new_game();
        }
        return;
    }
    if (friend_mode() && pi == 1 && !p.joined) {
        p.join_pending = false;
        maybe_join();
        return;
    }
    send_resume(pi, true);
}

void Session::maybe_join() {
    Player& p = player(1);
    if (p.phase != Phase::Ready || invite_.empty() || p.joined || p.join_pending) {
        return;
    }
    p.join_pending = true;
    ++p.join_attempts;
    p.join_id = ++next_id_;
    send(1, join_message(p.join_id, invite_));
    arm_request_timeout(1, p.join_id);
}

void Session::send_resume(int pi, bool with_version) {
    Player& p   = player(pi);
    p.resyncing = true;
    p.resync_id = ++next_id_;
    send(pi, resume_message(p.resync_id, game_.id, with_version && p.have_version, p.last_version));
    arm_request_timeout(pi, p.resync_id);
}

// With reconnection: a resume or join that gets no answer (it may have gone to a node that
// died, or to one that does not have the game yet) is sent again after a second (or --stall
// if shorter).
void Session::arm_request_timeout(int pi, std::int64_t id) {
    if (!run_.opt.reconnect) {
        return;
    }
    Player& p = player(pi);
    p.wait.expires_after(seconds_of(std::min(run_.opt.stall, kRequestTimeout)));
    p.wait.async_wait([self = shared_from_this(), pi, id](beast::error_code ec) {
        if (ec || self->closing_) {
            return;
        }
        Player& q = self->player(pi);
        if (q.phase != Phase::Ready) {
            return;
        }
        if (q.resyncing && q.resync_id == id) {
            self->run_.locked([&] { ++self->run_.rc.request_timeouts; });
            self->send_resume(pi, true);
        } else if (q.join_pending && q.join_id == id) {
            self->run_.locked([&] { ++self->run_.rc.request_timeouts; });
            q.join_pending = false;
            self->maybe_join();
        }
    });
}

// The connection is back in its game (or there was none): the outage of pi is over.
void Session::resumed(int pi) {
    Player& p = player(pi);
    if (!p.dropped) {
        return;
    }
    p.dropped = false;
    const auto us =
        std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - p.drop_at).count();
    run_.locked([&] { run_.resume_us.push_back(us); });
}

// A resume of pi was answered: settle the move pi had in flight, then play on.
// `nothing_missed`: the server answered "resumed" (no event since our last version).
void Session::finish_resync(int pi, bool nothing_missed) {
    Player& p   = player(pi);
    p.resyncing = false;
    p.quiet.cancel();
    p.wait.cancel();
    p.resume_errors = 0;
    resumed(pi);
    if (pending_ && pending_player_ == pi) {
        switch (classify_in_flight(pending_ply_, pending_text_, view_.ply, view_.moves)) {
        case InFlight::NotStored:
            resent_after_resumed_ = nothing_missed;
            resend();
            break;
        case InFlight::Stored:
            pending_ = false;
            stall_timer_.cancel();
            run_.locked([&] { ++run_.rc.in_flight_stored; });
            break;
        case InFlight::Different:
            pending_ = false;
            stall_timer_.cancel();
            run_.error("resume_other_move");
            break;
        case InFlight::RolledBack:
            pending_ = false;
            stall_timer_.cancel();
            run_.error("resume_rolled_back");
            break;
        }
    }
    progress();
}

}  // namespace papan::loadtest
