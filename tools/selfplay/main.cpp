// papan_selfplay: engine-against-engine matches and SPRTs over the Hub protocol, and the
// generator of the balanced opening suites. See docs/engine.md ("Measuring strength").
//
//   papan_selfplay --variant international --candidate build/release/papan
//       --baseline ../papan-old --sprt --elo0 0 --elo1 10 --nodes 20000
//   papan_selfplay --variant american --candidate build/release/papan
//       --candidate-level hard --baseline-level normal --games 100
//   papan_selfplay --variant international --candidate build/release/papan
//       --candidate-level hard --baseline ../peers/scan/scan --movetime 0.2
//       (a Hub v1 engine: the protocol is read from its handshake)
//   papan_selfplay make-openings --variant russian --plies 4 --depth 10 --max-score 25
#include "match.hpp"
#include "openings.hpp"
#include "sprt.hpp"

#include <papan/core/rules/registry.hpp>

#include <CLI/CLI.hpp>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <mutex>
#include <string>
#include <unistd.h>

namespace {

namespace sp = papan::selfplay;

struct Cli {
    std::string variant = "international";
    std::string candidate;
    std::string baseline;
    std::string candidate_level = "max";
    std::string baseline_level  = "max";
    std::vector<std::string> candidate_args;
    std::vector<std::string> baseline_args;
    std::vector<std::string> candidate_params;
    std::vector<std::string> baseline_params;
    std::string candidate_hub = "auto";
    std::string baseline_hub  = "auto";
    std::string candidate_dir;
    std::string baseline_dir;
    std::uint64_t nodes           = 20000;
    std::uint64_t candidate_nodes = 0;
    std::uint64_t baseline_nodes  = 0;
    double movetime               = 0;
    std::string openings;
    bool sprt           = false;
    double elo0         = 0;
    double elo1         = 10;
    double alpha        = 0.05;
    double beta         = 0.05;
    bool trinomial      = false;
    std::int64_t games  = 0;  // 0: 200 for a fixed match, 20000 as an SPRT's cap
    int concurrency     = 1;
    int max_plies       = 400;
    std::uint64_t seed  = 1;
    std::size_t hash_mb = 16;
    double timeout      = 0;
    int report_every    = 20;
    std::string games_log;
    bool json = false;

