// DXP codec and sessions (see dxp.hpp and docs/engine-protocols.md).
//
// One session runs on one connected TCP socket, single-threaded: when it is our turn the engine
// searches (the peer's messages wait in the socket buffer), otherwise we block reading the next
// NUL-terminated message. A malformed message, an illegal move or a message that breaks the
// order of the protocol is reported on the error stream and closes the connection.
#include <papan/core/game.hpp>
#include <papan/core/notation/fen.hpp>
#include <papan/core/notation/move_text.hpp>
#include <papan/core/notation/squares.hpp>
#include <papan/engine/dxp.hpp>
#include <papan/engine/engine.hpp>
#include <papan/engine/hub.hpp>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstring>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <optional>
#include <ostream>
#include <poll.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <thread>
#include <unistd.h>

namespace papan::engine {

namespace {

// ---------------------------------------------------------------------------------------------
// Codec helpers

std::optional<int> read_digits(std::string_view s, std::size_t pos, std::size_t width) {
    if (pos + width > s.size()) {
        return std::nullopt;
    }
    int value = 0;
    for (std::size_t i = pos; i < pos + width; ++i) {
        if (s[i] < '0' || s[i] > '9') {
            return std::nullopt;
        }
        value = value * 10 + (s[i] - '0');
    }
    return value;
}

std::string zero_pad(int value, int width) {
    int limit = 1;
    for (int i = 0; i < width; ++i) {
        limit *= 10;
    }
    std::string s = std::to_string(std::clamp(value, 0, limit - 1));
    while (s.size() < static_cast<std::size_t>(width)) {
        s.insert(s.begin(), '0');
    }
    return s;
}

char printable(char c) {
    return c >= ' ' && c <= '~' ? c : '?';
}

std::string name_field(std::string_view name) {
    while (!name.empty() && name.front() == ' ') {
        name.remove_prefix(1);
    }
    std::string s;
    for (const char c : name.substr(0, kDxpNameWidth)) {
        s += printable(c);
    }
    if (s.empty()) {
        s = "?";
    }
    s.resize(kDxpNameWidth, ' ');
    return s;
}

std::string trim_right(std::string_view s) {
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) {
        s.remove_suffix(1);
    }
    return std::string(s);
}

std::optional<core::Color> colour_of(char c) {
    if (c == 'W' || c == 'w') {
        return core::Color::White;
    }
    if (c == 'Z' || c == 'z' || c == 'B' || c == 'b') {
        return core::Color::Black;
    }
    return std::nullopt;
}

core::Error malformed(std::string_view text, const std::string& why) {
    std::string shown;
    for (const char c : text.substr(0, 60)) {
        shown += printable(c);
    }
    return core::Error{"malformed DXP message \"" + shown + (text.size() > 60 ? "..." : "") +
                       "\": " + why};
}

}  // namespace

char dxp_colour(core::Color c) noexcept {
    return c == core::Color::White ? 'W' : 'Z';
}

