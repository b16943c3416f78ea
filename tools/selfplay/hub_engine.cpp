// Hub engine subprocess (see hub_engine.hpp): fork/exec with two pipes, poll() with deadlines.
#include "hub_engine.hpp"

#include <papan/core/rules/registry.hpp>
#include <papan/engine/hub.hpp>

#include <cerrno>
#include <charconv>
#include <cmath>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <poll.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace papan::selfplay {

namespace {

using Clock = std::chrono::steady_clock;

constexpr auto kHandshakeTimeout = std::chrono::seconds(30);

std::string fixed_seconds(double s) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3f", s);
    return buf;
}

// `score=-1.23` (men, two decimals) as -123; none when absent or not a number.
std::optional<int> hub_score_centi(const std::optional<std::string>& text) {
    if (!text || text->empty()) {
        return std::nullopt;
    }
    char* end      = nullptr;
    const double v = std::strtod(text->c_str(), &end);
    if (end != text->c_str() + text->size()) {
        return std::nullopt;
    }
    return static_cast<int>(std::lround(v * 100));
}

std::vector<std::string> split_words(const std::string& line) {
    std::vector<std::string> words;
    std::size_t i = 0;
    while (i < line.size()) {
        while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) {
            ++i;
        }
        std::size_t j = i;
        while (j < line.size() && line[j] != ' ' && line[j] != '\t') {
            ++j;
        }
        if (j > i) {
            words.push_back(line.substr(i, j - i));
        }
        i = j;
    }
    return words;
}

std::optional<int> parse_number(const std::string& text) {
    int v = 0;
    if (std::from_chars(text.data(), text.data() + text.size(), v).ec != std::errc{}) {
        return std::nullopt;
    }
    return v;
}

}  // namespace

HubEngine::HubEngine(EngineSpec spec) : spec_(std::move(spec)) {
    // A write to an engine that has died must be an error to report, not the end of the tool.
    std::signal(SIGPIPE, SIG_IGN);
}

HubEngine::~HubEngine() {
    stop_process();
}

void HubEngine::stop_process() noexcept {
    if (pid_ < 0) {
        return;
    }
    (void)send("quit");
    ::close(to_fd_);
    to_fd_ = -1;
    // Give it a moment to exit on its own, then end it.
    int status = 0;
    bool gone  = false;
    for (int i = 0; i < 100 && !gone; ++i) {
        gone = ::waitpid(pid_, &status, WNOHANG) == pid_;
        if (!gone) {
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        }
    }
    if (!gone) {
        ::kill(pid_, SIGKILL);
        ::waitpid(pid_, &status, 0);
    }
    ::close(from_fd_);
    from_fd_ = -1;
    pid_     = -1;
    buffer_.clear();
}

core::Expected<bool> HubEngine::start(core::VariantId variant) {
    // Absolute, since the program may start in another folder.
    std::error_code ec;
    std::filesystem::path exe = std::filesystem::absolute(spec_.path, ec);
    if (ec) {
        exe = spec_.path;
    }
    const std::string dir = spec_.work_dir.empty() ? exe.parent_path().string() : spec_.work_dir;
    const auto said       = launch(exe.string(), dir);
    if (!said) {
        return core::Error{said.error()};
    }
    protocol_             = spec_.protocol != HubProtocol::Auto ? spec_.protocol : *said;
    const std::string who = spec_.label.empty() ? spec_.path : spec_.label;
    return protocol_ == HubProtocol::V1 ? handshake_v1(variant, who) : handshake_v2(variant, who);
}

