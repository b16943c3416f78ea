// The run's clock: starts the sessions at --rate until --games are running, ends the play at
// --duration (or on SIGINT/SIGTERM), and the run after --drain at most (a second signal: at once).
#pragma once

#include "run_state.hpp"
#include "session.hpp"

#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>

#include <memory>
#include <vector>

namespace papan::loadtest {

class Runner {
public:
    explicit Runner(RunState& run);

    void begin();

    [[nodiscard]] int started() const { return started_; }

    [[nodiscard]] int connections() const { return connections_; }

    [[nodiscard]] double played_s() const { return played_s_; }

    [[nodiscard]] bool signalled() const { return signalled_; }

private:
    void wait_signal();
    void start_next();
    void on_deadline();
    void session_done();

    RunState& run_;
    Strand strand_;
    net::steady_timer start_timer_;
    net::steady_timer end_timer_;
    net::steady_timer drain_timer_;
    net::signal_set signals_;
    std::vector<std::shared_ptr<Session>> sessions_;
    int started_          = 0;
    int connections_      = 0;
    bool deadline_passed_ = false;
    bool finished_        = false;
    bool signalled_       = false;
    double played_s_      = 0;
    Clock::time_point next_start_;
};

}  // namespace papan::loadtest
