// The prover (puzzle_miner.hpp): the quick filter, the material proof, the engine's proof, the
// line and the wrong moves' answers.
#include "puzzles/material.hpp"

#include <papan/core/movegen.hpp>
#include <papan/core/notation/fen.hpp>
#include <papan/core/notation/move_text.hpp>
#include <papan/engine/engine.hpp>
#include <papan/server/puzzle_miner.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>

namespace papan::server {

using puzzles::kMaterialLoss;
using puzzles::MaterialSearch;

MineStats& MineStats::operator+=(const MineStats& o) {
    games += o.games;
    positions += o.positions;
    candidates += o.candidates;
    no_material_proof += o.no_material_proof;
    engine_disagrees += o.engine_disagrees;
    small_margin += o.small_margin;
    later_not_unique += o.later_not_unique;
    duplicates += o.duplicates;
    proven += o.proven;
    kept += o.kept;
    engine_nodes += o.engine_nodes;
    material_nodes += o.material_nodes;
    seconds += o.seconds;
    return *this;
}

struct Prover::Impl {
    explicit Impl(const ProofSettings& s)
        : engine(engine::EngineOptions{.hash_mb = s.hash_mb, .seed = 0, .egdb_dir = {}}) {}

    engine::Engine engine;
    MaterialSearch material;
    std::atomic<bool> stopping{false};
};

namespace {

// The outcome of the search for the key at one horizon.
struct KeyAtHorizon {
    std::optional<core::Move> key;
    int value   = kMaterialLoss - 1;
    bool unique = false;
};

core::MoveList legal_moves(const core::Position& p) {
    core::MoveList moves;
    core::generate_moves(p, moves);
    return moves;
}

// The move with the most material within `depth` plies (the engine's choice tried first) and
// whether no other move reaches as much.
KeyAtHorizon key_at(MaterialSearch& ms,
                    const core::Position& p,
                    const core::MoveList& moves,
                    const core::Move& first,
                    int depth) {
    KeyAtHorizon out;
    out.key   = first;
    out.value = ms.after(p, first, depth);
    for (const auto& m : moves) {
        if (!m.same_as(*out.key) && ms.reaches(p, m, depth, out.value + 1)) {
            out.key   = m;
            out.value = ms.after(p, m, depth);
        }
    }
    out.unique = std::none_of(moves.begin(), moves.end(), [&](const core::Move& m) {
        return !m.same_as(*out.key) && ms.reaches(p, m, depth, out.value);
    });
    return out;
}

engine::SearchLimits depth_limit(int depth) {
    engine::SearchLimits l;
    l.depth = depth;
    return l;
}

}  // namespace

Prover::Prover(ProofSettings settings)
    : impl_(std::make_unique<Impl>(settings))
    , settings_(settings) {}

Prover::~Prover() = default;

void Prover::stop() noexcept {
    impl_->stopping = true;
    impl_->engine.stop();
}

std::optional<Puzzle> Prover::prove(const core::Position& pos, const std::string& source) {
    const auto started = std::chrono::steady_clock::now();

    struct Timer {
        MineStats& stats;
        MaterialSearch& ms;
        std::uint64_t nodes_before;
        std::chrono::steady_clock::time_point t0;

        ~Timer() {
            stats.material_nodes += ms.nodes() - nodes_before;
            stats.seconds +=
                std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        }
    } timer{stats_, impl_->material, impl_->material.nodes(), started};

    if (impl_->stopping) {
        return std::nullopt;
    }
    const auto moves = legal_moves(pos);
    if (moves.size() < 2) {
        return std::nullopt;
    }
    MaterialSearch& ms = impl_->material;
    const int baseline = ms.exact(pos, 0);
    if (std::abs(baseline) > settings_.max_imbalance) {
        return std::nullopt;
    }
    ++stats_.positions;
    const core::Game game(pos);
    engine::Engine& eng = impl_->engine;
    eng.new_game();
    const auto quick = eng.search(game, depth_limit(settings_.filter_depth));
    stats_.engine_nodes += quick.nodes;
    if (impl_->stopping || !quick.best || quick.score < baseline + settings_.filter_gain) {
        return std::nullopt;
    }
    // ... and only one move does: the others stay half the margin lower already.
    const core::Move quick_key[] = {*quick.best};
    const auto quick_second =
        eng.search_excluding(game, quick_key, depth_limit(settings_.filter_depth));
    stats_.engine_nodes += quick_second.nodes;
    if (impl_->stopping || quick.score - quick_second.score < settings_.margin / 2) {
        return std::nullopt;
    }
    ++stats_.candidates;

    // 2. The engine's proof: its best move is the key candidate, every other first move at
    // least the margin lower.
    eng.new_game();
    const auto best = eng.search(game, depth_limit(settings_.depth));
    stats_.engine_nodes += best.nodes;
    if (impl_->stopping || !best.best) {
        return std::nullopt;
    }
    const core::Move first      = *best.best;
    const core::Move excluded[] = {first};
    const auto second = eng.search_excluding(game, excluded, depth_limit(settings_.depth));
    stats_.engine_nodes += second.nodes;
    if (impl_->stopping) {
        return std::nullopt;
    }
    if (best.score - second.score < settings_.margin) {
        ++stats_.small_margin;
        return std::nullopt;
    }

    // 3. The material proof: the smallest horizon within which the key forces a gain no other
    // first move forces.
    int horizon    = 0;
    int proven     = kMaterialLoss - 1;
    bool elsewhere = false;  // another first move forces the most material
    for (int k = 1; k <= settings_.max_horizon && !impl_->stopping; ++k) {
        const KeyAtHorizon at = key_at(ms, pos, moves, first, k);
        if (at.value >= baseline + settings_.min_gain && at.unique && at.key->same_as(first)) {
            horizon = k;
            proven  = at.value;
            break;
        }
        elsewhere =
            elsewhere || (at.value >= baseline + settings_.min_gain && !at.key->same_as(first));
    }
    if (horizon == 0) {
        ++(elsewhere ? stats_.engine_disagrees : stats_.no_material_proof);
        return std::nullopt;
    }

    // 4. The line. `remaining`: plies left of the horizon at the node.
    std::vector<core::Move> line;
    std::vector<WrongMove> wrong;
    core::Position at    = pos;
    int remaining        = horizon;
    int alternative_best = kMaterialLoss - 1;
    const int floor = baseline - 10 * puzzles::kManValue;  // wrong moves' values below: a bound
    for (;;) {
        const auto here = legal_moves(at);
        if (here.empty() || (remaining <= 0 && !here[0].is_capture())) {
            break;
        }
        const bool solver = at.side == pos.side;
        core::Move chosen{};
        if (solver) {
            const int step = static_cast<int>(line.size());
            if (step == 0) {
                chosen = first;
            } else {
                // Again the only move reaching the proven material, and the engine's choice.
                std::optional<core::Move> only;
                int reaching = 0;
                for (const auto& m : here) {
                    if (ms.reaches(at, m, remaining, proven)) {
                        ++reaching;
                        only = m;
                    }
                }
                if (reaching != 1) {
                    ++stats_.later_not_unique;
                    return std::nullopt;
                }
                chosen = *only;
                if (here.size() > 1) {
                    const core::Game g(at);
                    eng.new_game();
                    const auto r = eng.search(g, depth_limit(settings_.depth));
                    stats_.engine_nodes += r.nodes;
                    if (!r.best || !r.best->same_as(chosen)) {
                        ++stats_.later_not_unique;
                        return std::nullopt;
                    }
                    const core::Move ex[] = {chosen};
                    const auto r2 = eng.search_excluding(g, ex, depth_limit(settings_.depth));
                    stats_.engine_nodes += r2.nodes;
                    if (r.score - r2.score < settings_.margin) {
                        ++stats_.later_not_unique;
                        return std::nullopt;
                    }
                }
            }
            // What each other move would keep, and the engine's answer to it.
            for (const auto& m : here) {
                if (m.same_as(chosen)) {
                    continue;
                }
                const core::Position after = core::make_move(at, m);
                const int v                = -ms.value(after, remaining - 1, -proven, -floor);
                if (step == 0) {
                    alternative_best = std::max(alternative_best, v);
                }
                WrongMove w;
                w.step  = step;
                w.move  = core::move_text(at, m, here);
                w.value = std::max(v, floor) - baseline;
                const core::Game g(after);
                if (!g.is_over()) {
                    eng.new_game();
                    const auto r = eng.search(g, depth_limit(std::max(4, settings_.depth - 4)));
                    stats_.engine_nodes += r.nodes;
                    if (r.best) {
                        w.reply    = core::move_text(after, *r.best);
                        w.captured = r.best->capture_count();
                        w.crowns   = r.best->promotes;
                    }
                }
                wrong.push_back(std::move(w));
            }
        } else {
            // The replies that hold the solver to the proven material; the engine picks among
            // them when there are several.
            std::vector<core::Move> holding;
            std::vector<core::Move> others;
            for (const auto& m : here) {
                (ms.reaches(at, m, remaining, -proven) ? holding : others).push_back(m);
            }
            if (holding.empty()) {
                return std::nullopt;  // cannot happen: the proof's value would be higher
            }
            chosen = holding.front();
            if (holding.size() > 1) {
                const core::Game g(at);
                eng.new_game();
                const auto r = eng.search_excluding(g, others, depth_limit(settings_.depth));
                stats_.engine_nodes += r.nodes;
                if (r.best) {
                    chosen = *r.best;
                }
            }
        }
        line.push_back(chosen);
        at = core::make_move(at, chosen);
        --remaining;
    }
    if (impl_->stopping) {
        return std::nullopt;  // a search of the line may have been cut short
    }
    while (!line.empty() && line.size() % 2 == 0) {
        line.pop_back();  // the line ends with the solver's move
    }
    if (line.empty()) {
        return std::nullopt;
    }

    Puzzle p;
    p.variant           = pos.variant;
    p.fen               = core::to_fen(pos);
    p.id                = puzzle_id(p.variant, p.fen);
    core::Position walk = pos;
    for (const auto& m : line) {
        p.solution.push_back(core::move_text(walk, m));
        walk = core::make_move(walk, m);
    }
    std::erase_if(wrong,
                  [&](const WrongMove& w) { return w.step >= static_cast<int>(line.size()); });
    p.themes = puzzle_themes(pos, line, horizon, proven);
    p.source = source;
    p.proof  = PuzzleProof{settings_.depth,
                          best.score,
                          second.score,
                          best.nodes + second.nodes,
                          horizon,
                          baseline,
                          proven,
                          std::max(alternative_best, floor)};
    p.wrong  = std::move(wrong);
    p.rating = puzzle_start_rating(p);
    ++stats_.proven;
    return p;
}

std::vector<Puzzle>
Prover::mine_game(const core::Game& game, const std::string& source, int first_ply) {
    std::vector<Puzzle> out;
    ++stats_.games;
    const auto positions = game.positions();
    int skip             = -1;  // the same side's next position after a kept one
    for (int ply = std::max(0, first_ply); ply < static_cast<int>(positions.size()); ++ply) {
        if (impl_->stopping) {
            break;
        }
        if (ply == skip) {
            continue;
        }
        auto p =
            prove(positions[static_cast<std::size_t>(ply)], source + ":" + std::to_string(ply));
        if (p) {
            out.push_back(std::move(*p));
            skip = ply + 2;
        }
    }
    return out;
}

}  // namespace papan::server
