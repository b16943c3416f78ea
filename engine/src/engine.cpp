// The Engine facade: levels, time planning and the search state kept between searches.
#include "search.hpp"

#include <papan/engine/egdb.hpp>
#include <papan/engine/engine.hpp>
#include <papan/engine/time_plan.hpp>

#include <algorithm>
#include <atomic>
#include <cstdint>

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

// Numbers a search for as long as it runs: search n takes the phase from 2(n - 1) to 2n - 1 and,
// when it returns (also by an exception), to 2n. A stop asked for it, before it started or while
// it runs, is seen by its next poll.
class SearchNumber {
public:
    explicit SearchNumber(detail::SearchState& state) noexcept : phase_(state.phase) {
        state.search_id = (phase_.fetch_add(1) + 2) / 2;
    }

    ~SearchNumber() { phase_.fetch_add(1); }

    SearchNumber(const SearchNumber&)            = delete;
    SearchNumber& operator=(const SearchNumber&) = delete;

private:
    std::atomic<std::uint64_t>& phase_;
};

}  // namespace

struct Engine::Impl {
    explicit Impl(const EngineOptions& o) : options(o), state(o.hash_mb) {
        if (!o.egdb_dir.empty()) {
            (void)egdb::shared_database(o.egdb_dir);  // opened (and reported) once per process
        }
    }

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

void Engine::set_threads(int threads) noexcept {
    impl_->options.threads = std::clamp(threads, 1, kMaxThreads);
}

std::uint64_t Engine::next_search_id() const noexcept {
    // Idle after search k (phase 2k): k + 1; while search n runs (phase 2n - 1): n + 1.
    return (impl_->state.phase.load() + 1) / 2 + 1;
}

void Engine::stop(std::uint64_t id) noexcept {
    auto& up_to        = impl_->state.stop_up_to;
    std::uint64_t seen = up_to.load();
    while (seen < id && !up_to.compare_exchange_weak(seen, id)) {
    }
}

void Engine::stop() noexcept {
    // The running search n (phase 2n - 1), or the next one, k + 1, when idle after k (phase 2k).
    stop(impl_->state.phase.load() / 2 + 1);
}

SearchResult Engine::search(const core::Game& game,
                            const SearchLimits& limits,
                            Level level,
                            const InfoCallback& on_info) {
    return search_excluding(game, {}, limits, level, on_info);
}

SearchResult Engine::search_excluding(const core::Game& game,
                                      std::span<const core::Move> excluded,
                                      const SearchLimits& limits,
                                      Level level,
                                      const InfoCallback& on_info) {
    const SearchNumber number(impl_->state);
    detail::SearchParams params;
    params.excluded.assign(excluded.begin(), excluded.end());
    params.limits   = limits;
    params.handicap = handicap(level);
    params.seed     = impl_->options.seed;
    params.threads  = level == Level::Max ? std::clamp(impl_->options.threads, 1, kMaxThreads) : 1;
    params.on_info  = on_info;
    params.weights  = impl_->options.weights && impl_->options.weights->variant() == game.variant()
                          ? impl_->options.weights.get()
                          : &EvalWeights::builtin(game.variant());
    // The weaker levels play endgames by their own search (their mistakes are the point). The
    // directory's shared database is taken at each search, so that tables built while the
    // engine lives (egdb::BackgroundBuild) are used from the next search on.
    std::shared_ptr<const egdb::Database> tables;
    if ((level == Level::Hard || level == Level::Max) && !impl_->options.egdb_dir.empty()) {
        tables      = egdb::shared_database(impl_->options.egdb_dir);
        params.egdb = tables.get();
    }
    const TimePlan plan = plan_time(limits);
    params.soft_time    = plan.soft;
    params.hard_time    = plan.hard;
    if (game.is_over()) {
        return {};
    }
    return detail::run_search(game, params, impl_->state);
}

}  // namespace papan::engine
