// Hub protocol v2 session (see hub.hpp and docs/engine-protocols.md).
//
// Threads: the reading thread (run()) owns the session state; a `go` starts one worker thread that
// runs Engine::search and prints its `info` lines and the final `done`; a deadline thread exists
// only while a ponder search runs after `ponder-hit`. Both stop the worker's search by its number
// (Engine::stop(id), taken before the worker starts): a `stop` that comes before the worker has
// begun searching still ends it, and a late one never reaches a later search. Output lines are
// written whole under a mutex and flushed, so lines of different threads never interleave.
#include "hub_numbers.hpp"

#include <papan/core/game.hpp>
#include <papan/core/notation/move_text.hpp>
#include <papan/engine/hub.hpp>
#include <papan/engine/time_plan.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <istream>
#include <mutex>
#include <ostream>
#include <sstream>
#include <thread>

namespace papan::engine {

namespace {

template <class T>
std::optional<T> parse_int(std::string_view s) {
    return detail::parse_hub_int<T>(s);
}

std::optional<double> parse_real(std::string_view s) {
    return detail::parse_hub_real(s);
}

std::string fixed(double value, int decimals) {
    std::ostringstream os;
    os.setf(std::ios::fixed);
    os.precision(decimals);
    os << value;
    return os.str();
}

const char* const kVariantValues =
    "american international brazilian russian pool spanish italian czech thai turkish";

}  // namespace

// ---------------------------------------------------------------------------------------------
// Session

namespace {

enum class GoMode : std::uint8_t {
    Think,
    Ponder,
    Analyze,
};

// Seconds to spend on a move under a game clock (used when a ponder search turns into a real one:
// the infinite search is stopped after the plan's target).
double clock_budget(const SearchLimits& l) noexcept {
    return plan_time(l).target;
}

}  // namespace

struct HubSession::Impl {
    std::istream& in;
    std::ostream& out;
    EngineOptions options;
    HubIdentity identity;

    std::mutex out_mutex;
    std::unique_ptr<Engine> engine;
    std::size_t engine_hash = 0;  // hash size the engine was built with
    core::VariantId variant = core::VariantId::International;
    Level level             = Level::Max;
    SearchLimits limits;
    std::optional<core::Game> game;

    // Search state.
    std::thread worker;
    std::mutex state_mutex;
    std::condition_variable state_cv;
    bool running            = false;  // a worker exists and has not printed `done` yet
    bool finished           = false;  // the worker printed `done`
    std::uint64_t search_id = 0;      // the worker's search (Engine::next_search_id)
    GoMode mode             = GoMode::Think;
    SearchLimits ponder_limits;  // the real limits of a ponder search
    std::thread deadline;
    std::mutex deadline_mutex;
    std::condition_variable deadline_cv;
    bool deadline_cancel = false;

    Impl(std::istream& i, std::ostream& o, EngineOptions eo, HubIdentity id)
        : in(i)
        , out(o)
        , options(eo)
        , identity(std::move(id)) {
        limits.move_time = 1.0;
    }

    void send(const std::string& line) {
        const std::lock_guard lock(out_mutex);
        out << line << '\n' << std::flush;
    }

    void error(const std::string& message) { send("error message=" + hub_quote(message)); }

    Engine& the_engine() {
        if (!engine || engine_hash != options.hash_mb) {
            engine      = std::make_unique<Engine>(options);
            engine_hash = options.hash_mb;
        }
        return *engine;
    }

    core::Game& the_game() {
        if (!game || game->variant() != variant) {
            game.emplace(variant);
        }
        return *game;
    }

    // --- commands --------------------------------------------------------------------------

    void cmd_hub() {
        send("id name=" + hub_quote(identity.name) + " version=" + hub_quote(identity.version) +
             " author=" + hub_quote(identity.author) + " country=" + hub_quote(identity.country));
        send(std::string("param name=variant value=") + std::string(core::rules(variant).key) +
             " type=enum values=\"" + kVariantValues + "\"");
        send("param name=level value=" + std::string(level_name(level)) +
             " type=enum values=\"easy normal hard max\"");
        send("param name=hash value=" + std::to_string(options.hash_mb) +
             " type=int min=1 max=4096");
        send("param name=seed value=" + std::to_string(options.seed) +
             " type=int min=0 max=4294967295");
        send("param name=threads value=" + std::to_string(options.threads) +
             " type=int min=1 max=" + std::to_string(kMaxThreads));
        send("wait");
    }

