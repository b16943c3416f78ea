// papan_selfplay: plays a match between two levels of the engine and prints W/L/D, the score and
// the Elo difference with its 95% error bar. Openings are random 2-4 ply starts (from --seed),
// each played twice with colours swapped. Games end by the rules (core::Game, with its draw
// rules) or are adjudicated a draw at --max-plies. Budgets are nodes per move, so a run is
// reproducible for a given seed and thread count does not change results.
//
//   papan_selfplay --variant international --a hard --b normal --pairs 50 --nodes-a 20000
#include <papan/core/game.hpp>
#include <papan/core/rules/registry.hpp>
#include <papan/engine/engine.hpp>

#include <atomic>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace {

using papan::core::Color;
using papan::core::Game;
using papan::core::Outcome;
using papan::engine::Level;

struct Options {
    papan::core::VariantId variant = papan::core::VariantId::International;
    Level a                        = Level::Hard;
    Level b                        = Level::Normal;
    int pairs                      = 50;
    std::uint64_t nodes_a          = 20000;
    std::uint64_t nodes_b          = 20000;
    int max_plies                  = 300;
    std::uint64_t seed             = 1;
    int threads                    = 2;
    bool verbose                   = false;
};

[[noreturn]] void usage(const char* why) {
    std::fprintf(stderr,
                 "papan_selfplay: %s\n"
                 "usage: papan_selfplay [--variant V] [--a LEVEL] [--b LEVEL] [--pairs N]\n"
                 "       [--nodes-a N] [--nodes-b N] [--max-plies N] [--seed S] [--threads T] "
                 "[--verbose]\n",
                 why);
    std::exit(2);
}

Options parse(int argc, char** argv) {
    Options o;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        const auto next       = [&]() -> std::string {
            if (i + 1 >= argc) {
                usage(("missing value after " + arg).c_str());
            }
            return argv[++i];
        };
        if (arg == "--variant") {
            const auto v = papan::core::variant_from_key(next());
            if (!v) {
                usage("unknown variant");
            }
            o.variant = *v;
        } else if (arg == "--a" || arg == "--b") {
            const auto l = papan::engine::level_from_string(next());
            if (!l) {
                usage("unknown level");
            }
            (arg == "--a" ? o.a : o.b) = *l;
        } else if (arg == "--pairs") {
            o.pairs = std::stoi(next());
        } else if (arg == "--nodes-a") {
            o.nodes_a = std::stoull(next());
        } else if (arg == "--nodes-b") {
            o.nodes_b = std::stoull(next());
        } else if (arg == "--max-plies") {
            o.max_plies = std::stoi(next());
        } else if (arg == "--seed") {
            o.seed = std::stoull(next());
        } else if (arg == "--threads") {
            o.threads = std::max(1, std::stoi(next()));
        } else if (arg == "--verbose") {
            o.verbose = true;
        } else {
            usage(("unknown option " + arg).c_str());
        }
    }
    return o;
}

std::uint64_t splitmix(std::uint64_t& x) {
    x += 0x9e3779b97f4a7c15ULL;
    std::uint64_t z = x;
    z               = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z               = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

// A random opening of 2-4 plies that leaves the game going.
std::vector<papan::core::Move> opening(const Options& o, int pair) {
    std::uint64_t x = o.seed * std::uint64_t{1000003} + static_cast<std::uint64_t>(pair);
    for (;;) {
        Game g(o.variant);
        const int plies = 2 + static_cast<int>(splitmix(x) % 3);
        std::vector<papan::core::Move> line;
        for (int p = 0; p < plies && !g.is_over(); ++p) {
            const auto& legal = g.legal_moves();
            const auto m      = legal[splitmix(x) % legal.size()];
            line.push_back(m);
            (void)g.play(m);
        }
        if (!g.is_over()) {
            return line;
        }
    }
}

// +1 when A wins, 0 draw, -1 when B wins.
int play_game(const Options& o, int pair, bool a_first) {
    Game g(o.variant);
    for (const auto& m : opening(o, pair)) {
        (void)g.play(m);
    }
    const auto seed_a =
        o.seed * std::uint64_t{7919} + static_cast<std::uint64_t>(pair) * 2U + (a_first ? 1U : 0U);
    papan::engine::Engine ea(
        papan::engine::EngineOptions{.hash_mb = 16, .seed = seed_a, .egdb_dir = {}});
    papan::engine::Engine eb(
        papan::engine::EngineOptions{.hash_mb = 16, .seed = seed_a ^ 0xABCDEF, .egdb_dir = {}});
    // The side that moves first after the opening is "first".
    const Color a_colour = a_first ? g.side_to_move() : papan::core::opposite(g.side_to_move());
    while (!g.is_over() && g.ply() < o.max_plies) {
        const bool a_to_move = g.side_to_move() == a_colour;
        papan::engine::SearchLimits limits;
        limits.nodes = a_to_move ? o.nodes_a : o.nodes_b;
        const auto r = a_to_move ? ea.search(g, limits, o.a) : eb.search(g, limits, o.b);
        if (!r.best || !g.play(*r.best).ok()) {
            std::fprintf(stderr, "papan_selfplay: engine returned no legal move\n");
            std::exit(1);
        }
    }
    const auto w = papan::core::winner(g.result().outcome);
    if (!w) {
        return 0;
    }
    return *w == a_colour ? 1 : -1;
}

double elo(double p) {
    p = std::clamp(p, 1e-4, 1.0 - 1e-4);
    return -400.0 * std::log10(1.0 / p - 1.0);
}

}  // namespace

int main(int argc, char** argv) {
    const Options o = parse(argc, argv);
    std::atomic<int> next_game{0};
    std::mutex mu;
    int wins = 0, losses = 0, draws = 0;
    const int total = 2 * o.pairs;
    std::vector<std::thread> pool;
    for (int t = 0; t < o.threads; ++t) {
        pool.emplace_back([&] {
            for (;;) {
                const int gi = next_game.fetch_add(1);
                if (gi >= total) {
                    return;
                }
                const int r = play_game(o, gi / 2, gi % 2 == 0);
                const std::lock_guard lock(mu);
                (r > 0 ? wins : r < 0 ? losses : draws) += 1;
                if (o.verbose) {
                    std::fprintf(stderr, "game %d: %s\n", gi, r > 0 ? "A" : r < 0 ? "B" : "draw");
                }
            }
        });
    }
    for (auto& th : pool) {
        th.join();
    }
    const double n     = static_cast<double>(total);
    const double score = (wins + 0.5 * draws) / n;
    const double var   = (wins * std::pow(1.0 - score, 2) + draws * std::pow(0.5 - score, 2) +
                        losses * std::pow(0.0 - score, 2)) /
                       n;
    const double se = std::sqrt(var / n);
    const double lo = elo(score - 1.96 * se);
    const double hi = elo(score + 1.96 * se);
    std::printf("%s: %s (A, %llu nodes) vs %s (B, %llu nodes), %d games\n",
                std::string(papan::core::rules(o.variant).key).c_str(),
                std::string(papan::engine::level_name(o.a)).c_str(),
                static_cast<unsigned long long>(o.nodes_a),
                std::string(papan::engine::level_name(o.b)).c_str(),
                static_cast<unsigned long long>(o.nodes_b),
                total);
    std::printf("A: W %d  L %d  D %d  score %.1f%%  Elo %+.0f +- %.0f (95%%)\n",
                wins,
                losses,
                draws,
                100.0 * score,
                elo(score),
                (hi - lo) / 2.0);
    return 0;
}