core::Expected<DxpMessage> parse_dxp(std::string_view s) {
    if (s.empty()) {
        return malformed(s, "empty message");
    }
    for (const char c : s) {
        const auto u = static_cast<unsigned char>(c);
        if (u == 0 || u > 127) {
            return malformed(s, "byte outside ASCII 1-127");
        }
    }
    switch (s[0]) {
    case 'R': {
        // R vv name(32) colour minutes(3) moves(3) start [colour position]
        constexpr std::size_t kName = 3;
        constexpr std::size_t kCol  = kName + kDxpNameWidth;
        if (s.size() < kCol + 8) {
            return malformed(s, "GAMEREQ shorter than 43 characters");
        }
        DxpGameRequest r;
        const auto version = read_digits(s, 1, 2);
        const auto colour  = colour_of(s[kCol]);
        const auto minutes = read_digits(s, kCol + 1, 3);
        const auto moves   = read_digits(s, kCol + 4, 3);
        if (!version || !colour || !minutes || !moves) {
            return malformed(s, "GAMEREQ fields (version, colour W/Z, minutes, moves)");
        }
        r.version        = *version;
        r.initiator_name = trim_right(s.substr(kName, kDxpNameWidth));
        r.follower_color = *colour;
        r.minutes        = *minutes;
        r.moves          = *moves;
        const char start = s[kCol + 7];
        if (start == 'A') {
            r.custom_start = false;
        } else if (start == 'B') {
            if (s.size() < kCol + 9) {
                return malformed(s, "GAMEREQ with start B but no position");
            }
            const auto to_move = colour_of(s[kCol + 8]);
            if (!to_move) {
                return malformed(s, "GAMEREQ colour to move must be W or Z");
            }
            r.custom_start = true;
            r.to_move      = *to_move;
            r.position     = std::string(s.substr(kCol + 9));
        } else {
            return malformed(s, "GAMEREQ start must be A or B");
        }
        return DxpMessage{r};
    }
    case 'A': {
        if (s.size() < 2) {
            return malformed(s, "GAMEACC without acceptance code");
        }
        DxpGameAccept a;
        // Standard: name(32) + code; tolerate a shorter name (the code is the last character).
        const std::size_t code_at = std::min<std::size_t>(s.size() - 1, 1 + kDxpNameWidth);
        a.follower_name           = trim_right(s.substr(1, code_at - 1));
        a.code                    = s[code_at];
        if (a.code < '0' || a.code > '9') {
            return malformed(s, "GAMEACC acceptance code must be a digit");
        }
        return DxpMessage{a};
    }
    case 'M': {
        const auto seconds = read_digits(s, 1, 4);
        const auto from    = read_digits(s, 5, 2);
        const auto to      = read_digits(s, 7, 2);
        const auto n       = read_digits(s, 9, 2);
        if (!seconds || !from || !to || !n) {
            return malformed(s, "MOVE needs time(4) from(2) to(2) count(2) digits");
        }
        const auto count = static_cast<std::size_t>(*n);
        if (s.size() < 11 + 2 * count) {
            return malformed(s, "MOVE has fewer captured squares than its count");
        }
        DxpMove m;
        m.seconds = *seconds;
        m.from    = *from;
        m.to      = *to;
        for (std::size_t i = 0; i < count; ++i) {
            const auto c = read_digits(s, 11 + 2 * i, 2);
            if (!c) {
                return malformed(s, "MOVE captured square is not two digits");
            }
            m.captured.push_back(*c);
        }
        if (trim_right(s.substr(11 + 2 * count)).size() != 0) {
            return malformed(s, "MOVE has extra characters");
        }
        return DxpMessage{m};
    }
    case 'E': {
        if (s.size() < 3 || s[1] < '0' || s[1] > '9' || (s[2] != '0' && s[2] != '1')) {
            return malformed(s, "GAMEEND needs reason(1) and stop code 0/1");
        }
        return DxpMessage{DxpGameEnd{s[1], s[2]}};
    }
    case 'C':
        return DxpMessage{DxpChat{std::string(s.substr(1))}};
    case 'B': {
        const auto number = read_digits(s, 1, 3);
        const auto colour = s.size() >= 5 ? colour_of(s[4]) : std::nullopt;
        if (!number || !colour) {
            return malformed(s, "BACKREQ needs move number(3) and colour W/Z");
        }
        return DxpMessage{DxpBackRequest{*number, *colour}};
    }
    case 'K': {
        if (s.size() < 2 || s[1] < '0' || s[1] > '9') {
            return malformed(s, "BACKACC needs a code digit");
        }
        return DxpMessage{DxpBackAccept{s[1]}};
    }
    default:
        return malformed(s, "unknown message type '" + std::string(1, printable(s[0])) + "'");
    }
}

