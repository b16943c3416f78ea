// Self-play games for mining and the miner's loop over them (puzzle_miner.hpp).
#include <papan/core/movegen.hpp>
#include <papan/core/rules/registry.hpp>
#include <papan/engine/engine.hpp>
#include <papan/server/puzzle_miner.hpp>

#include <algorithm>
#include <array>
#include <chrono>
#include <map>
#include <mutex>
#include <set>
#include <thread>

namespace papan::server {

namespace {

std::uint64_t splitmix(std::uint64_t& state) {
    std::uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
    z               = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z               = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

constexpr int kMaxPlies       = 200;
constexpr int kDecidedBalance = 500;  // a game this far ahead is over as a source of puzzles

int balance(const core::Position& p) {
    const auto men = [&](core::Color c) { return core::popcount(p.men(c)); };
    const auto k   = [&](core::Color c) { return core::popcount(p.kings_of(c)); };
    return 100 * (men(p.side) - men(core::opposite(p.side))) +
           300 * (k(p.side) - k(core::opposite(p.side)));
}

// How one side plays a mining game: a weak level, or a small node budget at full strength.
struct Player {
    engine::Level level = engine::Level::Normal;
    std::uint64_t nodes = 0;
};

Player draw_player(std::uint64_t& rng) {
    switch (splitmix(rng) % 5) {
    case 0:
        return {engine::Level::Easy, 0};
    case 1:
        return {engine::Level::Hard, 1000 + splitmix(rng) % 8000};
    default:
        return {engine::Level::Normal, 0};
    }
}

struct GameOut {
    std::vector<Puzzle> puzzles;
    MineStats stats;
};

}  // namespace

core::Game selfplay_game(core::VariantId v, std::uint64_t seed, std::uint64_t index) {
    std::uint64_t rng = seed * 0x2545F4914F6CDD1DULL + index * 0x9E3779B97F4A7C15ULL + 1;
    core::Game game(v);
    const int random_plies = 2 + static_cast<int>(splitmix(rng) % 5);
    for (int i = 0; i < random_plies && !game.is_over(); ++i) {
        const auto& legal = game.legal_moves();
        (void)game.play(legal[static_cast<std::size_t>(splitmix(rng) % legal.size())]);
    }
    const std::array<Player, 2> players{draw_player(rng), draw_player(rng)};
    engine::Engine eng(engine::EngineOptions{.hash_mb = 8, .seed = splitmix(rng), .egdb_dir = {}});
    eng.new_game();
    while (!game.is_over() && game.ply() < kMaxPlies &&
           std::abs(balance(game.position())) < kDecidedBalance) {
        const Player& who = players[static_cast<std::size_t>(core::index(game.side_to_move()))];
        engine::SearchLimits limits;
        limits.depth = who.nodes > 0 ? 0 : 64;  // the weak levels stop at their own depth
        limits.nodes = who.nodes > 0 ? who.nodes : 200000;
        const auto r = eng.search(game, limits, who.level);
        if (!r.best || !game.play(*r.best)) {
            break;
        }
    }
    return game;
}

MineResult mine_selfplay(const MineOptions& options) {
    const auto t0 = std::chrono::steady_clock::now();
    std::mutex mutex;
    std::map<std::uint64_t, GameOut> done;
    std::uint64_t next = 0;
    std::optional<std::uint64_t> cutoff;  // the game at which the target was reached
    bool out_of_time         = false;
    const std::string prefix = "selfplay:" + std::to_string(options.seed) + ":";

    // The puzzles of games 0, 1, ... as long as they are all done, without repeats.
    const auto prefix_count = [&]() -> std::optional<std::uint64_t> {
        std::set<std::string> ids;
        for (std::uint64_t g = 0;; ++g) {
            const auto it = done.find(g);
            if (it == done.end()) {
                return std::nullopt;
            }
            for (const auto& p : it->second.puzzles) {
                ids.insert(p.id);
            }
            if (ids.size() >= options.target) {
                return g;
            }
        }
    };

    const auto work = [&] {
        Prover prover(options.proof);
        for (;;) {
            std::uint64_t index = 0;
            {
                std::lock_guard lock(mutex);
                if ((cutoff && next > *cutoff) || next >= options.max_games) {
                    return;
                }
                if (options.max_seconds > 0 &&
                    std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() >
                        options.max_seconds) {
                    out_of_time = true;
                    return;
                }
                index = next++;
            }
            const auto g0   = std::chrono::steady_clock::now();
            const auto game = selfplay_game(options.variant, options.seed, index);
            const auto play = std::chrono::duration<double>(std::chrono::steady_clock::now() - g0);
            const auto before = prover.stats();
            GameOut out;
            out.puzzles = prover.mine_game(game, prefix + std::to_string(index));
            out.stats   = prover.stats();
            // This game's share of the prover's running figures.
            MineStats delta;
            delta.games             = out.stats.games - before.games;
            delta.positions         = out.stats.positions - before.positions;
            delta.candidates        = out.stats.candidates - before.candidates;
            delta.no_material_proof = out.stats.no_material_proof - before.no_material_proof;
            delta.engine_disagrees  = out.stats.engine_disagrees - before.engine_disagrees;
            delta.small_margin      = out.stats.small_margin - before.small_margin;
            delta.later_not_unique  = out.stats.later_not_unique - before.later_not_unique;
            delta.proven            = out.stats.proven - before.proven;
            delta.engine_nodes      = out.stats.engine_nodes - before.engine_nodes;
            delta.material_nodes    = out.stats.material_nodes - before.material_nodes;
            delta.seconds           = out.stats.seconds - before.seconds + play.count();
            out.stats               = delta;
            std::lock_guard lock(mutex);
            done[index] = std::move(out);
            if (!cutoff) {
                cutoff = prefix_count();
            }
            if (options.log && (index + 1) % 10 == 0) {
                std::size_t n = 0;
                for (const auto& [i, o] : done) {
                    n += o.puzzles.size();
                }
                options.log(std::string(core::rules(options.variant).key) + ": " +
                            std::to_string(done.size()) + " games, " + std::to_string(n) +
                            " puzzles");
            }
        }
    };
    std::vector<std::thread> threads;
    for (int i = 1; i < std::max(1, options.threads); ++i) {
        threads.emplace_back(work);
    }
    work();
    for (auto& t : threads) {
        t.join();
    }

    MineResult result;
    std::set<std::string> ids;
    const std::uint64_t last = cutoff ? *cutoff : (done.empty() ? 0 : done.rbegin()->first);
    for (auto& [index, out] : done) {
        if (index > last) {
            break;
        }
        result.stats += out.stats;
        for (auto& p : out.puzzles) {
            if (ids.insert(p.id).second) {
                result.puzzles.push_back(std::move(p));
            } else {
                ++result.stats.duplicates;
            }
        }
    }
    result.stats.kept  = result.puzzles.size();
    result.out_of_time = out_of_time && !cutoff;
    result.wall_seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return result;
}

}  // namespace papan::server