    void cmd_set_param(const HubLine& l) {
        const auto name  = l.get("name");
        const auto value = l.get("value");
        if (!name || !value) {
            error("set-param needs name=... and value=...");
            return;
        }
        if (*name == "variant") {
            const auto v = core::variant_from_key(*value);
            if (!v) {
                error("unknown variant " + *value + " (" + kVariantValues + ")");
                return;
            }
            variant = *v;
            game.reset();
        } else if (*name == "level") {
            const auto lv = level_from_string(*value);
            if (!lv) {
                error("unknown level " + *value + " (easy normal hard max)");
                return;
            }
            level = *lv;
        } else if (*name == "hash") {
            const auto mb = parse_int<std::size_t>(*value);
            if (!mb || *mb < 1 || *mb > 4096) {
                error("hash must be 1-4096 (MB), not " + *value);
                return;
            }
            options.hash_mb = *mb;
        } else if (*name == "seed") {
            const auto seed = parse_int<std::uint64_t>(*value);
            if (!seed) {
                error("seed must be a non-negative integer, not " + *value);
                return;
            }
            options.seed = *seed;
            if (engine) {
                engine->set_seed(*seed);
            }
        } else if (*name == "threads") {
            const auto n = parse_int<int>(*value);
            if (!n || *n < 1 || *n > kMaxThreads) {
                error("threads must be 1-" + std::to_string(kMaxThreads) + ", not " + *value);
                return;
            }
            options.threads = *n;
            if (engine) {
                engine->set_threads(*n);
            }
        }
        // Unknown parameters are ignored, as the protocol asks.
    }

    void cmd_pos(const HubLine& l) {
        const auto text = l.get("pos");
        core::Position start =
            core::start_position(variant);  // liberal: no pos= means the start position
        if (text) {
            auto p = parse_hub_position(variant, *text);
            if (!p) {
                error("bad pos: " + p.error());
                return;
            }
            start = *p;
        }
        auto g = core::Game::create(start);
        if (!g) {
            error("bad pos: " + g.error());
            return;
        }
        core::Game next = std::move(g).value();
        if (const auto moves = l.get("moves")) {
            std::string_view rest = *moves;
            while (!rest.empty()) {
                const auto b = rest.find_first_not_of(" \t");
                if (b == std::string_view::npos) {
                    break;
                }
                rest           = rest.substr(b);
                const auto e   = std::min(rest.find_first_of(" \t"), rest.size());
                const auto tok = rest.substr(0, e);
                rest           = rest.substr(e);
                if (next.is_over()) {
                    error("bad moves: move " + std::string(tok) + " after the end of the game");
                    return;
                }
                const auto m = parse_hub_move(next.position(), tok, next.movegen_options());
                if (!m) {
                    error("bad moves: " + m.error());
                    return;
                }
                const auto played = next.play(*m);
                if (!played) {
                    error("bad moves: " + played.error());
                    return;
                }
            }
        }
        game.emplace(std::move(next));
    }

    void cmd_level(const HubLine& l) {
        SearchLimits next;
        bool any = false;
        for (const auto& [k, v] : l.args) {
            if (k == "depth") {
                const auto d = parse_int<int>(v);
                if (!d || *d < 1 || *d > 1000) {
                    error("bad depth " + v);
                    return;
                }
                next.depth = *d;
                any        = true;
            } else if (k == "nodes") {
                const auto n = parse_int<std::uint64_t>(v);
                if (!n || *n == 0) {
                    error("bad nodes " + v);
                    return;
                }
                next.nodes = *n;
                any        = true;
            } else if (k == "move-time") {
                const auto t = parse_real(v);
                if (!t) {
                    error("bad move-time " + v);
                    return;
                }
                next.move_time = std::max(*t, 0.001);
                any            = true;
            } else if (k == "time") {
                const auto t = parse_real(v);
                if (!t) {
                    error("bad time " + v);
                    return;
                }
                next.time_left = *t;
                any            = true;
            } else if (k == "inc") {
                const auto t = parse_real(v);
                if (!t) {
                    error("bad inc " + v);
                    return;
                }
                next.increment = *t;
            } else if (k == "moves") {
                const auto m = parse_int<int>(v);
                if (!m || *m < 0) {
                    error("bad moves " + v);
                    return;
                }
                next.moves_to_go = *m;
            }
            // Other args (handicap, ...) are ignored.
        }
        if (l.has_flag("infinite")) {
            next.infinite = true;
            any           = true;
        }
        if (next.time_left >= 0) {
            // Hub adds the increment before the move: it is part of the time for this move, and
            // the engine gets it again before its next move.
            next.time_left += next.increment;
        } else if (next.increment > 0) {
            next.time_left = next.increment;  // `inc` without `time`
            any            = true;
        }
        if (!any) {
            error("level needs depth=, nodes=, move-time=, time= or infinite");
            return;
        }
        limits = next;
    }