std::string encode_dxp(const DxpMessage& message) {
    struct Encoder {
        std::string operator()(const DxpGameRequest& r) const {
            std::string s = "R" + zero_pad(r.version, 2) + name_field(r.initiator_name) +
                            dxp_colour(r.follower_color) + zero_pad(r.minutes, 3) +
                            zero_pad(r.moves, 3);
            if (r.custom_start) {
                s += 'B';
                s += dxp_colour(r.to_move);
                s += r.position;
            } else {
                s += 'A';
            }
            return s;
        }

        std::string operator()(const DxpGameAccept& a) const {
            return "A" + name_field(a.follower_name) + a.code;
        }

        std::string operator()(const DxpMove& m) const {
            std::string s = "M" + zero_pad(m.seconds, 4) + zero_pad(m.from, 2) + zero_pad(m.to, 2) +
                            zero_pad(static_cast<int>(m.captured.size()), 2);
            for (const int c : m.captured) {
                s += zero_pad(c, 2);
            }
            return s;
        }

        std::string operator()(const DxpGameEnd& e) const {
            return std::string("E") + e.reason + e.stop;
        }

        std::string operator()(const DxpChat& c) const {
            std::string s = "C";
            for (const char ch : std::string_view(c.text).substr(0, kDxpMax - 1)) {
                s += printable(ch);
            }
            if (s.size() == 1) {
                s += ' ';
            }
            return s;
        }

        std::string operator()(const DxpBackRequest& b) const {
            return "B" + zero_pad(b.move_number, 3) + dxp_colour(b.to_move);
        }

        std::string operator()(const DxpBackAccept& k) const { return std::string("K") + k.code; }
    };

    return std::visit(Encoder{}, message);
}

std::string dxp_squares(const core::Position& pos) {
    std::string s = hub_position(pos).substr(1);
    for (char& c : s) {
        if (c == 'b') {
            c = 'z';
        } else if (c == 'B') {
            c = 'Z';
        }
    }
    return s;
}

core::Expected<core::Position>
parse_dxp_position(core::VariantId v, core::Color to_move, std::string_view squares) {
    std::string hub(1, to_move == core::Color::White ? 'W' : 'B');
    hub += squares;
    return parse_hub_position(v, hub);
}

// ---------------------------------------------------------------------------------------------
// Sockets

namespace {

class Connection {
public:
    enum class Status : std::uint8_t {
        Message,
        Closed,
        Timeout,
        Error,
    };

    explicit Connection(int fd) : fd_(fd) {
        int one = 1;
        (void)setsockopt(fd_, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    }

    ~Connection() {
        if (fd_ >= 0) {
            ::close(fd_);
        }
    }

    Connection(const Connection&)            = delete;
    Connection& operator=(const Connection&) = delete;

    bool send(const std::string& message, std::string& error) {
        std::string data = message;
        data += '\0';
        std::size_t sent = 0;
        while (sent < data.size()) {
            const ssize_t n = ::send(fd_, data.data() + sent, data.size() - sent, MSG_NOSIGNAL);
            if (n < 0) {
                if (errno == EINTR) {
                    continue;
                }
                error = std::string("send failed: ") + std::strerror(errno);
                return false;
            }
            sent += static_cast<std::size_t>(n);
        }
        return true;
    }

    // Waits for the next message; timeout < 0 waits forever.
    Status receive(std::string& message, double timeout, std::string& error) {
        using Clock                      = std::chrono::steady_clock;
        const auto start                 = Clock::now();
        constexpr std::size_t kMaxBuffer = 4096;
        for (;;) {
            const auto nul = buffer_.find('\0');
            if (nul != std::string::npos) {
                message = buffer_.substr(0, nul);
                buffer_.erase(0, nul + 1);
                return Status::Message;
            }
            if (buffer_.size() > kMaxBuffer) {
                error = "message longer than " + std::to_string(kMaxBuffer) + " bytes (no NUL)";
                return Status::Error;
            }
            int wait_ms = -1;
            if (timeout >= 0) {
                const double left =
                    timeout - std::chrono::duration<double>(Clock::now() - start).count();
                if (left <= 0) {
                    return Status::Timeout;
                }
                wait_ms = static_cast<int>(std::ceil(left * 1000));
            }
            pollfd p{fd_, POLLIN, 0};
            const int ready = ::poll(&p, 1, wait_ms);
            if (ready < 0) {
                if (errno == EINTR) {
                    continue;
                }
                error = std::string("poll failed: ") + std::strerror(errno);
                return Status::Error;
            }
            if (ready == 0) {
                continue;  // the deadline check above ends the wait
            }
            char chunk[1024];
            const ssize_t n = ::recv(fd_, chunk, sizeof chunk, 0);
            if (n < 0) {
                if (errno == EINTR || errno == EAGAIN) {
                    continue;
                }
                error = std::string("receive failed: ") + std::strerror(errno);
                return Status::Error;
            }
            if (n == 0) {
                return Status::Closed;
            }
            buffer_.append(chunk, static_cast<std::size_t>(n));
        }
    }

private:
    int fd_;
    std::string buffer_;
};

struct AddrInfo {
    addrinfo* list = nullptr;

