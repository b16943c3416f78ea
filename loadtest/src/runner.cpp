#include "runner.hpp"

#include <boost/asio/bind_executor.hpp>
#include <boost/asio/post.hpp>

#include <csignal>

namespace papan::loadtest {

Runner::Runner(RunState& run)
    : run_(run)
    , strand_(net::make_strand(run.ioc))
    , start_timer_(strand_)
    , end_timer_(strand_)
    , drain_timer_(strand_)
    , signals_(run.ioc, SIGINT, SIGTERM) {}

void Runner::begin() {
    run_.start = Clock::now();
    end_timer_.expires_after(seconds_of(run_.opt.duration));
    end_timer_.async_wait([this](beast::error_code ec) {
        if (!ec) {
            on_deadline();
        }
    });
    wait_signal();
    next_start_ = run_.start;
    start_next();
}

void Runner::wait_signal() {
    signals_.async_wait(net::bind_executor(strand_, [this](beast::error_code ec, int) {
        if (ec || finished_) {
            return;
        }
        signalled_ = true;
        if (!deadline_passed_) {
            end_timer_.cancel();
            on_deadline();  // end the play now; drain and check as usual
        } else {
            for (auto& s : sessions_) {
                s->force_close();  // a second signal: stop draining
            }
        }
        wait_signal();
    }));
}

void Runner::start_next() {
    if (run_.stopping || started_ >= run_.opt.games) {
        return;
    }
    auto s = std::make_shared<Session>(run_, started_, [this] { session_done(); });
    sessions_.push_back(s);
    ++started_;
    connections_ += s->connections();
    ++run_.active;
    s->start();
    next_start_ += seconds_of(1.0 / run_.opt.rate);
    start_timer_.expires_at(next_start_);
    start_timer_.async_wait([this](beast::error_code ec) {
        if (!ec) {
            start_next();
        }
    });
}

void Runner::on_deadline() {
    if (deadline_passed_) {
        return;
    }
    deadline_passed_ = true;
    played_s_        = std::chrono::duration<double>(Clock::now() - run_.start).count();
    run_.stopping    = true;
    start_timer_.cancel();
    for (auto& s : sessions_) {
        s->deadline();
    }
    drain_timer_.expires_after(seconds_of(run_.opt.drain));
    drain_timer_.async_wait([this](beast::error_code ec) {
        if (!ec) {
            for (auto& s : sessions_) {
                s->force_close();
            }
        }
    });
}

// A session ended: when all have (the run is over or every game is done), stop the timers
// so that the I/O threads return.
void Runner::session_done() {
    net::post(strand_, [this] {
        if (!finished_ && run_.active == 0 && (run_.stopping || started_ >= run_.opt.games)) {
            finished_ = true;
            if (!deadline_passed_) {
                played_s_ = std::chrono::duration<double>(Clock::now() - run_.start).count();
            }
            run_.stopping = true;
            start_timer_.cancel();
            end_timer_.cancel();
            drain_timer_.cancel();
            beast::error_code ignored;
            signals_.cancel(ignored);
        }
    });
}

}  // namespace papan::loadtest
