// What the sessions of one run share: the options, the servers, the I/O context, and the figures
// they gather (guarded by `mu`; the few hot counters are atomics).
#pragma once

#include "asio_types.hpp"
#include "server_address.hpp"

#include <papan/loadtest/options.hpp>
#include <papan/loadtest/report.hpp>
#include <papan/loadtest/store_check.hpp>

#include <atomic>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace papan::loadtest {

struct RunState {
    Options opt;
    std::vector<ServerAddress> servers;
    net::io_context ioc;
    std::atomic<bool> stopping{false};
    std::atomic<int> games_created{0};
    std::atomic<int> active{0};
    int max_games = 0;
    Clock::time_point start;
    std::atomic<std::int64_t> messages_in{0};

    std::mutex mu;
    std::vector<std::int64_t> latencies_us;
    std::vector<std::int64_t> resume_us;
    std::map<std::string, std::int64_t> errors;
    std::int64_t moves = 0;
    Clock::time_point last_ack;
    int games_finished = 0;
    int live           = 0;
    int peak           = 0;
    std::vector<GameCheck> games;
    ReconnectReport rc;  // the counters (figures over all sessions)

    // Computer games.
    std::vector<std::int64_t> computer_reply_us;
    std::int64_t computer_moves = 0;
    Clock::time_point last_computer_move;
    int computer_games_late               = 0;
    int computer_games_without_reply      = 0;
    std::int64_t computer_replies_awaited = 0;

    void error(const std::string& code) {
        const std::lock_guard lock(mu);
        ++errors[code];
    }

    template <class F>
    void locked(F&& f) {
        const std::lock_guard lock(mu);
        f();
    }
};

}  // namespace papan::loadtest
