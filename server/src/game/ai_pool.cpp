#include "game/ai_pool.hpp"

#include "support/log.hpp"

#include <papan/core/movegen.hpp>
#if PAPAN_SERVER_HAVE_ENGINE
#include <papan/engine/egdb.hpp>
#include <papan/engine/engine.hpp>
#endif

#include <boost/asio/post.hpp>

#include <algorithm>
#include <memory>
#include <mutex>
#include <random>
#include <vector>

namespace papan::server {

// Transport-level bookkeeping of the worker threads' engines (not game state): stop() must
// reach a search running on another thread.
struct AiPool::Engines {
    std::mutex mutex;
#if PAPAN_SERVER_HAVE_ENGINE
    std::vector<std::unique_ptr<engine::Engine>> all;
#endif
    bool stopped = false;
};

AiPool::AiPool(int threads,
               std::size_t max_pending,
               std::uint64_t max_nodes,
               std::uint64_t seed,
               std::string egdb_dir)
    : engines_(std::make_unique<Engines>())
    , pool_(static_cast<std::size_t>(std::max(1, threads)))
    , max_pending_(max_pending)
    , max_nodes_(max_nodes)
    , seed_(seed)
    , egdb_dir_(std::move(egdb_dir)) {
#if PAPAN_SERVER_HAVE_ENGINE
    if (!egdb_dir_.empty()) {
        engine::egdb::OpenReport report;
        (void)engine::egdb::shared_database(egdb_dir_, &report);
        log_line("ai", report.summary);
        for (const auto& p : report.problems) {
            log_line("ai", p);
        }
    }
#endif
}

AiPool::~AiPool() {
    stop();
}

void AiPool::stop() {
    {
        std::lock_guard lock(engines_->mutex);
        engines_->stopped = true;
#if PAPAN_SERVER_HAVE_ENGINE
        for (auto& e : engines_->all) {
            e->stop();
        }
#endif
    }
    pool_.stop();
    pool_.join();
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

namespace {

#if PAPAN_SERVER_HAVE_ENGINE
engine::SearchLimits limits_for(const std::string& level, std::uint64_t max_nodes) {
    engine::SearchLimits l;
    if (level == "easy") {
        l.nodes     = 5'000;
        l.move_time = 0.5;
    } else if (level == "hard") {
        l.nodes     = 2'000'000;
        l.move_time = 3.0;
    } else {
        l.nodes     = 100'000;
        l.move_time = 1.0;
    }
    if (max_nodes > 0) {
        l.nodes = std::min(l.nodes, max_nodes);
    }
    return l;
}

engine::Level level_of(const std::string& level) {
    return engine::level_from_string(level).value_or(engine::Level::Normal);
}
#endif

}  // namespace

void AiPool::think(core::Game game, std::string level, Done done) {
    if (pending_.load() >= max_pending_) {
        log_line("ai", "queue full: answering with the quick player");
        done(quick_move(game, seed_));
        return;
    }
    ++pending_;
    boost::asio::post(
        pool_, [this, game = std::move(game), level = std::move(level), done = std::move(done)] {
            std::optional<core::Move> move;
            try {
#if PAPAN_SERVER_HAVE_ENGINE
                thread_local engine::Engine* eng = nullptr;
                if (eng == nullptr) {
                    engine::EngineOptions o;
                    o.hash_mb  = 16;
                    o.seed     = seed_;
                    o.egdb_dir = egdb_dir_;
                    std::lock_guard lock(engines_->mutex);
                    engines_->all.push_back(std::make_unique<engine::Engine>(o));
                    eng = engines_->all.back().get();
                }
                bool stopped = false;
                {
                    std::lock_guard lock(engines_->mutex);
                    stopped = engines_->stopped;
                }
                if (!game.is_over() && !stopped) {
                    const auto r =
                        eng->search(game, limits_for(level, max_nodes_), level_of(level));
                    move = r.best;
                }
#else
                (void)max_nodes_;
                (void)level;
                move = quick_move(game, seed_);
#endif
            } catch (const std::exception& e) {
                log_line("ai", std::string("search failed: ") + e.what());
            }
            if (!move && !game.is_over()) {
                move = quick_move(game, seed_);
            }
            --pending_;
            done(move);
        });
}

}  // namespace papan::server