    // make-openings
    sp::GenerateOptions gen;
    std::string out;
};

// The folder of the running program (openings/ is copied next to it by the build).
std::filesystem::path program_dir() {
    std::error_code ec;
    const auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
    return ec ? std::filesystem::path(".") : self.parent_path();
}

std::filesystem::path default_openings(const std::string& key) {
    return program_dir() / "openings" / (key + ".txt");
}

std::vector<std::pair<std::string, std::string>> params_of(const std::vector<std::string>& in) {
    std::vector<std::pair<std::string, std::string>> out;
    for (const std::string& p : in) {
        const auto eq = p.find('=');
        if (eq == std::string::npos || eq == 0) {
            throw CLI::ValidationError("--*-param", "expects NAME=VALUE, not " + p);
        }
        out.emplace_back(p.substr(0, eq), p.substr(eq + 1));
    }
    return out;
}

sp::HubProtocol protocol_of(const std::string& text) {
    if (text == "1") {
        return sp::HubProtocol::V1;
    }
    if (text == "2") {
        return sp::HubProtocol::V2;
    }
    return sp::HubProtocol::Auto;
}

std::string elo_text(const sp::EloEstimate& e) {
    char buf[96];
    std::snprintf(buf,
                  sizeof buf,
                  "Elo %+.1f +- %.1f (95%%: %+.1f .. %+.1f)",
                  e.elo,
                  (e.upper - e.lower) / 2.0,
                  e.lower,
                  e.upper);
    return buf;
}

std::string depth_text(const sp::TimeStats& t) {
    if (t.depth_moves == 0) {
        return "";
    }
    char buf[128];
    std::snprintf(buf,
                  sizeof buf,
                  "  mean depth %.1f over the %lld open moves that reported one",
                  t.mean_depth(),
                  static_cast<long long>(t.depth_moves));
    std::string text = buf;
    if (t.nodes_seconds > 0) {
        std::snprintf(buf,
                      sizeof buf,
                      "; %.2f M nodes/s",
                      static_cast<double>(t.nodes) / t.nodes_seconds / 1e6);
        text += buf;
    }
    return text + "\n";
}

std::string time_text(const char* who, const sp::TimeStats& t, double movetime) {
    if (t.moves == 0) {
        return "";
    }
    const double mean = t.seconds / static_cast<double>(t.moves);
    char buf[256];
    if (movetime > 0) {
        std::snprintf(buf,
                      sizeof buf,
                      "%s: %lld moves, %.3f s per move on average (%.0f%% of %.3f s; unspent "
                      "%.0f%%), longest %.3f s\n",
                      who,
                      static_cast<long long>(t.moves),
                      mean,
                      100.0 * mean / movetime,
                      movetime,
                      100.0 * (1.0 - mean / movetime),
                      t.max_seconds);
        std::string text = buf;
        // Where the budget goes unspent: forced moves, moves played without a search, proven
        // results and searches that reached the depth cap rightly take less; the other moves are
        // what time management answers for.
        const sp::TimeShare settled = t.settled();
        const std::int64_t open     = t.moves - settled.moves;
        const double open_s         = t.seconds - settled.seconds;
        std::snprintf(buf,
                      sizeof buf,
                      "  %lld forced (one legal move), %lld played without a search, %lld proven "
                      "results, %lld searched to the depth cap (%d plies); the other %lld moves: "
                      "unspent %.0f%%\n",
                      static_cast<long long>(t.forced.moves),
                      static_cast<long long>(t.unsearched.moves),
                      static_cast<long long>(t.proven.moves),
                      static_cast<long long>(t.searched_out.moves),
                      sp::kSearchedOutDepth,
                      static_cast<long long>(open),
                      open > 0 ? 100.0 * (1.0 - open_s / (static_cast<double>(open) * movetime))
                               : 0.0);
        text += buf;
        text += depth_text(t);
        return text;
    } else {
        std::snprintf(buf,
                      sizeof buf,
                      "%s: %lld moves, %.4f s per move on average, longest %.3f s\n",
                      who,
                      static_cast<long long>(t.moves),
                      mean,
                      t.max_seconds);
    }
    return buf + depth_text(t);
}

const char* decision_text(sp::Decision d) {
    switch (d) {
    case sp::Decision::AcceptH1:
        return "H1 accepted (the candidate is stronger)";
    case sp::Decision::AcceptH0:
        return "H0 accepted (no gain of elo1)";
    case sp::Decision::Continue:
        return "no decision (game cap reached)";
    }
    return "";
}

int run_match_command(const Cli& c) {
    const auto variant = papan::core::variant_from_key(c.variant);
    if (!variant) {
        std::cerr << "papan_selfplay: unknown variant " << c.variant << '\n';
        return 2;
    }
    const std::string key(papan::core::rules(*variant).key);
    sp::MatchOptions o;
    o.variant           = *variant;
    o.candidate.path    = c.candidate;
    o.baseline.path     = c.baseline.empty() ? c.candidate : c.baseline;
    o.candidate.level   = c.candidate_level;
    o.baseline.level    = c.baseline_level;
    o.candidate.hash_mb = o.baseline.hash_mb = c.hash_mb;
    o.candidate.args.insert(
        o.candidate.args.end(), c.candidate_args.begin(), c.candidate_args.end());
    o.baseline.args.insert(o.baseline.args.end(), c.baseline_args.begin(), c.baseline_args.end());
    o.candidate.params   = params_of(c.candidate_params);
    o.baseline.params    = params_of(c.baseline_params);
    o.candidate.label    = "candidate";
    o.baseline.label     = "baseline";
    o.candidate.protocol = protocol_of(c.candidate_hub);
    o.baseline.protocol  = protocol_of(c.baseline_hub);
    o.candidate.work_dir = c.candidate_dir;
    o.baseline.work_dir  = c.baseline_dir;
    for (const std::string* p : {&o.candidate.path, &o.baseline.path}) {
        if (::access(p->c_str(), X_OK) != 0) {
            std::cerr << "papan_selfplay: cannot run " << *p << '\n';
            return 2;
        }
    }
    if (c.movetime > 0) {
        o.candidate_limit = {.nodes = 0, .move_time = c.movetime};
        o.baseline_limit  = o.candidate_limit;
    } else {
        o.candidate_limit = {.nodes = c.candidate_nodes > 0 ? c.candidate_nodes : c.nodes};
        o.baseline_limit  = {.nodes = c.baseline_nodes > 0 ? c.baseline_nodes : c.nodes};
    }
    const std::string suite = c.openings.empty() ? default_openings(key).string() : c.openings;
    auto openings           = sp::load_openings(*variant, suite);
    if (!openings) {
        std::cerr << "papan_selfplay: " << openings.error() << '\n';
        return 2;
    }
    o.openings               = std::move(openings).value();
    o.max_plies              = c.max_plies;
    o.concurrency            = c.concurrency;
    o.seed                   = c.seed;
    o.counting               = c.trinomial ? sp::Counting::Trinomial : sp::Counting::Pentanomial;
    const std::int64_t games = c.games > 0 ? c.games : (c.sprt ? 20000 : 200);
    o.max_pairs              = (games + 1) / 2;
    if (c.sprt) {
        o.sprt = sp::SprtParams{.elo0 = c.elo0, .elo1 = c.elo1, .alpha = c.alpha, .beta = c.beta};
    }
    const double timeout =
        c.timeout > 0 ? c.timeout : (c.movetime > 0 ? std::max(10.0, 10 * c.movetime) : 120.0);
    o.move_timeout = std::chrono::milliseconds(static_cast<std::int64_t>(timeout * 1000));

    std::ofstream log;
    if (!c.games_log.empty()) {
        log.open(c.games_log);
        if (!log) {
            std::cerr << "papan_selfplay: cannot write " << c.games_log << '\n';
            return 2;
        }
    }
    const std::string limit_text =
        c.movetime > 0 ? std::to_string(c.movetime) + " s per move"
                       : std::to_string(o.candidate_limit.nodes) + " / " +
                             std::to_string(o.baseline_limit.nodes) + " nodes per move";
    std::cout << key << ": candidate " << o.candidate.path << " (" << o.candidate.level
              << ") vs baseline " << o.baseline.path << " (" << o.baseline.level << "), "
              << limit_text << ", " << o.openings.size() << " openings from " << suite << ", "
              << sp::counting_name(o.counting) << ", concurrency " << o.concurrency << '\n';
    if (o.sprt) {
        std::cout << "SPRT elo0 " << c.elo0 << " elo1 " << c.elo1 << " alpha " << c.alpha
                  << " beta " << c.beta << ", at most " << 2 * o.max_pairs << " games\n";
    }
    std::cout << std::flush;

    const auto progress =
        [&](const sp::GameRecord& a, const sp::GameRecord& b, const sp::MatchResult& r) {
            if (log) {
                for (const sp::GameRecord* g : {&a, &b}) {
                    log << "opening " << g->opening << " candidate "
                        << (g->candidate_white ? "white" : "black") << " score "
                        << g->candidate_half_points / 2.0 << " plies " << g->plies << " | "
                        << g->ending << " | " << g->moves << '\n';
                }
                log << std::flush;
            }
            for (const sp::GameRecord* g : {&a, &b}) {
                if (g->ending.find("forfeits") != std::string::npos) {
                    std::cerr << "papan_selfplay: " << g->ending << '\n';
                }
            }
            const std::int64_t pairs = r.counts.pair_count();
            if (c.report_every > 0 && pairs % c.report_every == 0) {
                std::printf("pairs %lld: W %lld L %lld D %lld",
                            static_cast<long long>(pairs),
                            static_cast<long long>(r.counts.wins),
                            static_cast<long long>(r.counts.losses),
                            static_cast<long long>(r.counts.draws));
                if (o.sprt) {
                    std::printf("  LLR %.2f (%.2f, %.2f)", r.llr, r.bounds.lower, r.bounds.upper);
                }
                std::printf("  %s\n", elo_text(sp::estimate_elo(r.counts, o.counting)).c_str());
                std::fflush(stdout);
            }
        };
    const sp::MatchResult r = sp::run_match(o, progress);
    if (!r.error.empty()) {
        std::cerr << "papan_selfplay: " << r.error << '\n';
        return 1;
    }
    const auto& k = r.counts;
    const auto e  = sp::estimate_elo(k, o.counting);
    std::printf("games %lld (%lld pairs): W %lld L %lld D %lld  score %.1f%%\n",
                static_cast<long long>(k.games()),
                static_cast<long long>(k.pair_count()),
                static_cast<long long>(k.wins),
                static_cast<long long>(k.losses),
                static_cast<long long>(k.draws),
                100.0 * (static_cast<double>(k.wins) + 0.5 * static_cast<double>(k.draws)) /
                    static_cast<double>(std::max<std::int64_t>(1, k.games())));
    std::printf("pentanomial (pair score 0, 1/2, 1, 3/2, 2): %lld %lld %lld %lld %lld\n",
                static_cast<long long>(k.pairs[0]),
                static_cast<long long>(k.pairs[1]),
                static_cast<long long>(k.pairs[2]),
                static_cast<long long>(k.pairs[3]),
                static_cast<long long>(k.pairs[4]));
    if (o.sprt) {
        std::printf("LLR %.2f (%.2f, %.2f): %s\n",
                    r.llr,
                    r.bounds.lower,
                    r.bounds.upper,
                    decision_text(r.decision));
    }
    std::printf(
        "%s (%s)\n", elo_text(e).c_str(), std::string(sp::counting_name(o.counting)).c_str());
    std::printf("forfeits: candidate %lld, baseline %lld\n",
                static_cast<long long>(r.forfeits_candidate),
                static_cast<long long>(r.forfeits_baseline));
    std::printf("%s%s",
                time_text("candidate", r.time_candidate, c.movetime).c_str(),
                time_text("baseline", r.time_baseline, c.movetime).c_str());
    if (c.json) {
        std::printf(
            "{\"variant\":\"%s\",\"games\":%lld,\"wins\":%lld,\"losses\":%lld,\"draws\":%lld,"
            "\"pairs\":[%lld,%lld,%lld,%lld,%lld],\"llr\":%.4f,\"lower\":%.4f,\"upper\":%.4f,"
            "\"decision\":\"%s\",\"elo\":%.2f,\"elo_lower\":%.2f,\"elo_upper\":%.2f,"
            "\"forfeits_candidate\":%lld,\"forfeits_baseline\":%lld,"
            "\"depth_candidate\":%.2f,\"depth_baseline\":%.2f}\n",
            key.c_str(),
            static_cast<long long>(k.games()),
            static_cast<long long>(k.wins),
            static_cast<long long>(k.losses),
            static_cast<long long>(k.draws),
            static_cast<long long>(k.pairs[0]),
            static_cast<long long>(k.pairs[1]),
            static_cast<long long>(k.pairs[2]),
            static_cast<long long>(k.pairs[3]),
            static_cast<long long>(k.pairs[4]),
            r.llr,
            r.bounds.lower,
            r.bounds.upper,
            r.decision == sp::Decision::AcceptH1   ? "H1"
            : r.decision == sp::Decision::AcceptH0 ? "H0"
                                                   : "none",
            e.elo,
            e.lower,
            e.upper,
            static_cast<long long>(r.forfeits_candidate),
            static_cast<long long>(r.forfeits_baseline),
            r.time_candidate.mean_depth(),
            r.time_baseline.mean_depth());
    }
    return 0;
}

int run_make_openings(const Cli& c) {
    const auto variant = papan::core::variant_from_key(c.variant);
    if (!variant) {
        std::cerr << "papan_selfplay: unknown variant " << c.variant << '\n';
        return 2;
    }
    const sp::GeneratedSuite s = sp::generate_openings(*variant, c.gen);
    std::ofstream file;
    if (!c.out.empty()) {
        file.open(c.out);
        if (!file) {
            std::cerr << "papan_selfplay: cannot write " << c.out << '\n';
            return 2;
        }
    }
    std::ostream& out = c.out.empty() ? std::cout : file;
    const std::string key(papan::core::rules(*variant).key);
    out << "# " << key << ": balanced openings generated by papan_selfplay make-openings\n"
        << "#   --variant " << key << " --plies " << c.gen.plies << " --depth " << c.gen.depth
        << " --max-score " << c.gen.max_score << " --count " << c.gen.count << " --sample "
        << c.gen.sample << " --seed " << c.gen.seed << '\n'
        << "# every line of " << c.gen.plies
        << " plies from the start (one per distinct position: " << s.candidates << "); "
        << s.searched << " drawn in the seed's order and searched to depth " << c.gen.depth
        << " (level max); kept when |score| <= " << c.gen.max_score
        << " hundredths of a man: " << s.openings.size() << ".\n"
        << "# Each line: the moves; the comment is the balance check's score.\n";
    for (std::size_t i = 0; i < s.openings.size(); ++i) {
        out << s.openings[i].text << "  # " << s.scores[i] << '\n';
    }
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    Cli c;
    CLI::App app{"papan_selfplay: engine matches and SPRTs over the Hub protocol"};
    app.add_option("--variant,-v", c.variant, "Variant id (default international)");
    app.add_option("--candidate", c.candidate, "The engine under test (a program speaking Hub)");
    app.add_option("--baseline", c.baseline, "The engine to beat (default: the candidate)");
    app.add_option(
        "--candidate-level", c.candidate_level, "easy, normal, hard or max (default max)");
    app.add_option("--baseline-level", c.baseline_level, "easy, normal, hard or max (default max)");
    app.add_option("--candidate-arg", c.candidate_args, "Extra argument after `hub` (repeatable)");
    app.add_option("--baseline-arg", c.baseline_args, "Extra argument after `hub` (repeatable)");
    app.add_option("--candidate-param", c.candidate_params, "set-param NAME=VALUE (repeatable)");
    app.add_option("--baseline-param", c.baseline_params, "set-param NAME=VALUE (repeatable)");
    app.add_option("--candidate-hub", c.candidate_hub, "Hub protocol: auto, 1 or 2 (default auto)")
        ->check(CLI::IsMember({"auto", "1", "2"}));
    app.add_option("--baseline-hub", c.baseline_hub, "Hub protocol: auto, 1 or 2 (default auto)")
        ->check(CLI::IsMember({"auto", "1", "2"}));
    app.add_option("--candidate-dir",
                   c.candidate_dir,
                   "Folder the candidate runs in (default: the program's own)");
    app.add_option("--baseline-dir",
                   c.baseline_dir,
                   "Folder the baseline runs in (default: the program's own)");
    app.add_option("--nodes", c.nodes, "Nodes per move for both (default 20000)");
    app.add_option("--candidate-nodes", c.candidate_nodes, "Nodes per move of the candidate");
    app.add_option("--baseline-nodes", c.baseline_nodes, "Nodes per move of the baseline");
    app.add_option("--movetime", c.movetime, "Seconds per move instead of nodes")
        ->check(CLI::Range(0.001, 3600.0));
    app.add_option("--openings", c.openings, "Opening suite (default openings/<variant>.txt)");
    app.add_flag("--sprt", c.sprt, "Stop at the SPRT bounds");
    app.add_option("--elo0", c.elo0, "SPRT H0 (default 0)");
    app.add_option("--elo1", c.elo1, "SPRT H1 (default 10)");
    app.add_option("--alpha", c.alpha, "SPRT alpha (default 0.05)")->check(CLI::Range(1e-6, 0.5));
    app.add_option("--beta", c.beta, "SPRT beta (default 0.05)")->check(CLI::Range(1e-6, 0.5));
    app.add_flag("--trinomial", c.trinomial, "Count single games instead of game pairs");
    app.add_option("--games", c.games, "Games (fixed match, default 200; SPRT cap, default 20000)")
        ->check(CLI::Range(std::int64_t{1}, std::int64_t{10000000}));
    app.add_option("--concurrency,-j", c.concurrency, "Game pairs played at once (default 1)")
        ->check(CLI::Range(1, 64));
    app.add_option("--max-plies", c.max_plies, "Draw after this many plies (default 400)")
        ->check(CLI::Range(1, 100000));
    app.add_option("--seed", c.seed, "Order of the openings (default 1)");
    app.add_option("--hash", c.hash_mb, "Table size of each engine in MB (default 16)")
        ->check(CLI::Range(1, 4096));
    app.add_option("--timeout",
                   c.timeout,
                   "Seconds an engine may take for one move before it "
                   "forfeits (default 120, or 10 x movetime)");
    app.add_option("--report-every", c.report_every, "Progress line every N pairs (0: none)");
    app.add_option("--games-log", c.games_log, "Write every game (opening, result, moves) here");
    app.add_flag("--json", c.json, "A JSON summary as the last line");

    auto* gen = app.add_subcommand("make-openings", "Generate a balanced opening suite");
    gen->fallthrough();  // --variant is the main program's option
    gen->add_option("--plies", c.gen.plies, "Opening length (default 4)")->check(CLI::Range(1, 8));
    gen->add_option("--depth", c.gen.depth, "Search depth of the balance check (default 10)")
        ->check(CLI::Range(1, 30));
    gen->add_option("--max-score", c.gen.max_score, "Keep |score| <= this (default 25)");
    gen->add_option("--count", c.gen.count, "Openings to keep (default 200)");
    gen->add_option("--sample", c.gen.sample, "Candidates to search at most (default 1000)");
    gen->add_option("--seed", c.gen.seed, "Order of the candidates (default 1)");
    gen->add_option("--out,-o", c.out, "Output file (default stdout)");
    CLI11_PARSE(app, argc, argv);
    try {
        if (gen->parsed()) {
            return run_make_openings(c);
        }
        if (c.candidate.empty()) {
            std::cerr << "papan_selfplay: --candidate is required\n";
            return 2;
        }
        return run_match_command(c);
    } catch (const CLI::Error& e) {
        return app.exit(e);
    }
}
