#include "puzzles/service.hpp"

#include "puzzles/play.hpp"
#include "support/log.hpp"

#include <papan/core/game.hpp>
#include <papan/core/notation/fen.hpp>
#include <papan/core/notation/move_text.hpp>
#include <papan/core/rules/registry.hpp>

#include <boost/asio/post.hpp>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <future>
#include <sstream>
#include <sys/resource.h>
#include <unistd.h>

namespace papan::server {

namespace {

constexpr std::string_view kOriginSet  = "set";
constexpr std::string_view kOriginSite = "site";
constexpr std::string_view kMiningName = "games";
constexpr int kMiningBatch             = 8;
constexpr int kCandidates              = 40;  // puzzles read near the target, one drawn

std::optional<Puzzle> parse_row(const PuzzleRow& r) {
    auto p = puzzle_from_json(r.body);
    if (!p) {
        log_line("puzzles", "stored puzzle " + r.id + " does not read: " + p.error());
        return std::nullopt;
    }
    return std::move(p).value();
}

std::optional<ServedPuzzle> served(const std::optional<PuzzleRow>& r) {
    if (!r) {
        return std::nullopt;
    }
    auto p = parse_row(*r);
    if (!p) {
        return std::nullopt;
    }
    return ServedPuzzle{std::move(*p), r->rating, r->plays, r->solved};
}

PuzzleRow row_of(const Puzzle& p, std::string_view origin, std::int64_t now_ms) {
    PuzzleRow r;
    r.id       = p.id;
    r.variant  = std::string(core::rules(p.variant).key);
    r.body     = puzzle_to_json(p);
    r.origin   = std::string(origin);
    r.rating   = {static_cast<double>(p.rating), puzzles::kPuzzleDeviation, 0.06};
    r.added_ms = now_ms;
    return r;
}

// The puzzles of the shipped set's files (DIR/<variant key>.jsonl); a file that does not read is
// logged and left out.
std::vector<Puzzle> read_set(const std::filesystem::path& dir, std::string& report) {
    std::vector<Puzzle> out;
    int files = 0;
    for (const auto& r : core::all_variants()) {
        const auto path = dir / (std::string(r.key) + ".jsonl");
        std::ifstream f(path, std::ios::binary);
        if (!f) {
            continue;
        }
        std::stringstream buf;
        buf << f.rdbuf();
        auto set = read_puzzle_set(buf.str());
        if (!set) {
            log_line("puzzles", path.string() + ": " + set.error());
            continue;
        }
        ++files;
        for (auto& p : set.value()) {
            if (p.variant == r.id) {
                out.push_back(std::move(p));
            }
        }
    }
    report = std::to_string(out.size()) + " puzzles of " + std::to_string(files) +
             " variants from " + dir.string();
    return out;
}

}  // namespace

PuzzleService::PuzzleService(std::unique_ptr<PuzzleStore> store,
                             const Clock& clock,
                             PuzzleSettings settings)
    : settings_(std::move(settings))
    , store_(std::move(store))
    , clock_(clock)
    , rng_(std::random_device{}())
    , work_(ioc_.get_executor())
    , thread_([this] { ioc_.run(); }) {}

PuzzleService::~PuzzleService() {
    stop();
}

std::string PuzzleService::start() {
    if (settings_.mine) {
        miner_ = std::thread([this] { mine_loop(); });
    }
    return settings_.set_dir.empty() ? "no shipped set found"
                                     : "the shipped set in " + settings_.set_dir.string();
}

void PuzzleService::ensure_set() {
    // On first use, not at start: a server nobody asks for puzzles never reads the files.
    if (set_loaded_) {
        return;
    }
    set_loaded_ = true;
    if (settings_.set_dir.empty()) {
        return;
    }
    std::string report;
    const auto set = read_set(settings_.set_dir, report);
    std::vector<PuzzleRow> rows;
    rows.reserve(set.size());
    const auto now = clock_.now_ms();
    for (const auto& p : set) {
        rows.push_back(row_of(p, kOriginSet, now));
    }
    const int added = store_->add_puzzles(rows);
    log_line("puzzles", report + (added > 0 ? ", " + std::to_string(added) + " new" : ""));
}

void PuzzleService::stop() {
    if (stopped_) {
        return;
    }
    stopped_  = true;
    stopping_ = true;
    if (Prover* p = prover_.load()) {
        p->stop();
    }
    {
        std::lock_guard lock(miner_mutex_);
        miner_woken_ = true;
    }
    miner_wake_.notify_all();
    if (miner_.joinable()) {
        miner_.join();
    }
    work_.reset();
    if (thread_.joinable()) {
        thread_.join();
    }
}

void PuzzleService::post(std::function<void(PuzzleService&)> fn) {
    net::post(ioc_, [this, fn = std::move(fn)] {
        try {
            fn(*this);
        } catch (const std::exception& e) {
            log_line("puzzles", std::string("job failed: ") + e.what());
        }
    });
}

std::optional<ServedPuzzle> PuzzleService::puzzle(const std::string& id) {
    ensure_set();
    return served(store_->puzzle(id));
}

std::optional<ServedPuzzle>
PuzzleService::next(const std::string& variant, double target, const std::string& player_id) {
    ensure_set();
    char from[16];
    std::snprintf(
        from, sizeof from, "p%012llx", static_cast<unsigned long long>(rng_() & 0xFFFFFFFFFFFFULL));
    // Unattempted puzzles in ever wider windows; then, every one near attempted, any at all.
    for (const std::string& who : {player_id, std::string{}}) {
        for (const double w : puzzles::rating_windows()) {
            auto rows =
                store_->puzzles_between(variant, target - w, target + w, who, from, kCandidates);
            if (rows.empty()) {
                rows =
                    store_->puzzles_between(variant, target - w, target + w, who, "", kCandidates);
            }
            if (!rows.empty()) {
                std::uniform_int_distribution<std::size_t> pick(0, rows.size() - 1);
                if (auto s = served(rows[pick(rng_)])) {
                    return s;
                }
            }
        }
        if (player_id.empty()) {
            break;
        }
    }
    return std::nullopt;
}

std::optional<ServedPuzzle> PuzzleService::daily(const std::string& variant,
                                                 const std::string& day) {
    ensure_set();
    auto ids = store_->puzzle_ids(variant, std::string(kOriginSet));
    if (ids.empty()) {
        ids = store_->puzzle_ids(variant, std::string(kOriginSite));
    }
    const auto candidate = puzzles::daily_candidate(ids, variant, day);
    if (candidate.empty()) {
        return std::nullopt;
    }
    return puzzle(store_->daily(variant, day, candidate));
}

PuzzleRatingRow PuzzleService::solver(const std::string& player_id, const std::string& variant) {
    if (auto r = player_id.empty() ? std::nullopt : store_->rating(player_id, variant)) {
        return *r;
    }
    PuzzleRatingRow r;
    r.player_id = player_id;
    r.variant   = variant;
    r.rating    = puzzles::kNewSolver;
    return r;
}

AttemptResult PuzzleService::attempt(const std::string& player_id,
                                     const std::string& puzzle_id,
                                     const std::vector<std::string>& moves,
                                     bool gave_up) {
    ensure_set();
    AttemptResult out;
    const auto record = [&] {
        out            = AttemptResult{};
        const auto row = store_->puzzle(puzzle_id);
        const auto p   = row ? parse_row(*row) : std::nullopt;
        if (!p) {
            return;
        }
        out.found        = true;
        const auto check = puzzles::check_attempt(*p, moves, gave_up);
        if (!check.error.empty()) {
            out.error = check.error;
            return;
        }
        out.solved     = check.solved;
        out.wrong_step = check.wrong_step;
        const std::string variant(core::rules(p->variant).key);
        auto who           = solver(player_id, variant);
        out.before         = who.rating;
        out.after          = who.rating;
        out.puzzle_after   = row->rating;
        out.rated          = !player_id.empty() && !store_->has_rated_attempt(player_id, puzzle_id);
        const double score = out.solved ? 1.0 : 0.0;
        if (out.rated) {
            out.after  = puzzles::glicko_update(who.rating, row->rating, score);
            who.rating = out.after;
            ++who.attempts;
            who.solved += out.solved ? 1 : 0;
            who.updated_ms = clock_.now_ms();
            store_->set_rating(who);
            if (player_id.front() == 'u') {
                out.puzzle_after = puzzles::glicko_update(row->rating, out.before, 1.0 - score);
                store_->update_puzzle(puzzle_id,
                                      out.puzzle_after,
                                      row->plays + 1,
                                      row->solved + (out.solved ? 1 : 0));
            }
        }
        PuzzleAttemptRow a;
        a.player_id = player_id.empty() ? std::string("-") : player_id;
        a.puzzle_id = puzzle_id;
        a.variant   = variant;
        a.solved    = out.solved;
        a.rated     = out.rated;
        a.rating    = static_cast<int>(std::lround(out.after.rating));
        a.delta = static_cast<int>(std::lround(out.after.rating) - std::lround(out.before.rating));
        a.at_ms = clock_.now_ms();
        if (!player_id.empty()) {
            store_->add_attempt(a);
        }
    };
    try {
        store_->transaction(record);
    } catch (const std::exception&) {
        // Another node rated the same attempt at the same moment (the unique index refused the
        // second): once more, now seen as rated already.
        store_->transaction(record);
    }
    return out;
}

int PuzzleService::record_streak(const std::string& player_id,
                                 const std::string& variant,
                                 int length) {
    if (player_id.empty()) {
        return length;
    }
    int best = length;
    store_->transaction([&] {
        auto who = solver(player_id, variant);
        best     = std::max(who.best_streak, length);
        if (best != who.best_streak) {
            who.best_streak = best;
            who.updated_ms  = clock_.now_ms();
            store_->set_rating(who);
        }
    });
    return best;
}

std::vector<PuzzleRatingRow> PuzzleService::ratings_of(const std::string& player_id) {
    return store_->ratings_of(player_id);
}

std::vector<PuzzleAttemptRow> PuzzleService::history(const std::string& player_id, int limit) {
    return store_->attempts_of(player_id, limit);
}

std::vector<std::string> PuzzleService::adopt(const std::string& guest_id,
                                              const std::string& account_id) {
    return store_->move_player(guest_id, account_id);
}

MiningCursor PuzzleService::mining_figures() {
    return store_->mining_cursor(std::string(kMiningName));
}

std::vector<PuzzleService::VariantCount> PuzzleService::counts() {
    ensure_set();
    std::vector<VariantCount> out;
    for (const auto& r : core::all_variants()) {
        const std::string key(r.key);
        out.push_back({key,
                       store_->count_puzzles(key, std::string(kOriginSet)),
                       store_->count_puzzles(key, std::string(kOriginSite))});
    }
    return out;
}

void PuzzleService::wake_miner() {
    {
        std::lock_guard lock(miner_mutex_);
        miner_woken_ = true;
    }
    miner_wake_.notify_all();
}

void PuzzleService::mine_loop() {
    // The lowest nice value (19): the miner thinks on CPU time the games do not want. (Not
    // SCHED_IDLE: on a machine that is never idle that starves it for minutes.)
    if (setpriority(PRIO_PROCESS, static_cast<id_t>(::gettid()), 19) != 0) {
        log_line("puzzles", "the miner could not lower its priority");
    }
    Prover prover(settings_.proof);
    prover_ = &prover;
    if (stopping_) {
        prover.stop();
    }
    while (!stopping_) {
        bool more = false;
        try {
            more = mine_batch(prover);
        } catch (const std::exception& e) {
            log_line("puzzles", std::string("miner: ") + e.what());
        }
        if (!more) {
            std::unique_lock lock(miner_mutex_);
            miner_wake_.wait_for(lock, std::chrono::milliseconds(settings_.mine_idle_ms), [this] {
                return miner_woken_ || stopping_.load();
            });
            miner_woken_ = false;
        }
    }
    prover_ = nullptr;
}

bool PuzzleService::mine_batch(Prover& prover) {
    // Store calls run on the service's thread; the proving runs here.
    const auto on_service = [this](auto fn) {
        using R     = decltype(fn());
        auto task   = std::make_shared<std::packaged_task<R()>>(std::move(fn));
        auto future = task->get_future();
        net::post(ioc_, [task] { (*task)(); });
        return future.get();
    };
    // A batch of finished games, claimed (the cursor moved past them) before they are mined.
    std::vector<FinishedGameRow> games;
    for (;;) {
        const auto cursor =
            on_service([this] { return store_->mining_cursor(std::string(kMiningName)); });
        games = on_service([this, &cursor] {
            return store_->finished_games_after(cursor.at_ms, cursor.id, kMiningBatch);
        });
        if (games.empty()) {
            return false;
        }
        const bool mine = on_service([this, &cursor, &games] {
            return store_->claim_mining(
                std::string(kMiningName), cursor, games.back().updated_ms, games.back().id);
        });
        if (mine) {
            break;
        }
    }
    for (const auto& g : games) {
        if (stopping_) {
            return false;
        }
        std::vector<Puzzle> found;
        const auto before = prover.stats();
        const auto v      = core::variant_from_key(g.variant);
        const auto start  = v ? core::parse_fen(*v, g.start_fen)
                              : core::Expected<core::Position>(core::Error{"unknown variant"});
        if (start && g.forced_capture) {
            core::GameOptions opts;
            opts.draw_rules = static_cast<core::DrawRuleSet>(g.draw_rules);
            auto game       = core::Game::create(*start, opts);
            if (game) {
                for (const auto& text : g.moves) {
                    if (!game.value().play(text)) {
                        break;
                    }
                }
                const bool from_start = g.start_fen == core::rules(*v).start_fen;
                found                 = prover.mine_game(*game, "game:" + g.id, from_start ? 4 : 0);
            }
        }
        if (stopping_) {
            return false;
        }
        const auto positions =
            static_cast<std::int64_t>(prover.stats().positions - before.positions);
        on_service([this, &found, positions] {
            std::vector<PuzzleRow> rows;
            const auto now = clock_.now_ms();
            for (const auto& p : found) {
                rows.push_back(row_of(p, kOriginSite, now));
            }
            store_->transaction([&] {
                const int kept = store_->add_puzzles(rows);
                store_->add_mining_figures(std::string(kMiningName), 1, positions, kept);
            });
            return 0;
        });
    }
    return static_cast<int>(games.size()) == kMiningBatch;
}

}  // namespace papan::server

namespace papan::server {

namespace {

std::filesystem::path find_puzzle_set(const std::filesystem::path& configured) {
    std::error_code ec;
    if (!configured.empty()) {
        return configured;
    }
    std::vector<std::filesystem::path> candidates{"puzzles"};
    const auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
    if (!ec) {
        candidates.push_back(exe.parent_path() / "puzzles");
    }
    for (const auto& p : candidates) {
        if (std::filesystem::is_directory(p, ec)) {
            return p;
        }
    }
    return {};
}

}  // namespace

std::unique_ptr<PuzzleService> start_puzzle_service(const ServerOptions& options,
                                                    const Clock& clock) {
    PuzzleSettings settings;
    settings.set_dir      = find_puzzle_set(options.puzzles.set_dir);
    settings.mine         = options.puzzles.mine;
    settings.mine_idle_ms = options.puzzles.mine_idle_ms;
    auto service          = std::make_unique<PuzzleService>(
        open_puzzle_store(options.store, options.data_dir), clock, settings);
    log_line("puzzles", service->start() + (settings.mine ? "; mining finished games" : ""));
    return service;
}

}  // namespace papan::server