    ~AddrInfo() {
        if (list != nullptr) {
            freeaddrinfo(list);
        }
    }
};

int port_of(int fd) {
    sockaddr_storage addr{};
    socklen_t len = sizeof addr;
    if (getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) != 0) {
        return -1;
    }
    if (addr.ss_family == AF_INET) {
        return ntohs(reinterpret_cast<const sockaddr_in*>(&addr)->sin_port);
    }
    if (addr.ss_family == AF_INET6) {
        return ntohs(reinterpret_cast<const sockaddr_in6*>(&addr)->sin6_port);
    }
    return -1;
}

// The addresses of host:port for a stream socket (`passive`: to listen on); false with `error`
// set when the name does not resolve.
bool resolve(const std::string& host,
             const std::string& service,
             bool passive,
             AddrInfo& ai,
             std::string& error) {
    addrinfo hints{};
    hints.ai_family   = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags    = passive ? AI_PASSIVE : 0;
    const int rc      = getaddrinfo(host.c_str(), service.c_str(), &hints, &ai.list);
    if (rc != 0) {
        error = "cannot resolve " + host + ": " + gai_strerror(rc);
        return false;
    }
    return true;
}

// Opens a socket for each address in turn and gives it to `use(fd, address)`, which returns true
// to keep it (or sets `error`); the socket kept, or -1 when no address worked.
template <class Use>
int first_socket(const AddrInfo& ai, std::string& error, Use use) {
    for (addrinfo* a = ai.list; a != nullptr; a = a->ai_next) {
        const int fd = ::socket(a->ai_family, a->ai_socktype, a->ai_protocol);
        if (fd < 0) {
            error = std::string("socket: ") + std::strerror(errno);
            continue;
        }
        if (use(fd, *a)) {
            return fd;
        }
        ::close(fd);
    }
    return -1;
}

int open_listener(const std::string& host, int port, std::string& error) {
    const std::string service = std::to_string(port);
    AddrInfo ai;
    if (!resolve(host, service, true, ai, error)) {
        return -1;
    }
    return first_socket(ai, error, [&](int fd, const addrinfo& a) {
        int one = 1;
        (void)setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
        if (::bind(fd, a.ai_addr, a.ai_addrlen) == 0 && ::listen(fd, 4) == 0) {
            return true;
        }
        error = "cannot listen on " + host + ":" + service + ": " + std::strerror(errno);
        return false;
    });
}

int open_connection(const std::string& host, int port, double timeout, std::string& error) {
    const auto deadline = std::chrono::steady_clock::now() +
                          std::chrono::milliseconds(static_cast<std::int64_t>(timeout * 1000));
    const std::string service = std::to_string(port);
    for (;;) {
        AddrInfo ai;
        if (!resolve(host, service, false, ai, error)) {
            return -1;
        }
        const int fd = first_socket(ai, error, [&](int s, const addrinfo& a) {
            if (::connect(s, a.ai_addr, a.ai_addrlen) == 0) {
                return true;
            }
            error = "cannot connect to " + host + ":" + service + ": " + std::strerror(errno);
            return false;
        });
        if (fd >= 0) {
            return fd;
        }
        if (std::chrono::steady_clock::now() >= deadline) {
            return -1;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
    }
}

// ---------------------------------------------------------------------------------------------
// Session

class Session {
public:
    enum class End : std::uint8_t {
        Finished,  // no more games wanted (by us or by the peer)
        Closed,    // the peer closed the connection
        Failed,    // protocol error, timeout or socket error
    };

    Session(Connection& c,
            const DxpOptions& o,
            Engine& e,
            std::ostream& out,
            std::ostream& err,
            int& games_done)
        : conn_(c)
        , opts_(o)
        , engine_(e)
        , out_(out)
        , err_(err)
        , games_done_(games_done) {}

    End run() {
        for (;;) {
            if (playing_ && !awaiting_end_ && game_->side_to_move() == us_) {
                if (game_->is_over()) {
                    if (!initiate_end()) {
                        return End::Failed;
                    }
                    continue;
                }
                if (!play_our_move()) {
                    return End::Failed;
                }
                continue;
            }
            if (opts_.initiator && !playing_ && !awaiting_accept_) {
                if (stop_ || games_done_ >= opts_.games) {
                    return End::Finished;
                }
                if (!send_request()) {
                    return End::Failed;
                }
            }
            const bool peer_should_end = playing_ && !awaiting_end_ && game_->is_over();
            const double timeout =
                awaiting_accept_ || awaiting_end_ || peer_should_end ? opts_.reply_timeout : -1;
            std::string text;
            std::string error;
            switch (conn_.receive(text, timeout, error)) {
            case Connection::Status::Message:
                break;
            case Connection::Status::Closed:
                if (playing_ || awaiting_accept_ || awaiting_end_) {
                    err_ << "dxp: error: the peer closed the connection during a game\n";
                    return End::Closed;
                }
                return stop_ ? End::Finished : End::Closed;
            case Connection::Status::Timeout:
                if (peer_should_end) {
                    // The peer does not end the game our rules ended: we do.
                    if (!initiate_end()) {
                        return End::Failed;
                    }
                    continue;
                }
                err_ << "dxp: error: no answer from the peer within " << opts_.reply_timeout
                     << " s\n";
                return End::Failed;
            case Connection::Status::Error:
                err_ << "dxp: error: " << error << '\n';
                return End::Failed;
            }
            auto message = parse_dxp(text);
            if (!message) {
                err_ << "dxp: error: " << message.error() << "; closing the connection\n";
                return End::Failed;
            }
            const std::optional<End> end = std::visit(
                [this](const auto& m) -> std::optional<End> { return handle(m); }, *message);
            if (end) {
                return *end;
            }
            if (stop_ && !playing_ && !awaiting_end_ && !opts_.initiator) {
                return End::Finished;
            }
        }
    }

private:
    bool send(const DxpMessage& m) {
        std::string error;
        if (!conn_.send(encode_dxp(m), error)) {
            err_ << "dxp: error: " << error << '\n';
            return false;
        }
        return true;
    }

    [[nodiscard]] std::string colour_name(core::Color c) const {
        return c == core::Color::White ? "White" : "Black";
    }

    // Would we rather stop after the current game?
    [[nodiscard]] bool last_game() const {
        return opts_.games > 0 && games_done_ + 1 >= opts_.games;
    }

    void start_game(const core::Game& g, core::Color us, int minutes, int moves) {
        game_.emplace(g);
        us_           = us;
        minutes_      = minutes;
        moves_        = moves;
        used_         = 0;
        playing_      = true;
        awaiting_end_ = false;
        engine_.new_game();
        out_ << "dxp: game " << games_done_ + 1 << ": " << opts_.name << " (" << colour_name(us_)
             << ") vs " << (peer_name_.empty() ? "?" : peer_name_) << ", "
             << core::rules(g.variant()).key << ", " << minutes_ << " min / " << moves_ << " moves"
             << std::endl;
    }

    void finish_game(const std::string& how) {
        playing_      = false;
        awaiting_end_ = false;
        ++games_done_;
        out_ << "dxp: game " << games_done_ << " over (" << how
             << "): " << (game_ ? game_->result_text() : std::string("no game")) << std::endl;
        if (opts_.games > 0 && games_done_ >= opts_.games) {
            stop_ = true;
        }
    }

    bool send_request() {
        const core::Color our = games_done_ % 2 == 0 ? core::Color::White : core::Color::Black;
        core::Position start  = core::start_position(opts_.variant);
        if (!opts_.fen.empty()) {
            auto p = core::parse_fen(opts_.variant, opts_.fen);
            if (!p) {
                err_ << "dxp: error: bad --fen: " << p.error() << '\n';
                return false;
            }
            start = *p;
        }
        DxpGameRequest r;
        r.version        = 1;
        r.initiator_name = opts_.name;
        r.follower_color = core::opposite(our);
        r.minutes        = opts_.minutes;
        r.moves          = opts_.moves;
        if (!(start == core::start_position(opts_.variant))) {
            r.custom_start = true;
            r.to_move      = start.side;
            r.position     = dxp_squares(start);
        }
        auto g = core::Game::create(start);
        if (!g) {
            err_ << "dxp: error: " << g.error() << '\n';
            return false;
        }
        pending_.emplace(std::move(g).value());
        pending_us_      = our;
        awaiting_accept_ = true;
        return send(DxpMessage{r});
    }

    bool initiate_end() {
        char reason                 = '0';
        const core::GameResult& res = game_->result();
        if (res.outcome == core::Outcome::Draw) {
            reason = '2';
        } else if (const auto w = core::winner(res.outcome)) {
            reason = *w == us_ ? '3' : '1';
        }
        awaiting_end_ = true;
        return send(DxpMessage{DxpGameEnd{reason, last_game() ? '1' : '0'}});
    }

    SearchLimits limits() const {
        SearchLimits l;
        if (opts_.depth > 0 || opts_.nodes > 0 || opts_.move_time > 0) {
            l.depth     = opts_.depth;
            l.nodes     = opts_.nodes;
            l.move_time = opts_.move_time;
            return l;
        }
        if (minutes_ <= 0) {
            l.move_time = 1.0;
            return l;
        }
        int our_moves = 0;
        for (std::size_t i = 0; i + 1 < game_->positions().size(); ++i) {
            our_moves += game_->positions()[i].side == us_ ? 1 : 0;
        }
        // `moves` moves in `minutes`, repeated; with no move count, plan for 30 more moves.
        const double period = minutes_ * 60.0;
        double available    = period - used_;
        int moves_left      = 30;
        if (moves_ > 0) {
            available  = period * (our_moves / moves_ + 1) - used_;
            moves_left = moves_ - our_moves % moves_;
        }
        l.move_time = std::clamp(0.9 * available / moves_left, 0.02, std::max(0.02, available / 2));
        return l;
    }

    bool play_our_move() {
        const auto start = std::chrono::steady_clock::now();
        std::optional<core::Move> best;
        try {
            best = engine_.search(*game_, limits(), opts_.level).best;
        } catch (const std::exception& ex) {
            err_ << "dxp: error: search failed: " << ex.what() << '\n';
        }
        const double seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        used_ += seconds;
        std::optional<core::Move> move = best ? game_->find_legal(*best) : std::nullopt;
        if (!move) {
            err_ << "dxp: error: the engine gave no legal move; playing the first legal one\n";
            move = game_->legal_moves()[0];
        }
        const core::VariantId v = game_->variant();
        DxpMove m;
        m.seconds              = static_cast<int>(std::lround(seconds));
        m.from                 = core::square_of_bit(v, move->from);
        m.to                   = core::square_of_bit(v, move->to);
        m.captured             = core::captured_squares(v, *move);
        const std::string text = core::move_text(game_->position(), *move, game_->legal_moves());
        if (!send(DxpMessage{m})) {
            return false;
        }
        const auto played = game_->play(*move);
        if (!played) {
            err_ << "dxp: error: " << played.error() << '\n';
            return false;
        }
        out_ << "dxp: " << opts_.name << " plays " << text << std::endl;
        return true;
    }

    std::optional<End> handle(const DxpGameRequest& r) {
        if (opts_.initiator) {
            err_ << "dxp: ignoring a GAMEREQ: we are the initiator\n";
            return std::nullopt;
        }
        if (playing_ && awaiting_end_) {
            finish_game("a new GAMEREQ instead of the GAMEEND reply");
        } else if (playing_) {
            err_ << "dxp: a new GAMEREQ abandons the game in progress\n";
            playing_ = false;
        }
        peer_name_         = r.initiator_name;
        const auto decline = [&](char code, const std::string& why) -> std::optional<End> {
            err_ << "dxp: declining a game (code " << code << "): " << why << '\n';
            if (!send(DxpMessage{DxpGameAccept{opts_.name, code}})) {
                return End::Failed;
            }
            return std::nullopt;
        };
        if (r.version != 1) {
            return decline('1', "version " + std::to_string(r.version));
        }
        core::Position start = core::start_position(opts_.variant);
        if (r.custom_start) {
            auto p = parse_dxp_position(opts_.variant, r.to_move, r.position);
            if (!p) {
                return decline('2', p.error());
            }
            start = *p;
        }
        auto g = core::Game::create(start);
        if (!g) {
            return decline('2', g.error());
        }
        if (g->is_over()) {
            return decline('2', "the position is already decided");
        }
        if (!send(DxpMessage{DxpGameAccept{opts_.name, '0'}})) {
            return End::Failed;
        }
        start_game(*g, r.follower_color, r.minutes, r.moves);
        return std::nullopt;
    }

    std::optional<End> handle(const DxpGameAccept& a) {
        if (!awaiting_accept_) {
            err_ << "dxp: ignoring an unexpected GAMEACC\n";
            return std::nullopt;
        }
        awaiting_accept_ = false;
        peer_name_       = a.follower_name;
        if (a.code != '0') {
            err_ << "dxp: error: " << (peer_name_.empty() ? "the peer" : peer_name_)
                 << " declined the game (code " << a.code << ")\n";
            return End::Failed;
        }
        start_game(*pending_, pending_us_, opts_.minutes, opts_.moves);
        return std::nullopt;
    }

    std::optional<End> handle(const DxpMove& m) {
        if (!playing_ || awaiting_end_) {
            err_ << "dxp: error: a MOVE outside a game\n";
            return End::Failed;
        }
        if (game_->is_over()) {
            // Our rules ended the game (a draw rule the peer may not know): end it.
            return initiate_end() ? std::nullopt : std::optional<End>(End::Failed);
        }
        if (game_->side_to_move() == us_) {
            err_ << "dxp: error: a MOVE while it is our turn\n";
            return End::Failed;
        }
        const auto move =
            core::find_move(game_->position(), m.from, m.to, m.captured, game_->movegen_options());
        if (!move) {
            err_ << "dxp: error: illegal move from the peer (" << m.from << "-" << m.to << ", "
                 << m.captured.size() << " captured): " << move.error() << '\n';
            return End::Failed;
        }
        const std::string text = core::move_text(game_->position(), *move, game_->legal_moves());
        const auto played      = game_->play(*move);
        if (!played) {
            err_ << "dxp: error: " << played.error() << '\n';
            return End::Failed;
        }
        out_ << "dxp: " << (peer_name_.empty() ? "peer" : peer_name_) << " plays " << text
             << std::endl;
        return std::nullopt;
    }

    std::optional<End> handle(const DxpGameEnd& e) {
        if (e.stop == '1') {
            stop_ = true;
        }
        if (awaiting_end_) {
            finish_game("confirmed by the peer");
            return std::nullopt;
        }
        if (playing_) {
            const char stop = stop_ || last_game() ? '1' : '0';
            if (!send(DxpMessage{DxpGameEnd{'0', stop}})) {
                return End::Failed;
            }
            finish_game(std::string("ended by the peer, reason ") + e.reason);
            if (stop == '1') {
                stop_ = true;
            }
            return std::nullopt;
        }
        if (stop_) {
            return End::Finished;
        }
        return std::nullopt;  // a GAMEEND between games: nothing to end
    }

    std::optional<End> handle(const DxpChat& c) {
        out_ << "dxp: chat from " << (peer_name_.empty() ? "peer" : peer_name_) << ": " << c.text
             << std::endl;
        return std::nullopt;
    }

    std::optional<End> handle(const DxpBackRequest& b) {
        // Take back to the position where move `move_number` is to be played by `to_move`.
        char code = '2';
        if (playing_ && !awaiting_end_ && b.move_number >= 1) {
            const core::Color first = game_->start_position().side;
            const int ply           = (b.move_number - 1) * 2 + (b.to_move == first ? 0 : 1);
            if (ply <= game_->ply()) {
                while (game_->ply() > ply) {
                    (void)game_->undo();
                }
                code = '0';
                out_ << "dxp: took back to move " << b.move_number << " (" << colour_name(b.to_move)
                     << " to move)" << std::endl;
            }
        }
        return send(DxpMessage{DxpBackAccept{code}}) ? std::nullopt
                                                     : std::optional<End>(End::Failed);
    }

    std::optional<End> handle(const DxpBackAccept& /*k*/) {
        return std::nullopt;  // we never send BACKREQ
    }

    Connection& conn_;
    const DxpOptions& opts_;
    Engine& engine_;
    std::ostream& out_;
    std::ostream& err_;
    int& games_done_;

    std::optional<core::Game> game_;
    std::optional<core::Game> pending_;  // the game of a GAMEREQ awaiting GAMEACC
    core::Color pending_us_ = core::Color::White;
    core::Color us_         = core::Color::White;
    std::string peer_name_;
    int minutes_          = 0;
    int moves_            = 0;
    double used_          = 0;
    bool playing_         = false;
    bool awaiting_accept_ = false;
    bool awaiting_end_    = false;
    bool stop_            = false;
};

EngineOptions engine_options(const DxpOptions& o) {
    EngineOptions e;
    e.hash_mb = o.hash_mb;
    e.seed    = o.seed;
    return e;
}

}  // namespace

int run_dxp_initiator(const DxpOptions& options, std::ostream& out, std::ostream& err) {
    const std::string host = options.host.empty() ? "127.0.0.1" : options.host;
    std::string error;
    const int fd = open_connection(host, options.port, options.connect_timeout, error);
    if (fd < 0) {
        err << "dxp: error: " << error << '\n';
        return 1;
    }
    Connection conn(fd);
    out << "dxp: connected to " << host << ":" << options.port << std::endl;
    Engine engine(engine_options(options));
    int games_done = 0;
    Session session(conn, options, engine, out, err, games_done);
    const Session::End end = session.run();
    out << "dxp: " << games_done << " game(s) played" << std::endl;
    return end == Session::End::Finished ? 0 : 1;
}

int run_dxp_follower(const DxpOptions& options, std::ostream& out, std::ostream& err) {
    const std::string host = options.host.empty() ? "0.0.0.0" : options.host;
    std::string error;
    const int listener = open_listener(host, options.port, error);
    if (listener < 0) {
        err << "dxp: error: " << error << '\n';
        return 1;
    }
    out << "dxp: listening on " << host << ":" << port_of(listener) << std::endl;
    Engine engine(engine_options(options));
    int games_done = 0;
    int rc         = 0;
    while (options.games <= 0 || games_done < options.games) {
        const int fd = ::accept(listener, nullptr, nullptr);
        if (fd < 0) {
            if (errno == EINTR || errno == ECONNABORTED) {
                continue;
            }
            err << "dxp: error: accept failed: " << std::strerror(errno) << '\n';
            rc = 1;
            break;
        }
        Connection conn(fd);
        out << "dxp: connection accepted" << std::endl;
        Session session(conn, options, engine, out, err, games_done);
        (void)session.run();
        out << "dxp: connection closed" << std::endl;
    }
    ::close(listener);
    return rc;
}

}  // namespace papan::engine
