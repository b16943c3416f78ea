// One run: resolve the servers, play (the runner and its sessions on --threads I/O threads), then
// gather the figures and check every game against the store.
#include "runner.hpp"
#include "stored_moves.hpp"

#include <papan/loadtest/loadtest.hpp>

#include <boost/asio/post.hpp>

#include <algorithm>
#include <stdexcept>
#include <thread>

namespace papan::loadtest {

Report run(const Options& options) {
    if (const auto e = validate(options); !e.empty()) {
        throw std::runtime_error(e);
    }
    RunState state;
    state.opt       = options;
    state.servers   = resolve_servers(options.urls, state.ioc);
    state.max_games = options.max_games > 0 ? options.max_games : 10 * options.games;

    Runner runner(state);
    net::post(state.ioc, [&runner] { runner.begin(); });
    std::vector<std::thread> threads;
    for (int i = 1; i < options.threads; ++i) {
        threads.emplace_back([&state] { state.ioc.run(); });
    }
    state.ioc.run();
    for (auto& t : threads) {
        t.join();
    }

    Report r;
    r.options           = options;
    r.connections       = runner.connections();
    r.games_created     = std::min(state.games_created.load(), state.max_games);
    r.games_finished    = state.games_finished;
    r.peak_games        = state.peak;
    r.moves             = state.moves;
    r.messages_in       = state.messages_in.load();
    r.played_s          = runner.played_s();
    r.stopped_by_signal = runner.signalled();
    r.errors            = state.errors;
    if (state.moves > 0) {
        r.elapsed_s   = std::chrono::duration<double>(state.last_ack - state.start).count();
        r.moves_per_s = r.elapsed_s > 0 ? static_cast<double>(state.moves) / r.elapsed_s : 0.0;
    }
    r.ack            = summarize(std::move(state.latencies_us));
    r.computer.moves = state.computer_moves;
    if (state.computer_moves > 0) {
        const double s =
            std::chrono::duration<double>(state.last_computer_move - state.start).count();
        r.computer.moves_per_s = s > 0 ? static_cast<double>(state.computer_moves) / s : 0.0;
    }
    r.computer.reply               = summarize(std::move(state.computer_reply_us));
    r.computer.games_late          = state.computer_games_late;
    r.computer.games_without_reply = state.computer_games_without_reply;
    r.computer.replies_awaited     = state.computer_replies_awaited;
    r.reconnect                    = state.rc;
    r.reconnect.resumed_samples    = static_cast<std::int64_t>(state.resume_us.size());
    r.reconnect.resume             = summarize(std::move(state.resume_us));

    std::size_t k = 0;
    for (const auto& g : state.games) {
        if (g.continuity.interrupted()) {
            ++r.reconnect.games_interrupted;
            if (g.continuity.continued()) {
                ++r.reconnect.games_continued;
            } else if (r.reconnect.not_continued.size() < 10) {
                r.reconnect.not_continued.push_back(g.id);
            }
        }
        r.opponent_missed += count_opponent_missed(g);
        const auto stored = fetch_stored_moves(state.servers, g.id, k++);
        if (!stored) {
            ++r.errors["verify_fetch"];
            continue;
        }
        ++r.verified_games;
        const auto c = compare_game(g, *stored);
        r.verify.lost += c.lost;
        r.verify.duplicated += c.duplicated;
        r.verify.stored_unacked += c.stored_unacked;
        if (!c.first_mismatch.empty() && r.mismatches.size() < 10) {
            r.mismatches.push_back(c.first_mismatch);
        }
    }
    if (r.opponent_missed > 0) {
        r.errors["opponent_missed"] += r.opponent_missed;
    }
    for (const auto& [code, n] : r.errors) {
        r.error_total += n;
    }
    r.ok = r.moves > 0 && r.verify.lost == 0 && r.verify.duplicated == 0 &&
           r.error_total <= options.max_errors &&
           (!options.reconnect || r.reconnect.games_continued == r.reconnect.games_interrupted);
    return r;
}

}  // namespace papan::loadtest
