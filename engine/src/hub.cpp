// Hub protocol v2 session (see hub.hpp and docs/engine-protocols.md).
//
// Threads: the reading thread (run()) owns the session state; a `go` starts one worker thread that
// runs Engine::search and prints its `info` lines and the final `done`; a deadline thread exists
// only while a ponder search runs after `ponder-hit`. Both stop the worker's search by its number
// (Engine::stop(id), taken before the worker starts): a `stop` that comes before the worker has
// begun searching still ends it, and a late one never reaches a later search. Output lines are
// written whole under a mutex and flushed, so lines of different threads never interleave.
#include <papan/core/game.hpp>
#include <papan/core/notation/move_text.hpp>
#include <papan/core/notation/squares.hpp>
#include <papan/engine/hub.hpp>

#include <algorithm>
#include <atomic>
#include <charconv>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdlib>
#include <istream>
#include <mutex>
#include <ostream>
#include <sstream>
#include <thread>

namespace papan::engine {

namespace {

bool is_space(char c) noexcept {
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

bool is_separator(char c) noexcept {
    return c == '-' || c == 'x' || c == 'X' || c == ':' || c == '*';
}

template <class T>
std::optional<T> parse_int(std::string_view s) {
    T value{};
    const auto* end = s.data() + s.size();
    const auto r    = std::from_chars(s.data(), end, value);
    if (s.empty() || r.ec != std::errc{} || r.ptr != end) {
        return std::nullopt;
    }
    return value;
}

std::optional<double> parse_real(std::string_view s) {
    if (s.empty() || s.size() > 64) {
        return std::nullopt;
    }
    const std::string copy(s);
    char* end          = nullptr;
    const double value = std::strtod(copy.c_str(), &end);
    if (end != copy.c_str() + copy.size() || !(value >= 0) || value > 1e9) {
        return std::nullopt;
    }
    return value;
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
// Line syntax

std::optional<std::string> HubLine::get(std::string_view name) const {
    for (const auto& [k, v] : args) {
        if (k == name) {
            return v;
        }
    }
    return std::nullopt;
}

bool HubLine::has_flag(std::string_view name) const {
    return std::find(flags.begin(), flags.end(), name) != flags.end();
}

HubLine parse_hub_line(std::string_view line) {
    HubLine r;
    std::size_t i       = 0;
    const std::size_t n = line.size();
    const auto skip     = [&] {
        while (i < n && is_space(line[i])) {
            ++i;
        }
    };
    skip();
    while (i < n && !is_space(line[i])) {
        r.command += line[i++];
    }
    for (;;) {
        skip();
        if (i >= n) {
            break;
        }
        std::string name;
        while (i < n && !is_space(line[i]) && line[i] != '=') {
            name += line[i++];
        }
        if (i < n && line[i] == '=') {
            ++i;
            std::string value;
            if (i < n && line[i] == '"') {
                ++i;
                while (i < n && line[i] != '"') {
                    value += line[i++];
                }
                if (i < n) {
                    ++i;  // closing quote
                }
            } else {
                while (i < n && !is_space(line[i])) {
                    value += line[i++];
                }
            }
            r.args.emplace_back(std::move(name), std::move(value));
        } else {
            r.flags.push_back(std::move(name));
        }
    }
    return r;
}

std::string hub_quote(std::string_view value) {
    bool quote = value.empty();
    std::string v;
    for (const char c : value) {
        if (is_space(c) || c == '=' || c == '"') {
            quote = true;
        }
        v += c == '"' ? '\'' : (c == '\n' || c == '\r' ? ' ' : c);
    }
    return quote ? "\"" + v + "\"" : v;
}

// ---------------------------------------------------------------------------------------------
// Positions, moves, scores

std::string hub_position(const core::Position& pos) {
    const int n = core::square_count(pos.variant);
    std::string s;
    s.reserve(static_cast<std::size_t>(n) + 1);
    s += pos.side == core::Color::White ? 'W' : 'B';
    for (int sq = 1; sq <= n; ++sq) {
        const int b     = *core::bit_of_square(pos.variant, sq);
        const bool king = core::has(pos.kings, b);
        if (core::has(pos.of(core::Color::White), b)) {
            s += king ? 'W' : 'w';
        } else if (core::has(pos.of(core::Color::Black), b)) {
            s += king ? 'B' : 'b';
        } else {
            s += 'e';
        }
    }
    return s;
}

core::Expected<core::Position> parse_hub_position(core::VariantId v, std::string_view text) {
    const int n                = core::square_count(v);
    const std::string_view key = core::rules(v).key;
    if (text.size() != static_cast<std::size_t>(n) + 1) {
        return core::Error{"position of " + std::to_string(text.size()) + " characters; " +
                           std::string(key) + " needs " + std::to_string(n + 1) +
                           " (side to move and " + std::to_string(n) + " squares)"};
    }
    core::Position pos;
    pos.variant = v;
    switch (text[0]) {
    case 'W':
    case 'w':
        pos.side = core::Color::White;
        break;
    case 'B':
    case 'b':
    case 'Z':
    case 'z':
        pos.side = core::Color::Black;
        break;
    default:
        return core::Error{"side to move must be W or B, not '" + std::string(1, text[0]) + "'"};
    }
    for (int sq = 1; sq <= n; ++sq) {
        const char c     = text[static_cast<std::size_t>(sq)];
        const auto b     = core::bit(*core::bit_of_square(v, sq));
        const auto white = static_cast<std::size_t>(core::Color::White);
        const auto black = static_cast<std::size_t>(core::Color::Black);
        switch (c) {
        case 'w':
            pos.pieces[white] |= b;
            break;
        case 'W':
            pos.pieces[white] |= b;
            pos.kings |= b;
            break;
        case 'b':
        case 'z':
            pos.pieces[black] |= b;
            break;
        case 'B':
        case 'Z':
            pos.pieces[black] |= b;
            pos.kings |= b;
            break;
        case 'e':
        case 'E':
        case '.':
            break;
        default:
            return core::Error{"bad character '" + std::string(1, c) + "' for square " +
                               std::to_string(sq) + " (w b W B e)"};
        }
    }
    if (!pos.is_consistent()) {
        return core::Error{"inconsistent position (a man on its promotion row?)"};
    }
    return pos;
}

std::string hub_move(core::VariantId v, const core::Move& m) {
    std::string s = std::to_string(core::square_of_bit(v, m.from));
    s += m.is_capture() ? 'x' : '-';
    s += std::to_string(core::square_of_bit(v, m.to));
    if (m.is_capture()) {
        for (const int c : core::captured_squares(v, m)) {
            s += 'x';
            s += std::to_string(c);
        }
    }
    return s;
}

core::Expected<core::Move>
parse_hub_move(const core::Position& pos, std::string_view text, core::MoveGenOptions options) {
    // Numbers separated by - x : * (Hub form): from, to, captured squares.
    std::vector<int> numbers;
    bool numeric  = !text.empty();
    bool capture  = false;
    std::size_t i = 0;
    while (numeric && i < text.size()) {
        std::size_t j = i;
        while (j < text.size() && text[j] >= '0' && text[j] <= '9') {
            ++j;
        }
        const auto value = j - i <= 3 ? parse_int<int>(text.substr(i, j - i)) : std::nullopt;
        if (!value) {
            numeric = false;
            break;
        }
        numbers.push_back(*value);
        if (j == text.size()) {
            break;
        }
        if (!is_separator(text[j]) || j + 1 == text.size()) {
            numeric = false;
            break;
        }
        capture = capture || text[j] != '-';
        i       = j + 1;
    }
    if (numeric && numbers.size() >= 2) {
        const std::vector<int> captured(numbers.begin() + 2, numbers.end());
        if (!captured.empty() || !capture) {
            auto m = core::find_move(pos, numbers[0], numbers[1], captured, options);
            if (m) {
                return m;
            }
        }
    }
    auto m = core::parse_move(pos, text, options);
    if (!m) {
        return core::Error{"illegal or unreadable move '" + std::string(text) + "': " + m.error()};
    }
    return m;
}

std::string hub_score(int centi_men) {
    int value = centi_men;
    if (std::abs(value) >= kMateBound) {
        const int plies = std::clamp(kMateScore - std::abs(value), 1, 100);
        value           = (value < 0 ? -1 : 1) * (2000 - plies);
    }
    const int a   = std::abs(value);
    std::string s = value < 0 ? "-" : "";
    s += std::to_string(a / 100) + ".";
    const int frac = a % 100;
    s += static_cast<char>('0' + frac / 10);
    s += static_cast<char>('0' + frac % 10);
    return s;
}

// ---------------------------------------------------------------------------------------------
// Session

namespace {

enum class GoMode : std::uint8_t {
    Think,
    Ponder,
    Analyze,
};

// Seconds to spend on a move under a game clock (used when a ponder search turns into a real one).
double clock_budget(const SearchLimits& l) {
    if (l.move_time > 0) {
        return l.move_time;
    }
    if (l.time_left < 0) {
        return 0;
    }
    const int moves      = l.moves_to_go > 0 ? std::min(l.moves_to_go, 40) : 30;
    const double reserve = std::max(0.0, l.time_left - l.increment);
    return std::max(0.01, std::min(l.time_left * 0.5, reserve / moves + l.increment * 0.8));
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