core::Expected<HubProtocol> HubEngine::launch(const std::string& exe, const std::string& dir) {
    stop_process();
    const std::string who = spec_.label.empty() ? spec_.path : spec_.label;
    int in_pipe[2];   // parent writes, child reads (its stdin)
    int out_pipe[2];  // child writes (its stdout), parent reads
    if (::pipe2(in_pipe, O_CLOEXEC) != 0) {
        return core::Error{std::string("pipe: ") + std::strerror(errno)};
    }
    if (::pipe2(out_pipe, O_CLOEXEC) != 0) {
        ::close(in_pipe[0]);
        ::close(in_pipe[1]);
        return core::Error{std::string("pipe: ") + std::strerror(errno)};
    }
    std::vector<std::string> argv_store{exe};
    argv_store.insert(argv_store.end(), spec_.args.begin(), spec_.args.end());
    std::vector<char*> argv;
    for (std::string& a : argv_store) {
        argv.push_back(a.data());
    }
    argv.push_back(nullptr);
    const int pid = ::fork();
    if (pid < 0) {
        return core::Error{std::string("fork: ") + std::strerror(errno)};
    }
    if (pid == 0) {
        ::dup2(in_pipe[0], STDIN_FILENO);
        ::dup2(out_pipe[1], STDOUT_FILENO);
        if (!dir.empty() && ::chdir(dir.c_str()) != 0) {
            ::_exit(126);
        }
        ::execv(argv[0], argv.data());
        ::_exit(127);
    }
    ::close(in_pipe[0]);
    ::close(out_pipe[1]);
    pid_     = pid;
    to_fd_   = in_pipe[1];
    from_fd_ = out_pipe[0];

    if (!send("hub")) {
        return core::Error{who + ": cannot write to the engine"};
    }
    // The answer to `hub` up to `wait`: v2 engines introduce themselves with `id` and `param`
    // lines, v1 engines with `name`, `author` and `country`.
    bool v1_lines    = false;
    const auto until = Clock::now() + kHandshakeTimeout;
    for (;;) {
        const auto line = read_line(until);
        if (!line) {
            return core::Error{who + ": no Hub handshake (" +
                               (Clock::now() >= until ? "no `wait` in time" : "the engine exited") +
                               ")"};
        }
        const engine::HubLine l = engine::parse_hub_line(*line);
        if (l.command == "wait") {
            break;
        }
        v1_lines =
            v1_lines || l.command == "name" || l.command == "author" || l.command == "country";
    }
    return v1_lines ? HubProtocol::V1 : HubProtocol::V2;
}

core::Expected<bool> HubEngine::handshake_v2(core::VariantId variant, const std::string& who) {
    const std::string key(core::rules(variant).key);
    bool ok = send("set-param name=variant value=" + key) &&
              send("set-param name=level value=" + spec_.level) &&
              send("set-param name=hash value=" + std::to_string(spec_.hash_mb));
    for (const auto& [name, value] : spec_.params) {
        ok = ok && send("set-param name=" + name + " value=" + engine::hub_quote(value));
    }
    ok = ok && send("init");
    if (!ok) {
        return core::Error{who + ": cannot write to the engine"};
    }
    if (auto r = expect("ready", kHandshakeTimeout); !r) {
        return core::Error{who + ": not ready (" + r.error() + ")"};
    }
    return true;
}

core::Expected<bool> HubEngine::handshake_v1(core::VariantId variant, const std::string& who) {
    if (variant != core::VariantId::International) {
        return core::Error{who + ": a Hub v1 engine plays International draughts only"};
    }
    bool ok        = true;
    bool book_seen = false;
    for (const auto& [name, value] : spec_.params) {
        ok        = ok && send("set " + name + " " + value);
        book_seen = book_seen || name == "book";
    }
    if (!book_seen) {
        ok = ok && send("set book false");  // the opening suite chooses the openings
    }
    ok = ok && send("init");
    if (!ok) {
        return core::Error{who + ": cannot write to the engine"};
    }
    if (auto r = expect("ready", kHandshakeTimeout); !r) {
        return core::Error{who + ": not ready (" + r.error() + ")"};
    }
    return true;
}

core::Expected<bool> HubEngine::new_game() {
    if (pid_ < 0 || !send(protocol_ == HubProtocol::V1 ? "new" : "new-game")) {
        return core::Error{"the engine is not running"};
    }
    return true;
}

core::Expected<EngineReply> HubEngine::think(const core::Game& game,
                                             const MoveLimit& limit,
                                             std::chrono::milliseconds timeout) {
    if (protocol_ == HubProtocol::V1) {
        return think_v1(game, limit, timeout);
    }
    std::string pos = "pos pos=" + engine::hub_position(game.start_position());
    if (game.ply() > 0) {
        std::string moves;
        const auto positions = game.positions();
        const auto played    = game.moves();
        for (std::size_t i = 0; i < played.size(); ++i) {
            if (i > 0) {
                moves += ' ';
            }
            moves += engine::hub_move(positions[i].variant, played[i]);
        }
        pos += " moves=" + engine::hub_quote(moves);
    }
    const std::string level = limit.nodes > 0 ? "level nodes=" + std::to_string(limit.nodes)
                                              : "level move-time=" + fixed_seconds(limit.move_time);
    const auto start        = Clock::now();
    if (pid_ < 0 || !send(pos) || !send(level) || !send("go think")) {
        return core::Error{"cannot write to the engine"};
    }
    std::string last_info;
    auto done = expect("done", timeout, &last_info);
    if (!done) {
        return core::Error{done.error()};
    }
    EngineReply reply;
    reply.seconds           = std::chrono::duration<double>(Clock::now() - start).count();
    const engine::HubLine l = engine::parse_hub_line(*done);
    const auto move         = l.get("move");
    if (!move) {
        return core::Error{"`done` without a move: " + *done};
    }
    reply.move = *move;
    if (!last_info.empty()) {
        const engine::HubLine info = engine::parse_hub_line(last_info);
        reply.score                = hub_score_centi(info.get("score"));
        if (const auto depth = info.get("depth")) {
            int d = 0;
            if (std::from_chars(depth->data(), depth->data() + depth->size(), d).ec ==
                std::errc{}) {
                reply.depth = d;
            }
        }
        if (const auto nodes = info.get("nodes")) {
            std::uint64_t n = 0;
            if (std::from_chars(nodes->data(), nodes->data() + nodes->size(), n).ec ==
                std::errc{}) {
                reply.nodes = n;
            }
        }
        if (const auto time = info.get("time")) {
            reply.info_seconds = std::strtod(time->c_str(), nullptr);
        }
    }
    return reply;
}

