#include "game/ai_pool.hpp"

#include "support/log.hpp"

#include <papan/core/movegen.hpp>
#include <papan/engine/egdb.hpp>
#include <papan/engine/engine.hpp>

#include <algorithm>
#include <random>

namespace papan::server {

// The workers' engines, so stop() can end their searches from another thread.
struct AiPool::Engines {
    std::mutex mutex;
    std::vector<engine::Engine*> running;
};

engine::SearchLimits ai_limits(const AiRequest& r, const AiSettings& s) {
    engine::SearchLimits l;
    if (r.level == engine::Level::Easy) {
        l.nodes     = 5'000;
        l.move_time = 0.5;
    } else if (r.level == engine::Level::Hard) {
        if (r.clocked && r.time_left >= 0) {
            l.time_left = r.time_left;
            l.increment = r.increment;
            l.byo_yomi  = r.byo_yomi;
            l.periods   = r.periods;
        } else {
            l.move_time = s.hard_move_time;
        }
    } else {
        l.nodes     = 100'000;
        l.move_time = 1.0;
    }
    if (s.max_nodes > 0) {
        l.nodes = l.nodes == 0 ? s.max_nodes : std::min(l.nodes, s.max_nodes);
    }
    return l;
}

AiPool::AiPool(AiSettings settings) : settings_(settings), engines_(std::make_unique<Engines>()) {
    const int n = std::max(1, settings_.threads);
    if (!settings_.egdb_dir.empty()) {
        engine::egdb::OpenReport report;
        (void)engine::egdb::shared_database(settings_.egdb_dir, &report);
        log_line("ai", report.summary);
        for (const auto& p : report.problems) {
            log_line("ai", p);
        }
    }
    for (int i = 0; i < n; ++i) {
        threads_.emplace_back([this] { worker(); });
    }
}

AiPool::~AiPool() {
    stop();
}

void AiPool::stop() {
    {
        std::lock_guard lock(mutex_);
        if (stopped_) {
            return;
        }
        stopped_ = true;
        clocked_.clear();
        untimed_.clear();
    }
    {
        std::lock_guard lock(engines_->mutex);
        for (auto* e : engines_->running) {
            e->stop();
        }
    }
    wake_.notify_all();
    for (auto& t : threads_) {
        if (t.joinable()) {
            t.join();
        }
    }
}

void AiPool::count_fallback() {
    const auto n = ++fallbacks_;
    log_line("ai",
             "the quick player answered instead of the engine (" + std::to_string(n) +
                 " times since start)");
}

std::size_t AiPool::pending() const {
    std::lock_guard lock(mutex_);
    return clocked_.size() + untimed_.size();
}

void AiPool::think(AiRequest request, Done done) {
    if (offload_ != nullptr && !request.game.is_over()) {
        const auto limits = ai_limits(request, settings_);
        auto here         = [this, request, done]() mutable {
            think_here(std::move(request), std::move(done));
        };
        if (offload_->offer(request, limits, done, std::move(here))) {
            return;
        }
    }
    think_here(std::move(request), std::move(done));
}

void AiPool::think_here(AiRequest request, Done done) {
    {
        std::lock_guard lock(mutex_);
        if (!stopped_ && clocked_.size() + untimed_.size() < settings_.max_pending) {
            auto& queue = request.clocked ? clocked_ : untimed_;
            queue.push_back(Job{std::move(request), std::move(done)});
            wake_.notify_one();
            return;
        }
    }
    log_line("ai", "queue full (" + std::to_string(settings_.max_pending) + " searches waiting)");
    count_fallback();
    done(quick_move(request.game, settings_.seed));
}

void AiPool::worker() {
    engine::EngineOptions o;
    o.hash_mb  = 16;
    o.seed     = settings_.seed;
    o.egdb_dir = settings_.egdb_dir;
    engine::Engine eng(o);
    {
        std::lock_guard lock(engines_->mutex);
        engines_->running.push_back(&eng);
    }
    for (;;) {
        std::optional<Job> next;
        {
            std::unique_lock lock(mutex_);
            wake_.wait(lock, [this] { return stopped_ || !clocked_.empty() || !untimed_.empty(); });
            if (stopped_) {
                break;
            }
            auto& queue = clocked_.empty() ? untimed_ : clocked_;
            next.emplace(std::move(queue.front()));
            queue.pop_front();
        }
        Job& job = *next;
        std::optional<core::Move> move;
        try {
            if (!job.request.game.is_over()) {
                move = eng.search(job.request.game,
                                  ai_limits(job.request, settings_),
                                  job.request.level)
                           .best;
            }
        } catch (const std::exception& e) {
            log_line("ai", std::string("search failed: ") + e.what());
        }
        if (!move && !job.request.game.is_over()) {
            count_fallback();
            move = quick_move(job.request.game, settings_.seed);
        }
        job.done(move);
    }
    std::lock_guard lock(engines_->mutex);
    std::erase(engines_->running, &eng);
}

std::optional<core::Move> quick_move(const core::Game& game, std::uint64_t seed) {
    const auto& legal = game.legal_moves();
    if (legal.empty()) {
        return std::nullopt;
    }
    std::mt19937_64 rng(seed ^
                        static_cast<std::uint64_t>(game.ply()) * std::uint64_t{0x9E3779B97F4A7C15} ^
                        game.position().key());
    std::vector<std::pair<int, std::size_t>> scored;
    for (std::size_t i = 0; i < legal.size(); ++i) {
        const auto& m    = legal[i];
        int score        = m.capture_count() * 100 + (m.promotes ? 50 : 0);
        const auto after = core::make_move(game.position(), m);
        if (core::has_capture(after)) {
            score -= 60;  // the opponent can take something at once
        }
        scored.emplace_back(score, i);
    }
    std::shuffle(scored.begin(), scored.end(), rng);
    const auto best =
        std::max_element(scored.begin(), scored.end(), [](const auto& a, const auto& b) {
            return a.first < b.first;
        });
    return legal[best->second];
}

}  // namespace papan::server
