// The Engine facade: levels, time planning and the search state kept between searches.
#include "search.hpp"

#include <papan/engine/engine.hpp>

#include <algorithm>

namespace papan::engine {

namespace {

// What each level gives up (docs/engine.md, "Levels").
detail::Handicap handicap(Level level) noexcept {
    switch (level) {
    case Level::Easy:
        // Two plies, capture sequences followed two plies only, noisy scores, a soft choice:
        // it sees direct threats but misses longer shots, and picks near-best moves.
        return {.max_depth = 2, .qsearch_plies = 2, .noise = 40, .temperature = 30};
    case Level::Normal:
        // "Three moves ahead": four plies with every capture sequence resolved.
        return {.max_depth = 4, .qsearch_plies = 0, .noise = 8, .temperature = 6};
    case Level::Hard:
    case Level::Max:
        return {};
    }
    return {};
}

// Soft deadline (no new iteration past about half of it) and hard deadline (abort), seconds.
void plan_time(const SearchLimits& l, double& soft, double& hard) noexcept {
    soft = 0;
    hard = 0;
    if (l.infinite) {
        return;
    }
    if (l.move_time > 0) {
        soft = l.move_time;
        hard = std::max(0.001, l.move_time * 0.95 - 0.005);
        return;
    }
    if (l.time_left < 0) {
        return;
    }
    const double byo   = (l.byo_yomi > 0 && l.periods > 0) ? l.byo_yomi : 0.0;
    const double avail = std::max(0.0, l.time_left - 0.05);  // keep a margin for overhead
    if (avail < 0.02) {
        // Main time is gone: play within the byo-yomi period (or as fast as possible).
        soft = byo > 0 ? byo * 0.5 : 0.01;
        hard = byo > 0 ? byo * 0.85 : 0.02;
        return;
    }
    const double mtg    = l.moves_to_go > 0 ? static_cast<double>(l.moves_to_go) : 30.0;
    const double target = avail / mtg + (byo > 0 ? byo * 0.7 : l.increment * 0.75);
    soft                = target;
    const double cap    = (l.moves_to_go == 1 ? avail * 0.9 : avail * 0.4) + byo * 0.85;
    hard                = std::max(0.005, std::min(target * 4.0, cap));
    soft                = std::min(soft, hard);
}

}  // namespace

struct Engine::Impl {
    explicit Impl(const EngineOptions& o) : options(o), state(o.hash_mb) {}

    EngineOptions options;
    detail::SearchState state;
};

Engine::Engine(EngineOptions options) : impl_(std::make_unique<Impl>(options)) {}

Engine::~Engine() = default;

void Engine::new_game() {
    impl_->state.tt.clear();
    impl_->state.clear_history();
}

void Engine::set_seed(std::uint64_t seed) noexcept {
    impl_->options.seed = seed;
}

void Engine::stop() noexcept {
    impl_->state.stop.store(true, std::memory_order_relaxed);
}

SearchResult Engine::search(const core::Game& game,
                            const SearchLimits& limits,
                            Level level,
                            const InfoCallback& on_info) {
    impl_->state.stop.store(false, std::memory_order_relaxed);
    detail::SearchParams params;
    params.limits   = limits;
    params.handicap = handicap(level);
    params.seed     = impl_->options.seed;
    params.on_info  = on_info;
    plan_time(limits, params.soft_time, params.hard_time);
    if (game.is_over()) {
        return {};
    }
    return detail::run_search(game, params, impl_->state);
}

}  // namespace papan::engine
