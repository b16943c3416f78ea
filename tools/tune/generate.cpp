#include "generate.hpp"

#include <papan/core/game.hpp>
#include <papan/core/movegen.hpp>

#include <algorithm>
#include <atomic>
#include <mutex>
#include <thread>
#include <unordered_set>
#include <vector>

namespace papan::tune {

namespace {

std::uint64_t splitmix(std::uint64_t& x) noexcept {
    x += 0x9e3779b97f4a7c15ULL;
    std::uint64_t z = x;
    z               = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z               = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

struct GameRecord {
    std::vector<Sample> samples;
    Result result       = Result::Draw;
    bool capped         = false;
    std::uint64_t plies = 0;
    std::uint64_t nodes = 0;
};

// The random stream of one game: seed and game index mixed apart (a plain sum would make game
// g + 1's stream game g's shifted by one draw).
std::uint64_t game_stream(std::uint64_t seed, std::uint32_t game) noexcept {
    std::uint64_t a = seed;
    std::uint64_t b = std::uint64_t{game} ^ 0x5851F42D4C957F2DULL;
    return splitmix(a) ^ (splitmix(b) * 0x2545F4914F6CDD1DULL);
}

// Random legal moves from the start; drawn again until the game is still going after them.
core::Game opening(const GenerateOptions& o, std::uint64_t& x) {
    const auto span = static_cast<std::uint64_t>(o.opening_max_plies - o.opening_min_plies + 1);
    for (;;) {
        core::Game g(o.variant);
        const int plies = o.opening_min_plies + static_cast<int>(splitmix(x) % span);
        for (int p = 0; p < plies && !g.is_over(); ++p) {
            const auto& legal = g.legal_moves();
            (void)g.play(legal[static_cast<std::size_t>(splitmix(x) % legal.size())]);
        }
        if (!g.is_over()) {
            return g;
        }
    }
}

GameRecord play_game(const GenerateOptions& o, std::uint32_t game, engine::Engine& eng) {
    GameRecord rec;
    eng.new_game();
    std::uint64_t x = game_stream(o.seed, game);
    core::Game g    = opening(o, x);
    std::unordered_set<std::uint64_t> seen;
    while (!g.is_over() && g.ply() < o.max_plies) {
        // A budget drawn per move (nodes x 0.75 .. 1.25): the same opening then still gives
        // different games (the search is deterministic for a budget).
        engine::SearchLimits limits;
        const std::uint64_t spread = o.nodes / 2 + 1;
        limits.nodes = std::max<std::uint64_t>(1, o.nodes - o.nodes / 4 + splitmix(x) % spread);
        const auto r = eng.search(g, limits, engine::Level::Hard);
        rec.nodes += r.nodes;
        const core::Position& pos = g.position();
        if (is_quiet(pos, g.legal_moves()) && seen.insert(pos.key()).second) {
            Sample s;
            s.position = pos;
            s.game     = game;
            s.score    = static_cast<std::int16_t>(std::clamp(r.score, -32000, 32000));
            s.ply      = static_cast<std::uint16_t>(g.ply());
            rec.samples.push_back(s);
        }
        if (!r.best || !g.play(*r.best).ok()) {
            break;  // cannot happen: the engine returns a legal move while the game goes on
        }
    }
    rec.plies  = static_cast<std::uint64_t>(g.ply());
    rec.capped = !g.is_over();
    if (const auto w = core::winner(g.result().outcome); w && !rec.capped) {
        rec.result = *w == core::Color::White ? Result::WhiteWin : Result::BlackWin;
    }
    for (Sample& s : rec.samples) {
        s.result = rec.result;
    }
    return rec;
}

}  // namespace

bool is_quiet(const core::Position& pos, const core::MoveList& legal) {
    for (const core::Move& m : legal) {
        if (m.is_capture() || m.promotes) {
            return false;
        }
    }
    core::Position other = pos;
    other.side           = core::opposite(pos.side);
    return !core::has_capture(other);
}

SampleSet generate(const GenerateOptions& o, GenerateStats& stats, const Progress& progress) {
    std::vector<GameRecord> records(o.games);
    std::atomic<std::uint32_t> next{0};
    std::atomic<std::uint32_t> done{0};
    std::mutex mu;
    GenerateStats running;
    const auto worker = [&] {
        engine::EngineOptions eo;
        eo.hash_mb = o.hash_mb;
        eo.weights = o.weights;
        engine::Engine eng(eo);
        for (;;) {
            const std::uint32_t i = next.fetch_add(1);
            if (i >= o.games) {
                return;
            }
            records[i]     = play_game(o, o.first_game + i, eng);
            const auto& r  = records[i];
            const auto now = done.fetch_add(1) + 1;
            if (progress) {
                const std::lock_guard lock(mu);
                ++running.games;
                running.plies += r.plies;
                running.nodes += r.nodes;
                progress(now, running);
            }
        }
    };
    std::vector<std::thread> pool;
    for (int t = 1; t < std::max(1, o.threads); ++t) {
        pool.emplace_back(worker);
    }
    worker();
    for (auto& th : pool) {
        th.join();
    }

    SampleSet set;
    set.variant = o.variant;
    stats       = {};
    for (const GameRecord& r : records) {
        ++stats.games;
        stats.plies += r.plies;
        stats.nodes += r.nodes;
        stats.capped += r.capped ? 1U : 0U;
        switch (r.result) {
        case Result::WhiteWin:
            ++stats.white_wins;
            break;
        case Result::BlackWin:
            ++stats.black_wins;
            break;
        case Result::Draw:
            ++stats.draws;
            break;
        }
        set.samples.insert(set.samples.end(), r.samples.begin(), r.samples.end());
    }
    return set;
}

}  // namespace papan::tune