    void cmd_go(const HubLine& l) {
        core::Game& g = the_game();
        if (g.is_over() || g.legal_moves().empty()) {
            error("no search: " + g.result_text());
            return;
        }
        GoMode m = GoMode::Think;
        if (l.has_flag("ponder") || l.get("ponder")) {
            m = GoMode::Ponder;
        } else if (l.has_flag("analyze") || l.has_flag("analyse") || l.get("analyze")) {
            m = GoMode::Analyze;
        }
        SearchLimits search_limits = limits;
        if (m == GoMode::Analyze) {
            search_limits          = SearchLimits{};
            search_limits.infinite = true;
        } else if (m == GoMode::Ponder && clock_budget(limits) > 0) {
            // Think on the opponent's time until ponder-hit starts the real clock.
            search_limits          = SearchLimits{};
            search_limits.infinite = true;
        }
        Engine& e = the_engine();
        search_id = e.next_search_id();
        {
            const std::lock_guard lock(state_mutex);
            running       = true;
            finished      = false;
            mode          = m;
            ponder_limits = limits;
        }
        worker = std::thread([this, &e, snapshot = g, search_limits, lv = level] {
            search_thread(e, snapshot, search_limits, lv);
        });
    }

    void search_thread(Engine& e, const core::Game& g, SearchLimits l, Level lv) {
        const core::VariantId v   = g.variant();
        const core::Position root = g.position();
        const auto opts           = g.movegen_options();
        const auto pv_text        = [&](const std::vector<core::Move>& pv) {
            std::string s;
            core::Position p = root;
            for (const core::Move& m : pv) {
                core::MoveList legal;
                core::generate_moves(p, legal, opts);
                const core::Move* found = nullptr;
                for (const core::Move& c : legal) {
                    if (c.same_as(m)) {
                        found = &c;
                        break;
                    }
                }
                if (found == nullptr) {
                    break;
                }
                if (!s.empty()) {
                    s += ' ';
                }
                s += hub_move(p.variant, *found);
                p = core::make_move(p, *found);
            }
            return s;
        };
        const auto on_info = [&](const SearchInfo& info) {
            const double mnps =
                info.seconds > 0 ? static_cast<double>(info.nodes) / info.seconds / 1e6 : 0.0;
            send("info depth=" + std::to_string(info.depth) + " score=" + hub_score(info.score) +
                 " nodes=" + std::to_string(info.nodes) + " time=" + fixed(info.seconds, 3) +
                 " nps=" + fixed(mnps, 1) + " pv=" + hub_quote(pv_text(info.pv)));
        };
        std::optional<core::Move> best;
        std::optional<core::Move> ponder;
        try {
            const SearchResult r = e.search(g, l, lv, on_info);
            best                 = r.best;
            ponder               = r.ponder;
        } catch (const std::exception& ex) {
            error(std::string("search failed: ") + ex.what());
        }
        // Never answer an illegal move: fall back to the first legal one.
        const core::MoveList& legal = g.legal_moves();
        const core::Move* chosen    = nullptr;
        if (best) {
            for (const core::Move& m : legal) {
                if (m.same_as(*best)) {
                    chosen = &m;
                }
            }
        }
        if (chosen == nullptr && !legal.empty()) {
            chosen = &legal[0];
        }
        std::string line = "done";
        if (chosen != nullptr) {
            line += " move=" + hub_move(v, *chosen);
            if (ponder) {
                const core::Position after = core::make_move(root, *chosen);
                core::MoveList replies;
                core::generate_moves(after, replies, opts);
                for (const core::Move& m : replies) {
                    if (m.same_as(*ponder)) {
                        line += " ponder=" + hub_move(v, m);
                        break;
                    }
                }
            }
        }
        {
            // `done` and the state change happen together, so a `stop` that follows finds the
            // search finished.
            const std::lock_guard lock(state_mutex);
            send(line);
            finished = true;
        }
        state_cv.notify_all();
    }