core::Expected<EngineReply> HubEngine::think_v1(const core::Game& game,
                                                const MoveLimit& limit,
                                                std::chrono::milliseconds timeout) {
    if (limit.nodes > 0 || limit.move_time <= 0) {
        return core::Error{"a Hub v1 engine plays at a fixed move time (--movetime), not nodes"};
    }
    // v1 has no move list: the position alone, its side to move in lower case. `pos` resets the
    // engine's limits, so `time` (milliseconds) follows it.
    std::string pos  = engine::hub_position(game.position());
    pos[0]           = pos[0] == 'W' ? 'w' : 'b';
    const auto ms    = std::max<long long>(1, std::llround(limit.move_time * 1000));
    const auto start = Clock::now();
    if (pid_ < 0 || !send("pos " + pos) || !send("time " + std::to_string(ms)) || !send("go")) {
        return core::Error{"cannot write to the engine"};
    }
    std::string last_info;
    auto done = expect("move", timeout, &last_info);
    if (!done) {
        return core::Error{done.error()};
    }
    EngineReply reply;
    reply.seconds = std::chrono::duration<double>(Clock::now() - start).count();
    const std::vector<std::string> words = split_words(*done);
    if (words.size() < 2) {
        return core::Error{"`move` without a move: " + *done};
    }
    reply.move                          = words[1];
    const std::vector<std::string> info = split_words(last_info);
    // Depth 0 is how Scan shows a move chosen without a search (one move left by its tables).
    if (info.size() >= 6 && parse_number(info[1]).value_or(0) > 0) {
        reply.depth     = parse_number(info[1]);
        reply.score     = parse_number(info[3]);
        std::uint64_t n = 0;
        if (std::from_chars(info[4].data(), info[4].data() + info[4].size(), n).ec == std::errc{}) {
            reply.nodes = n;
        }
        reply.info_seconds = std::strtod(info[5].c_str(), nullptr);
    }
    return reply;
}

bool HubEngine::send(const std::string& line) noexcept {
    if (to_fd_ < 0) {
        return false;
    }
    std::string data = line + '\n';
    std::size_t off  = 0;
    while (off < data.size()) {
        const ssize_t n = ::write(to_fd_, data.data() + off, data.size() - off);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) {
            return false;
        }
        off += static_cast<std::size_t>(n);
    }
    return true;
}

std::optional<std::string> HubEngine::read_line(Clock::time_point until) {
    for (;;) {
        const auto nl = buffer_.find('\n');
        if (nl != std::string::npos) {
            std::string line = buffer_.substr(0, nl);
            buffer_.erase(0, nl + 1);
            if (!line.empty() && line.back() == '\r') {
                line.pop_back();
            }
            return line;
        }
        const auto left =
            std::chrono::duration_cast<std::chrono::milliseconds>(until - Clock::now()).count();
        if (left <= 0 || from_fd_ < 0) {
            return std::nullopt;
        }
        pollfd p{from_fd_, POLLIN, 0};
        const int r = ::poll(&p, 1, static_cast<int>(left));
        if (r < 0 && errno == EINTR) {
            continue;
        }
        if (r <= 0) {
            return std::nullopt;
        }
        char chunk[4096];
        const ssize_t n = ::read(from_fd_, chunk, sizeof chunk);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) {
            return std::nullopt;  // the engine closed its output (exited or crashed)
        }
        buffer_.append(chunk, static_cast<std::size_t>(n));
    }
}

core::Expected<std::string> HubEngine::expect(const std::string& word,
                                              std::chrono::milliseconds timeout,
                                              std::string* last_info) {
    const auto until = Clock::now() + timeout;
    for (;;) {
        auto line = read_line(until);
        if (!line) {
            return core::Error{Clock::now() >= until ? "no `" + word + "` in time"
                                                     : "the engine exited"};
        }
        const engine::HubLine l = engine::parse_hub_line(*line);
        if (l.command == word) {
            return *line;
        }
        if (l.command == "error") {
            return core::Error{"engine error: " + l.get("message").value_or(*line)};
        }
        if (l.command == "info" && last_info != nullptr) {
            *last_info = *line;
        }
    }
}

}  // namespace papan::selfplay
