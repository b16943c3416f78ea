// The connections of a session: connecting, the hello, a drop and the reconnection after it
// (--reconnect), and closing at the end of the run.
#include "session.hpp"

#include "client_messages.hpp"

#include <papan/loadtest/reconnection.hpp>

#include <boost/asio/dispatch.hpp>
#include <boost/asio/post.hpp>

namespace papan::loadtest {

Session::Session(RunState& run, int slot, std::function<void()> on_done)
    : run_(run)
    , slot_(slot)
    , on_done_(std::move(on_done))
    , strand_(net::make_strand(run.ioc))
    , think_timer_(strand_)
    , stall_timer_(strand_)
    , end_timer_(strand_)
    , rng_(run.opt.seed * std::uint64_t{1000003} + static_cast<std::uint64_t>(slot)) {
    const int n = run.opt.mode == Mode::Friend ? 2 : 1;
    for (int i = 0; i < n; ++i) {
        auto p   = std::make_unique<Player>(strand_);
        p->index = i;
        p->url   = initial_url(slot, i, run.servers.size());
        p->name  = "load-" + std::to_string(slot);
        if (n == 2) {
            p->name += i == 0 ? "a" : "b";
        }
        players_.push_back(std::move(p));
    }
}

void Session::start() {
    net::dispatch(strand_, [self = shared_from_this()] {
        for (int i = 0; i < self->connections(); ++i) {
            self->connect(i);
        }
    });
}

void Session::deadline() {
    net::post(strand_, [self = shared_from_this()] {
        self->deadline_ = true;
        self->think_timer_.cancel();
        self->maybe_close();
    });
}

void Session::force_close() {
    net::post(strand_, [self = shared_from_this()] {
        if (self->done_) {
            return;
        }
        if (self->pending_) {
            self->run_.error("no_ack");
        }
        if (!self->closing_) {
            self->closing_ = true;
            self->cancel_timers();
            self->store_game();
        }
        for (auto& p : self->players_) {
            p->retry.cancel();
            p->quiet.cancel();
            p->wait.cancel();
            if (p->link) {
                p->link->abort();
            }
        }
        self->check_finished();
    });
}

// A new connection for player pi. Its handlers act only while it is the player's current one
// (a reconnection replaces it); they hold the session weakly (the runner owns the sessions).
void Session::connect(int pi) {
    Player& p                         = player(pi);
    p.phase                           = Phase::Connecting;
    auto link                         = std::make_shared<Connection>(strand_);
    p.link                            = link;
    const std::weak_ptr<Session> weak = weak_from_this();
    const Connection* id              = link.get();
    Connection::Handlers handlers;
    handlers.opened = [weak, pi, id] {
        if (const auto self = weak.lock(); self && self->current(pi, id)) {
            self->on_opened(pi);
        }
    };
    handlers.received = [weak, pi, id](std::string text) {
        if (const auto self = weak.lock(); self && self->current(pi, id)) {
            self->on_received(pi, text);
        }
    };
    handlers.ended = [weak, pi, id](const char* code) {
        if (const auto self = weak.lock(); self && self->current(pi, id)) {
            self->link_failed(pi, code);
        }
    };
    link->open(run_.servers[p.url], std::move(handlers));
}

void Session::on_opened(int pi) {
    Player& p = player(pi);
    p.phase   = Phase::Welcoming;
    send(pi, hello_message(p.name, p.secret));
}

void Session::on_received(int pi, const std::string& text) {
    ++run_.messages_in;
    const Json msg = Json::parse(text, nullptr, false);
    if (msg.is_discarded() || !msg.is_object()) {
        run_.error("client_bad_json");
    } else {
        handle(pi, msg);
    }
}

void Session::send(int pi, const Json& j) {
    if (const auto& link = player(pi).link) {
        link->send(j.dump());
    }
}

// The current link of player pi is gone (failed, dropped by the server, or closed by us).
void Session::link_failed(int pi, const std::string& code) {
    Player& p = player(pi);
    auto link = std::move(p.link);
    p.link.reset();
    const bool was_up = link && link->up();
    const bool ours   = link && link->closing();
    if (link) {
        link->abort();
    }
    p.phase     = Phase::Down;
    p.resyncing = false;
    p.quiet.cancel();
    p.wait.cancel();
    if (closing_ || ours) {
        check_finished();
        return;
    }
    if (!run_.opt.reconnect) {
        run_.error(code);
        begin_close();
        return;
    }
    const auto now = Clock::now();
    if (was_up) {
        run_.locked([&] { ++run_.rc.drops; });
        if (!p.dropped) {
            p.dropped = true;
            p.drop_at = now;
        }
        if (in_game_ && !game_.id.empty()) {
            game_.continuity.on_drop();
        }
        if (pending_ && pending_player_ == pi) {
            pending_crossed_drop_ = true;
        }
    } else {
        run_.locked([&] { ++run_.rc.failed_attempts; });
    }
    if (deadline_) {
        maybe_close();
        if (closing_) {
            return;
        }
    }
    schedule_reconnect(pi);
}

// Runs `then` for player pi after wait_ms on its retry timer, unless the timer is used again
// meanwhile or the session is closing.
template <class Then>
void Session::retry_after(int pi, std::int64_t wait_ms, Then then) {
    Player& p  = player(pi);
    p.retrying = true;
    p.retry.expires_after(std::chrono::milliseconds(wait_ms));
    p.retry.async_wait(
        [self = shared_from_this(), pi, gen = ++p.retry_gen, then](beast::error_code ec) {
            Player& q = self->player(pi);
            if (q.retry_gen != gen) {
                return;  // superseded by a later use of the timer
            }
            q.retrying = false;
            if (ec || self->closing_) {
                self->check_finished();
                return;
            }
            then(*self, pi);
        });
}

void Session::schedule_reconnect(int pi) {
    Player& p       = player(pi);
    const auto wait = backoff_ms(p.attempt++);
    p.url           = next_url(p.url, run_.servers.size());
    retry_after(pi, wait, [](Session& self, int i) { self.connect(i); });
}

// A resume was refused (e.g. the game is being taken over by another node): ask again soon.
void Session::schedule_resume(int pi) {
    retry_after(pi, backoff_ms(player(pi).resume_errors), [](Session& self, int i) {
        if (self.player(i).phase == Phase::Ready && self.in_game_ && !self.game_.id.empty()) {
            self.send_resume(i, false);
        }
    });
}

void Session::cancel_timers() {
    think_timer_.cancel();
    stall_timer_.cancel();
    end_timer_.cancel();
}

// Stops the session: no new game; graceful closes; done when every link is gone.
void Session::begin_close() {
    if (closing_) {
        check_finished();
        return;
    }
    closing_ = true;
    cancel_timers();
    store_game();
    for (int i = 0; i < connections(); ++i) {
        Player& p = player(i);
        p.retry.cancel();
        p.quiet.cancel();
        p.wait.cancel();
        if (p.link) {
            p.link->close();
        }
    }
    check_finished();
}

void Session::check_finished() {
    if (done_ || !closing_) {
        return;
    }
    for (const auto& p : players_) {
        if (p->link || p->retrying) {
            return;
        }
    }
    done_ = true;
    cancel_timers();
    --run_.active;
    on_done_();
}

}  // namespace papan::loadtest