    // Ends the running search (if any) and waits for its `done`.
    void finish_search() {
        if (!worker.joinable()) {
            return;
        }
        if (engine) {
            engine->stop(search_id);  // a no-op when it ended on its own; kept if not yet begun
        }
        std::unique_lock lock(state_mutex);
        state_cv.wait(lock, [this] { return finished; });
        running = false;
        lock.unlock();
        worker.join();
        cancel_deadline();
    }

    // Reaps a worker that finished on its own.
    void reap() {
        bool done = false;
        {
            const std::lock_guard lock(state_mutex);
            done = running && finished;
        }
        if (done) {
            finish_search();
        }
    }

    void start_deadline(double seconds) {
        cancel_deadline();
        deadline_cancel = false;
        Engine* e       = engine.get();
        deadline        = std::thread([this, e, id = search_id, seconds] {
            std::unique_lock lock(deadline_mutex);
            const auto until = std::chrono::steady_clock::now() +
                               std::chrono::microseconds(static_cast<std::int64_t>(seconds * 1e6));
            if (!deadline_cv.wait_until(lock, until, [this] { return deadline_cancel; })) {
                e->stop(id);
            }
        });
    }

    void cancel_deadline() {
        if (!deadline.joinable()) {
            return;
        }
        {
            const std::lock_guard lock(deadline_mutex);
            deadline_cancel = true;
        }
        deadline_cv.notify_all();
        deadline.join();
    }

    void cmd_ponder_hit() {
        GoMode m = GoMode::Think;
        SearchLimits l;
        {
            const std::lock_guard lock(state_mutex);
            if (!running || finished) {
                return;
            }
            m    = mode;
            l    = ponder_limits;
            mode = GoMode::Think;
        }
        if (m != GoMode::Ponder) {
            return;
        }
        const double budget = clock_budget(l);
        if (budget > 0) {
            start_deadline(budget);
        }
    }

    // Returns false on quit.
    bool handle(const std::string& raw) {
        const HubLine l = parse_hub_line(raw);
        if (l.command.empty()) {
            return true;
        }
        reap();
        const std::string& c = l.command;
        if (c == "ping") {
            send("pong");
            return true;
        }
        if (c == "stop") {
            finish_search();
            return true;
        }
        if (c == "ponder-hit") {
            cmd_ponder_hit();
            return true;
        }
        if (c == "quit") {
            finish_search();
            return false;
        }
        const bool known = c == "hub" || c == "init" || c == "set-param" || c == "new-game" ||
                           c == "pos" || c == "level" || c == "go";
        if (!known) {
            return true;  // unknown commands are ignored
        }
        // The GUI should not send these during a search; if it does, the search stops first (its
        // `done` comes before the answer). A worker that already finished is joined.
        finish_search();
        if (c == "hub") {
            cmd_hub();
        } else if (c == "set-param") {
            cmd_set_param(l);
        } else if (c == "init") {
            (void)the_engine();
            (void)the_game();
            send("ready");
        } else if (c == "new-game") {
            the_engine().new_game();
            game.reset();
        } else if (c == "pos") {
            cmd_pos(l);
        } else if (c == "level") {
            cmd_level(l);
        } else if (c == "go") {
            cmd_go(l);
        }
        return true;
    }

    int run() {
        std::string line;
        while (std::getline(in, line)) {
            bool go_on = true;
            try {
                go_on = handle(line);
            } catch (const std::exception& ex) {
                error(std::string("internal error: ") + ex.what());
            }
            if (!go_on) {
                break;
            }
        }
        finish_search();
        return 0;
    }
};

HubSession::HubSession(std::istream& in,
                       std::ostream& out,
                       EngineOptions options,
                       HubIdentity identity)
    : impl_(std::make_unique<Impl>(in, out, options, std::move(identity))) {}

HubSession::~HubSession() {
    if (impl_) {
        impl_->finish_search();
    }
}

int HubSession::run() {
    return impl_->run();
}

}  // namespace papan::engine
