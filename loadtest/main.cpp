// papan_loadtest --url ws://HOST:PORT/ws --games N --rate R --duration S
// [--mode hotseat|friend|computer] [--level L] [--reconnect] [--json]. Plays N concurrent games of
// random legal moves against one or more running servers (nodes), then checks every game against
// the store. Exit code 1 when a move was lost or duplicated, when no move was acknowledged, when
// errors exceed --max-errors, or (with
// --reconnect) when a game interrupted by a drop did not continue; CLI11's own code for bad
// options. With --json the last stdout line is the report. SIGINT/SIGTERM end the play early
// (drain, check, report as usual). A program of its own, not a `papan` subcommand: README.md.
#include <papan/core/rules/registry.hpp>
#include <papan/loadtest/loadtest.hpp>

#include <CLI/CLI.hpp>

#include <exception>
#include <iostream>
#include <string>
#include <vector>

namespace {

int fail(const std::string& message) {
    std::cerr << "papan_loadtest: error: " << message << '\n';
    return 1;
}

// The variant's key for a --variant value (aliases such as "english" allowed), or an error text.
std::string variant_key(const std::string& value, std::string& error) {
    if (const auto v = papan::core::variant_from_key(value)) {
        return std::string(papan::core::rules(*v).key);
    }
    std::string known;
    for (const papan::core::RuleSet& r : papan::core::all_variants()) {
        known += (known.empty() ? "" : ", ") + std::string(r.key);
    }
    error = "unknown variant '" + value + "' (known: " + known + ", english)";
    return {};
}

}  // namespace

int main(int argc, char** argv) {
    namespace lt = papan::loadtest;
    CLI::App app{"Play concurrent games of random moves against Papan servers; check the store",
                 "papan_loadtest"};
    lt::Options run;
    std::vector<std::string> urls;
    std::string mode = "hotseat";
    bool json        = false;
    app.add_option("--url",
                   urls,
                   "WebSocket URL of a server node (ws://HOST:PORT/ws); repeat it or separate URLs "
                   "by commas for several nodes")
        ->required()
        ->expected(1)
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
    app.add_option("--games,-n", run.games, "Concurrent games")->required();
    app.add_option("--rate", run.rate, "New games started per second")->required();
    app.add_option("--duration", run.duration, "Seconds of play")->required();
    app.add_option("--mode",
                   mode,
                   "hotseat (one connection per game, default), friend (two players on two "
                   "connections, round robin over the URLs) or computer (one connection per "
                   "game, white against the server's computer)")
        ->check(CLI::IsMember({"hotseat", "friend", "computer"}));
    app.add_option("--level", run.level, "Computer games: easy, normal, hard (default) or max")
        ->check(CLI::IsMember({"easy", "normal", "hard", "max"}));
    app.add_option("--reply-deadline",
                   run.reply_deadline,
                   "Computer games: seconds a computer reply may take before its game counts as "
                   "one without a reply in time (default 10)");
    app.add_flag("--reconnect",
                 run.reconnect,
                 "Reconnect dropped connections (backoff, next URL), resume the games and go on");
    app.add_option("--stall",
                   run.stall,
                   "With --reconnect: seconds a move may wait for its ack before the game is "
                   "resumed and the move sent again (default 5)");
    app.add_option("--variant,-v", run.variant, "Variant id (default international)");
    app.add_option("--seed", run.seed, "Seed of the random choice of moves (default 1)");
    app.add_option("--think",
                   run.think_ms,
                   "Milliseconds between an ack and the game's next move (default 0)");
    app.add_option("--max-games",
                   run.max_games,
                   "Games created in all, finished ones replaced (default 10 x --games)");
    app.add_option("--max-errors", run.max_errors, "Errors tolerated (default 0)");
    app.add_option(
        "--drain", run.drain, "Seconds to wait for acks in flight at the end (default 10)");
    app.add_option("--threads", run.threads, "Client I/O threads (default 1)");
    app.add_flag("--json", json, "JSON report as the last line");
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        return app.exit(e);
    }

    std::string error;
    run.variant = variant_key(run.variant, error);
    if (!error.empty()) {
        return fail(error);
    }
    run.urls = lt::split_urls(urls);
    run.mode = lt::parse_mode(mode).value_or(lt::Mode::Hotseat);
    lt::Report report;
    try {
        report = lt::run(run);
    } catch (const std::exception& e) {
        return fail(e.what());
    }
    if (json) {
        std::cout << report.to_json().dump() << '\n';
    } else {
        std::cout << report.to_text();
    }
    return report.ok ? 0 : 1;
}
