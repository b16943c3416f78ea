// The load tool. Each game slot is a Session: one connection (hot-seat: the client plays both
// sides, the server still checks every move) or two (friend: the creator and the player who
// joins by the invite, round robin over the URLs). A session's connections, timers and game share
// one strand, so the game's bookkeeping needs no lock. One move in flight per game. With
// --reconnect a dropped connection comes back (backoff, next URL), says hello with the same guest
// secret, resumes the game with the last version it saw and sorts out the move that was in
// flight from the state the server returns. Asio/Beast are compiled once in papan_server
// (BOOST_*_SEPARATE_COMPILATION), as everywhere in the project.
#include <papan/loadtest/loadtest.hpp>

#include <boost/asio/bind_executor.hpp>
#include <boost/asio/connect.hpp>
#include <boost/asio/dispatch.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/beast/core/buffers_to_string.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/string_body.hpp>
#include <boost/beast/http/write.hpp>
#include <boost/beast/websocket/stream.hpp>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cmath>
#include <csignal>
#include <deque>
#include <functional>
#include <iomanip>
#include <memory>
#include <mutex>
#include <optional>
#include <random>
#include <sstream>
#include <stdexcept>
#include <thread>

namespace papan::loadtest {

namespace net       = boost::asio;
namespace beast     = boost::beast;
namespace http      = beast::http;
namespace websocket = beast::websocket;
using tcp           = net::ip::tcp;
using Clock         = std::chrono::steady_clock;
using Json          = nlohmann::json;

std::string parse_url(const std::string& text, Url& out) {
    const std::string scheme = "ws://";
    if (text.rfind(scheme, 0) != 0) {
        return "the URL must start with ws:// (got '" + text + "')";
    }
    std::string rest      = text.substr(scheme.size());
    const auto slash      = rest.find('/');
    std::string authority = rest.substr(0, slash);
    out.path              = slash == std::string::npos ? "/" : rest.substr(slash);
    if (authority.empty()) {
        return "the URL has no host: '" + text + "'";
    }
    std::string host = authority;
    std::string port = "80";
    if (authority.front() == '[') {  // [v6]:port
        const auto close = authority.find(']');
        if (close == std::string::npos) {
            return "bad IPv6 host in '" + text + "'";
        }
        host = authority.substr(1, close - 1);
        if (close + 1 < authority.size()) {
            if (authority[close + 1] != ':') {
                return "bad host:port in '" + text + "'";
            }
            port = authority.substr(close + 2);
        }
    } else if (const auto colon = authority.rfind(':'); colon != std::string::npos) {
        host = authority.substr(0, colon);
        port = authority.substr(colon + 1);
    }
    if (host.empty() || port.empty() || port.size() > 5 ||
        !std::all_of(port.begin(), port.end(), [](char c) { return c >= '0' && c <= '9'; }) ||
        std::stoi(port) < 1 || std::stoi(port) > 65535) {
        return "bad host:port in '" + text + "'";
    }
    out.host = host;
    out.port = port;
    return {};
}

LatencySummary summarize(std::vector<std::int64_t> samples) {
    LatencySummary s;
    if (samples.empty()) {
        return s;
    }
    std::sort(samples.begin(), samples.end());
    const auto at = [&](double q) {
        const auto n = samples.size();
        auto rank    = static_cast<std::size_t>(std::ceil(q * static_cast<double>(n)));
        rank         = std::clamp<std::size_t>(rank, 1, n);
        return static_cast<double>(samples[rank - 1]) / 1000.0;
    };
    s.p50_ms   = at(0.50);
    s.p95_ms   = at(0.95);
    s.p99_ms   = at(0.99);
    s.max_ms   = static_cast<double>(samples.back()) / 1000.0;
    double sum = 0;
    for (const auto v : samples) {
        sum += static_cast<double>(v);
    }
    s.mean_ms = sum / static_cast<double>(samples.size()) / 1000.0;
    return s;
}

namespace {

// The squares of a move text: "22x33x24" -> {22, 33, 24}; "c3-d4" -> {c3, d4}.
std::vector<std::string> squares_of(const std::string& text) {
    std::vector<std::string> out;
    std::string cur;
    for (const char c : text) {
        if (c == '-' || c == 'x' || c == ':') {
            out.push_back(cur);
            cur.clear();
        } else {
            cur += c;
        }
    }
    out.push_back(cur);
    return out;
}

}  // namespace

// The same move in two notations: the stored record writes a capture with every landing square
// ("22x33x24") where the move event may give only its ends ("22x24") when that is unambiguous.
bool same_move(const std::string& a, const std::string& b) {
    if (a == b) {
        return true;
    }
    const auto sa        = squares_of(a);
    const auto sb        = squares_of(b);
    const bool capture_a = a.find('x') != std::string::npos || a.find(':') != std::string::npos;
    const bool capture_b = b.find('x') != std::string::npos || b.find(':') != std::string::npos;
    return capture_a == capture_b && sa.size() >= 2 && sb.size() >= 2 && sa.front() == sb.front() &&
           sa.back() == sb.back() && (sa.size() == 2 || sb.size() == 2);
}

VerifyCounts compare_game(const GameCheck& g, const std::vector<std::string>& stored) {
    VerifyCounts c;
    const auto note = [&](std::size_t p, const std::string& what) {
        if (c.first_mismatch.empty()) {
            c.first_mismatch = "game " + g.id + " ply " + std::to_string(p) + ": " + what;
        }
    };
    for (std::size_t p = 0; p < g.acked.size(); ++p) {
        if (g.acked[p] && (p >= stored.size() || !same_move(stored[p], g.acked_text[p]))) {
            ++c.lost;
            note(p,
                 "acknowledged '" + g.acked_text[p] + "', stored " +
                     (p < stored.size() ? "'" + stored[p] + "'" : "nothing"));
        }
    }
    for (std::size_t p = 0; p < stored.size(); ++p) {
        const bool acked_here = p < g.acked.size() && g.acked[p];
        if (acked_here && same_move(stored[p], g.acked_text[p])) {
            continue;
        }
        if (!acked_here && p < g.sent.size() && same_move(stored[p], g.sent[p])) {
            ++c.stored_unacked;  // sent, stored, ack still in flight when the run ended
            continue;
        }
        ++c.duplicated;  // a stored move the client never saw acknowledged nor sent for this ply
        note(p,
             "stored '" + stored[p] + "', sent " +
                 (p < g.sent.size() ? "'" + g.sent[p] + "'" : "nothing"));
    }
    return c;
}

std::vector<std::string> split_urls(const std::vector<std::string>& values) {
    std::vector<std::string> out;
    for (const auto& v : values) {
        std::size_t at = 0;
        while (at <= v.size()) {
            const auto comma = v.find(',', at);
            std::string part =
                v.substr(at, comma == std::string::npos ? std::string::npos : comma - at);
            const auto first = part.find_first_not_of(" \t");
            const auto last  = part.find_last_not_of(" \t");
            if (first != std::string::npos) {
                out.push_back(part.substr(first, last - first + 1));
            }
            if (comma == std::string::npos) {
                break;
            }
            at = comma + 1;
        }
    }
    return out;
}

std::optional<Mode> parse_mode(const std::string& text) {
    if (text == "hotseat") {
        return Mode::Hotseat;
    }
    if (text == "friend") {
        return Mode::Friend;
    }
    return std::nullopt;
}

std::string mode_name(Mode mode) {
    return mode == Mode::Friend ? "friend" : "hotseat";
}

std::string validate(const Options& o) {
    if (o.urls.empty()) {
        return "--url is required";
    }
    if (o.urls.size() > static_cast<std::size_t>(kMaxUrls)) {
        return "at most " + std::to_string(kMaxUrls) + " URLs";
    }
    for (const auto& u : o.urls) {
        Url parsed;
        if (auto e = parse_url(u, parsed); !e.empty()) {
            return e;
        }
    }
    if (o.games < 1 || o.games > kMaxConcurrentGames) {
        return "--games must be 1-" + std::to_string(kMaxConcurrentGames);
    }
    if (!(o.rate > 0.0) || o.rate > 100000.0) {
        return "--rate must be > 0 (games per second)";
    }
    if (!(o.duration > 0.0) || o.duration > kMaxDuration) {
        return "--duration must be > 0 and at most " +
               std::to_string(static_cast<int>(kMaxDuration)) + " s";
    }
    if (o.max_games < 0 || o.think_ms < 0 || o.max_errors < 0) {
        return "--max-games, --think and --max-errors must not be negative";
    }
    if (o.drain < 0.0 || o.drain > 600.0) {
        return "--drain must be 0-600 s";
    }
    if (!(o.stall > 0.0) || o.stall > 600.0) {
        return "--stall must be > 0 and at most 600 s";
    }
    if (o.threads < 1 || o.threads > kMaxThreads) {
        return "--threads must be 1-" + std::to_string(kMaxThreads);
    }
    return {};
}

std::int64_t backoff_ms(int attempt) {
    std::int64_t ms = 100;
    for (int i = 0; i < attempt && ms < 1000; ++i) {
        ms *= 2;
    }
    return std::min<std::int64_t>(ms, 1000);
}

std::size_t initial_url(int slot, int player, std::size_t url_count) {
    if (url_count == 0) {
        return 0;
    }
    return static_cast<std::size_t>(slot + player) % url_count;
}

std::size_t next_url(std::size_t current, std::size_t url_count) {
    return url_count == 0 ? 0 : (current + 1) % url_count;
}

InFlight classify_in_flight(int pending_ply,
                            const std::string& sent_text,
                            int server_ply,
                            const std::vector<std::string>& server_moves) {
    if (server_ply < pending_ply) {
        return InFlight::RolledBack;
    }
    if (server_ply == pending_ply) {
        return InFlight::NotStored;
    }
    const auto p = static_cast<std::size_t>(pending_ply);
    if (p < server_moves.size() && same_move(server_moves[p], sent_text)) {
        return InFlight::Stored;
    }
    return InFlight::Different;
}

std::string in_flight_name(InFlight f) {
    switch (f) {
    case InFlight::NotStored:
        return "not_stored";
    case InFlight::Stored:
        return "stored";
    case InFlight::Different:
        return "different";
    case InFlight::RolledBack:
        return "rolled_back";
    }
    return "?";
}

std::int64_t count_opponent_missed(const GameCheck& g) {
    std::int64_t n = 0;
    for (std::size_t p = 0; p < g.acked.size(); ++p) {
        if (g.acked[p] && p < g.opponent_seen.size() && !g.opponent_seen[p]) {
            ++n;
        }
    }
    return n;
}

namespace {

std::string fixed(double v, int digits) {
    std::ostringstream s;
    s << std::fixed << std::setprecision(digits) << v;
    return s.str();
}

using Strand = net::strand<net::io_context::executor_type>;

// With --reconnect, errors in a row (on moves, resumes or creates) before a game is given up:
// with the retries' backoff (100 ms doubling to 1 s) that is about half a minute.
constexpr int kMaxErrorsInARow = 30;
// With --reconnect, seconds a resume or join may go unanswered before it is sent again.
constexpr double kRequestTimeout = 1.0;
using Ws                         = websocket::stream<beast::tcp_stream>;

// State shared by the sessions; the counters are guarded by `mu`.
struct Shared {
    Options opt;
    std::vector<Url> urls;
    std::vector<tcp::resolver::results_type> endpoints;
    net::io_context ioc;
    std::atomic<bool> stopping{false};
    std::atomic<int> games_created{0};
    std::atomic<int> active{0};
    int max_games = 0;
    Clock::time_point start;
    std::atomic<std::int64_t> messages_in{0};

    std::mutex mu;
    std::vector<std::int64_t> latencies_us;
    std::vector<std::int64_t> resume_us;
    std::map<std::string, std::int64_t> errors;
    std::int64_t moves = 0;
    Clock::time_point last_ack;
    int games_finished = 0;
    int live           = 0;
    int peak           = 0;
    std::vector<GameCheck> games;
    ReconnectReport rc;  // the counters (figures over all sessions)

    void error(const std::string& code) {
        const std::lock_guard lock(mu);
        ++errors[code];
    }

    template <class F>
    void locked(F&& f) {
        const std::lock_guard lock(mu);
        f();
    }
};

// One WebSocket connection. A reconnection makes a new one; the handlers of the old one hold it
// alive until they have run and find it is no longer their player's current link.
struct Link {
    explicit Link(const Strand& s) : ws(s) {}

    Ws ws;
    beast::flat_buffer buf;
    std::deque<std::string> outbox;
    bool writing      = false;
    bool up           = false;  // the handshake is done
    bool closing      = false;  // we are closing it (its failure is not an error)
    bool close_wanted = false;  // close once the outbox is written
};

enum class Phase {
    Down,
    Connecting,
    Welcoming,
    Ready
};

// One player of a game and its connection.
struct Player {
    explicit Player(const Strand& s) : retry(s), quiet(s), wait(s) {}

    int index       = 0;
    std::size_t url = 0;
    std::shared_ptr<Link> link;
    Phase phase = Phase::Down;
    net::steady_timer retry;  // the next reconnection, or the next resume after a refused one
    net::steady_timer quiet;  // a resume answered by missed events: done when they stop coming
    net::steady_timer wait;   // a resume or join unanswered for --stall seconds is sent again
    bool retrying           = false;
    std::uint64_t retry_gen = 0;
    int attempt             = 0;  // failed reconnections in a row
    int resume_errors       = 0;  // resumes refused in a row
    std::string name;
    std::string secret;  // the guest secret from the first welcome: the same player again
    std::string player_id;
    bool dropped = false;  // lost its connection; not yet back in its game
    Clock::time_point drop_at;
    bool resyncing            = false;  // resume sent, its answer not complete
    std::int64_t resync_id    = 0;
    bool have_version         = false;
    std::int64_t last_version = 0;      // of the current game, as this connection saw it
    int seen_ply              = 0;      // highest ply of the current game seen on this connection
    bool joined               = false;  // friend joiner: seated in the current game
    bool join_pending         = false;
    int join_attempts         = 0;
    std::int64_t join_id      = 0;
};

class Session : public std::enable_shared_from_this<Session> {
public:
    Session(Shared& sh, int slot, std::function<void()> on_done)
        : sh_(sh)
        , slot_(slot)
        , on_done_(std::move(on_done))
        , strand_(net::make_strand(sh.ioc))
        , think_timer_(strand_)
        , stall_timer_(strand_)
        , end_timer_(strand_)
        , rng_(sh.opt.seed * std::uint64_t{1000003} + static_cast<std::uint64_t>(slot)) {
        const int n = sh.opt.mode == Mode::Friend ? 2 : 1;
        for (int i = 0; i < n; ++i) {
            auto p   = std::make_unique<Player>(strand_);
            p->index = i;
            p->url   = initial_url(slot, i, sh.urls.size());
            p->name  = "load-" + std::to_string(slot);
            if (n == 2) {
                p->name += i == 0 ? "a" : "b";
            }
            players_.push_back(std::move(p));
        }
    }

    [[nodiscard]] int connections() const { return static_cast<int>(players_.size()); }

    // The runner has counted this session as active.
    void start() {
        net::dispatch(strand_, [self = shared_from_this()] {
            for (int i = 0; i < self->connections(); ++i) {
                self->connect(i);
            }
        });
    }

    // The duration is over: no new moves; close once the move in flight is acknowledged.
    void deadline() {
        net::post(strand_, [self = shared_from_this()] {
            self->deadline_ = true;
            self->think_timer_.cancel();
            self->maybe_close();
        });
    }

    // The drain time is over: drop the sockets whatever is in flight.
    void force_close() {
        net::post(strand_, [self = shared_from_this()] {
            if (self->done_) {
                return;
            }
            if (self->pending_) {
                self->sh_.error("no_ack");
            }
            if (!self->closing_) {
                self->closing_ = true;
                self->cancel_timers();
                self->store_game();
            }
            for (auto& p : self->players_) {
                p->retry.cancel();
                p->quiet.cancel();
                p->wait.cancel();
                if (p->link) {
                    p->link->closing = true;
                    beast::get_lowest_layer(p->link->ws).close();
                }
            }
            self->check_finished();
        });
    }

private:
    // --- connections ------------------------------------------------------------------------

    [[nodiscard]] bool current(int pi, const std::shared_ptr<Link>& link) const {
        return players_[static_cast<std::size_t>(pi)]->link == link;
    }

    Player& player(int pi) { return *players_[static_cast<std::size_t>(pi)]; }

    [[nodiscard]] bool friend_mode() const { return players_.size() == 2; }

    void connect(int pi) {
        Player& p = player(pi);
        p.phase   = Phase::Connecting;
        auto link = std::make_shared<Link>(strand_);
        p.link    = link;
        auto& s   = beast::get_lowest_layer(link->ws);
        s.expires_after(std::chrono::seconds(5));
        s.async_connect(
            sh_.endpoints[p.url],
            [self = shared_from_this(), pi, link](beast::error_code ec, const tcp::endpoint&) {
                self->on_connect(pi, link, ec);
            });
    }

    void on_connect(int pi, const std::shared_ptr<Link>& link, beast::error_code ec) {
        if (!current(pi, link)) {
            return;
        }
        if (ec) {
            link_failed(pi, "connect");
            return;
        }
        auto& s = beast::get_lowest_layer(link->ws);
        s.expires_never();
        beast::error_code ignored;
        s.socket().set_option(tcp::no_delay(true), ignored);
        link->ws.set_option(websocket::stream_base::timeout::suggested(beast::role_type::client));
        link->ws.read_message_max(std::size_t{4} << 20);
        const Url& u = sh_.urls[player(pi).url];
        link->ws.async_handshake(u.host + ":" + u.port,
                                 u.path,
                                 [self = shared_from_this(), pi, link](beast::error_code e) {
                                     self->on_handshake(pi, link, e);
                                 });
    }

    void on_handshake(int pi, const std::shared_ptr<Link>& link, beast::error_code ec) {
        if (!current(pi, link)) {
            return;
        }
        if (ec) {
            link_failed(pi, "handshake");
            return;
        }
        link->up  = true;
        Player& p = player(pi);
        p.phase   = Phase::Welcoming;
        Json hello{{"type", "hello"}, {"name", p.name}};
        if (!p.secret.empty()) {
            hello["secret"] = p.secret;
        }
        send(pi, hello);
        read(pi, link);
    }

    void read(int pi, const std::shared_ptr<Link>& link) {
        link->ws.async_read(
            link->buf, [self = shared_from_this(), pi, link](beast::error_code ec, std::size_t) {
                self->on_read(pi, link, ec);
            });
    }

    void on_read(int pi, const std::shared_ptr<Link>& link, beast::error_code ec) {
        if (!current(pi, link)) {
            return;
        }
        if (ec) {
            link_failed(pi, ec == websocket::error::closed ? "closed_by_server" : "read");
            return;
        }
        ++sh_.messages_in;
        Json msg = Json::parse(beast::buffers_to_string(link->buf.data()), nullptr, false);
        link->buf.consume(link->buf.size());
        if (msg.is_discarded() || !msg.is_object()) {
            sh_.error("client_bad_json");
        } else {
            handle(pi, msg);
        }
        if (current(pi, link)) {
            read(pi, link);
        }
    }

    void send(int pi, const Json& j) {
        const auto link = player(pi).link;
        if (!link || !link->up || link->closing) {
            return;  // dropped: what is still needed is sent again after the reconnection
        }
        link->outbox.push_back(j.dump());
        if (!link->writing) {
            write_next(pi, link);
        }
    }

    void write_next(int pi, const std::shared_ptr<Link>& link) {
        link->writing = true;
        link->ws.text(true);
        link->ws.async_write(
            net::buffer(link->outbox.front()),
            [self = shared_from_this(), pi, link](beast::error_code ec, std::size_t) {
                self->on_write(pi, link, ec);
            });
    }

    void on_write(int pi, const std::shared_ptr<Link>& link, beast::error_code ec) {
        link->writing = false;
        if (!current(pi, link)) {
            return;
        }
        if (ec) {
            link_failed(pi, "write");
            return;
        }
        link->outbox.pop_front();
        if (!link->outbox.empty()) {
            write_next(pi, link);
        } else if (link->close_wanted) {
            start_close(pi, link);
        }
    }

    void start_close(int pi, const std::shared_ptr<Link>& link) {
        link->close_wanted = false;
        link->ws.async_close(websocket::close_code::normal,
                             [self = shared_from_this(), pi, link](beast::error_code) {
                                 if (self->current(pi, link)) {
                                     self->link_failed(pi, "close");  // ours: not an error
                                 }
                             });
    }

    // The current link of player pi is gone (failed, dropped by the server, or closed by us).
    void link_failed(int pi, const std::string& code) {
        Player& p = player(pi);
        auto link = std::move(p.link);
        p.link.reset();
        const bool was_up = link && link->up;
        const bool ours   = link && link->closing;
        if (link) {
            beast::get_lowest_layer(link->ws).close();
        }
        p.phase     = Phase::Down;
        p.resyncing = false;
        p.quiet.cancel();
        p.wait.cancel();
        if (closing_ || ours) {
            check_finished();
            return;
        }
        if (!sh_.opt.reconnect) {
            sh_.error(code);
            begin_close();
            return;
        }
        const auto now = Clock::now();
        if (was_up) {
            sh_.locked([&] { ++sh_.rc.drops; });
            if (!p.dropped) {
                p.dropped = true;
                p.drop_at = now;
            }
            if (in_game_ && !game_.id.empty()) {
                game_.continuity.on_drop();
            }
            if (pending_ && pending_player_ == pi) {
                pending_crossed_drop_ = true;
            }
        } else {
            sh_.locked([&] { ++sh_.rc.failed_attempts; });
        }
        if (deadline_) {
            maybe_close();
            if (closing_) {
                return;
            }
        }
        schedule_reconnect(pi);
    }

    void schedule_reconnect(int pi) {
        Player& p       = player(pi);
        const auto wait = backoff_ms(p.attempt++);
        p.url           = next_url(p.url, sh_.urls.size());
        retry_after(pi, wait, [](Session& self, int i) { self.connect(i); });
    }

    // A resume was refused (e.g. the game is being taken over by another node): ask again soon.
    void schedule_resume(int pi) {
        retry_after(pi, backoff_ms(player(pi).resume_errors), [](Session& self, int i) {
            if (self.player(i).phase == Phase::Ready && self.in_game_ && !self.game_.id.empty()) {
                self.send_resume(i, false);
            }
        });
    }

    // Runs `then` for player pi after wait_ms on its retry timer, unless the timer is used again
    // meanwhile or the session is closing.
    template <class Then>
    void retry_after(int pi, std::int64_t wait_ms, Then then) {
        Player& p  = player(pi);
        p.retrying = true;
        p.retry.expires_after(std::chrono::milliseconds(wait_ms));
        p.retry.async_wait(
            [self = shared_from_this(), pi, gen = ++p.retry_gen, then](beast::error_code ec) {
                Player& q = self->player(pi);
                if (q.retry_gen != gen) {
                    return;  // superseded by a later use of the timer
                }
                q.retrying = false;
                if (ec || self->closing_) {
                    self->check_finished();
                    return;
                }
                then(*self, pi);
            });
    }

    void cancel_timers() {
        think_timer_.cancel();
        stall_timer_.cancel();
        end_timer_.cancel();
    }

    // Stops the session: no new game; graceful closes; done when every link is gone.
    void begin_close() {
        if (closing_) {
            check_finished();
            return;
        }
        closing_ = true;
        cancel_timers();
        store_game();
        for (int i = 0; i < connections(); ++i) {
            Player& p = player(i);
            p.retry.cancel();
            p.quiet.cancel();
            p.wait.cancel();
            if (!p.link) {
                continue;
            }
            p.link->closing = true;
            if (!p.link->up) {
                beast::get_lowest_layer(p.link->ws).close();
            } else if (p.link->writing || !p.link->outbox.empty()) {
                p.link->close_wanted = true;
            } else {
                start_close(i, p.link);
            }
        }
        check_finished();
    }

    void check_finished() {
        if (done_ || !closing_) {
            return;
        }
        for (const auto& p : players_) {
            if (p->link || p->retrying) {
                return;
            }
        }
        done_ = true;
        cancel_timers();
        --sh_.active;
        on_done_();
    }

    // --- messages ---------------------------------------------------------------------------

    void handle(int pi, const Json& msg) {
        Player& p              = player(pi);
        const std::string type = msg.value("type", "");
        const std::int64_t ref = msg.contains("ref") && msg["ref"].is_number_integer()
                                     ? msg["ref"].get<std::int64_t>()
                                     : -1;
        if (type == "welcome") {
            on_welcome(pi, msg);
        } else if (type == "created") {
            if (pi == 0 && awaiting_create_ && ref == create_id_) {
                awaiting_create_ = false;
                create_errors_   = 0;
                game_.id         = msg.value("game", "");
                invite_          = msg.value("invite", "");
                if (friend_mode()) {
                    maybe_join();
                }
            }
        } else if (type == "state" || type == "event") {
            if (game_.id.empty() || msg.value("game", "") != game_.id || !msg.contains("state") ||
                !msg["state"].is_object()) {
                return;
            }
            on_game_message(pi, msg, type == "event", ref);
        } else if (type == "resumed") {
            if (p.resyncing && ref == p.resync_id && msg.value("game", "") == game_.id) {
                p.have_version = true;
                p.last_version = msg.value("version", p.last_version);
                finish_resync(pi, true);
            }
        } else if (type == "error") {
            on_error(pi, msg, ref);
        }
    }

    void on_welcome(int pi, const Json& msg) {
        Player& p = player(pi);
        if (p.phase != Phase::Welcoming) {
            return;
        }
        p.phase   = Phase::Ready;
        p.attempt = 0;
        if (msg.contains("secret") && msg["secret"].is_string()) {
            p.secret = msg["secret"].get<std::string>();
        }
        if (msg.contains("player") && msg["player"].is_object()) {
            p.player_id = msg["player"].value("id", "");
        }
        if (p.dropped) {
            sh_.locked([&] { ++sh_.rc.reconnects; });
        }
        sync(pi);
    }

    // A connection said hello (first time or again): get back into the game, or start one.
    void sync(int pi) {
        Player& p = player(pi);
        if (closing_) {
            return;
        }
        if (!in_game_) {
            resumed(pi);  // nothing to resume: the welcome ends the outage
            if (pi == 0) {
                new_game();
            }
            return;
        }
        if (game_.id.empty()) {
            // The create was in flight when the connection dropped: that game is unknown (if it
            // was stored, it holds no move); start another one.
            resumed(pi);
            if (pi == 0) {
                sh_.locked([&] { ++sh_.rc.creates_unanswered; });
                store_game();
                new_game();
            }
            return;
        }
        if (friend_mode() && pi == 1 && !p.joined) {
            p.join_pending = false;
            maybe_join();
            return;
        }
        send_resume(pi, true);
    }

    void maybe_join() {
        Player& p = player(1);
        if (p.phase != Phase::Ready || invite_.empty() || p.joined || p.join_pending) {
            return;
        }
        p.join_pending = true;
        ++p.join_attempts;
        p.join_id = ++next_id_;
        send(1, Json{{"type", "join"}, {"id", p.join_id}, {"invite", invite_}});
        arm_request_timeout(1, p.join_id);
    }

    void send_resume(int pi, bool with_version) {
        Player& p   = player(pi);
        p.resyncing = true;
        p.resync_id = ++next_id_;
        Json j{{"type", "resume"}, {"id", p.resync_id}, {"game", game_.id}};
        if (with_version && p.have_version) {
            j["last_version"] = p.last_version;
        }
        send(pi, j);
        arm_request_timeout(pi, p.resync_id);
    }

    // With reconnection: a resume or join that gets no answer (it may have gone to a node that
    // died, or to one that does not have the game yet) is sent again after a second (or --stall
    // if shorter).
    void arm_request_timeout(int pi, std::int64_t id) {
        if (!sh_.opt.reconnect) {
            return;
        }
        Player& p = player(pi);
        p.wait.expires_after(std::chrono::duration_cast<Clock::duration>(
            std::chrono::duration<double>(std::min(sh_.opt.stall, kRequestTimeout))));
        p.wait.async_wait([self = shared_from_this(), pi, id](beast::error_code ec) {
            if (ec || self->closing_) {
                return;
            }
            Player& q = self->player(pi);
            if (q.phase != Phase::Ready) {
                return;
            }
            if (q.resyncing && q.resync_id == id) {
                self->sh_.locked([&] { ++self->sh_.rc.request_timeouts; });
                self->send_resume(pi, true);
            } else if (q.join_pending && q.join_id == id) {
                self->sh_.locked([&] { ++self->sh_.rc.request_timeouts; });
                q.join_pending = false;
                self->maybe_join();
            }
        });
    }

    // The connection is back in its game (or there was none): the outage of pi is over.
    void resumed(int pi) {
        Player& p = player(pi);
        if (!p.dropped) {
            return;
        }
        p.dropped = false;
        const auto us =
            std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - p.drop_at).count();
        sh_.locked([&] { sh_.resume_us.push_back(us); });
    }

    static bool is_player(const Json& st, const std::string& id) {
        if (id.empty() || !st.contains("players") || !st["players"].is_object()) {
            return false;
        }
        for (const char* side : {"white", "black"}) {
            const auto it = st["players"].find(side);
            if (it != st["players"].end() && it->is_object() && it->value("id", "") == id) {
                return true;
            }
        }
        return false;
    }

    void on_game_message(int pi, const Json& msg, bool is_event, std::int64_t ref) {
        Player& p      = player(pi);
        const Json& st = msg["state"];
        p.have_version = true;
        p.last_version = msg.value("version", p.last_version);
        const int sp   = st.value("ply", 0);
        p.seen_ply     = std::max(p.seen_ply, sp);
        if (friend_mode() && pi == 1 && !p.joined && is_player(st, p.player_id)) {
            p.joined       = true;
            p.join_pending = false;
            if (!p.resyncing) {
                resumed(pi);
            }
        }
        const bool resync_reply = p.resyncing && !is_event && ref == p.resync_id;
        if (pending_ && pending_player_ == pi) {
            if (is_event) {
                const Json& ev = msg["event"];
                if (ev.is_object() && ev.value("kind", "") == "move" && ev.contains("move") &&
                    ev["move"].is_object() && ev["move"].value("ply", -1) == pending_ply_) {
                    ack(ev["move"].value("text", ""));
                }
            } else if (ref == pending_id_ && sp > pending_ply_ && st.contains("moves") &&
                       st["moves"].is_array() &&
                       st["moves"].size() > static_cast<std::size_t>(pending_ply_)) {
                // The move was sent again (after a drop or a stall) and the server already had
                // it: it answers with the state. Stored, but no event acknowledged it here.
                settle_stored(
                    st["moves"][static_cast<std::size_t>(pending_ply_)].value("text", ""));
            }
        }
        // The two players' connections deliver the same events; the game's view is the most
        // advanced one (plies only grow in these games), or what a resume returns.
        if (!have_state_ || sp >= ply_ || resync_reply) {
            apply(st);
        }
        if (resync_reply) {
            finish_resync(pi);
            return;
        }
        if (p.resyncing && is_event) {
            // Missed events replayed after a resume: the resume is done when they stop.
            p.quiet.expires_after(std::chrono::milliseconds(300));
            p.quiet.async_wait([self = shared_from_this(), pi](beast::error_code ec) {
                if (!ec && self->player(pi).resyncing) {
                    self->finish_resync(pi);
                }
            });
            return;
        }
        progress();
    }

    void on_error(int pi, const Json& msg, std::int64_t ref) {
        Player& p              = player(pi);
        const std::string code = msg.value("code", "unknown");
        if (p.join_pending && ref == p.join_id) {
            p.join_pending = false;
            if (p.join_attempts > 1 && (code == "invite_invalid" || code == "invite_used")) {
                // Joined before the drop and the game has started since: the seat is ours.
                send_resume(pi, false);
                return;
            }
            sh_.error(code);
            end_game(false);
            return;
        }
        sh_.error(code);
        if (pending_ && pending_player_ == pi && ref == pending_id_) {
            pending_ = false;  // an error changes nothing: the move was not played
            stall_timer_.cancel();
            ++consecutive_errors_;
            if (!sh_.opt.reconnect) {
                if (consecutive_errors_ >= 3) {
                    end_game(false);  // give this game up; the next one starts clean
                } else {
                    progress();
                }
                return;
            }
            // With reconnection (a node may be down or taking games over): fetch the server's
            // state and play on from it; give the game up only after many errors in a row.
            if (consecutive_errors_ >= kMaxErrorsInARow) {
                end_game(false);
            } else if (code == "stale_ply" || code == "bad_ply" || code == "not_your_turn" ||
                       code == "not_started") {
                send_resume(pi, false);  // our view of the game is behind or ahead
            } else {
                player(pi).resume_errors = consecutive_errors_;
                schedule_resume(pi);
            }
            return;
        }
        if (awaiting_create_ && pi == 0 && ref == create_id_) {
            awaiting_create_ = false;
            store_game();
            if (!sh_.opt.reconnect || ++create_errors_ >= kMaxErrorsInARow) {
                begin_close();
                return;
            }
            // A node refusing now may accept in a moment: try a new game later.
            auto t = std::make_shared<net::steady_timer>(
                strand_, std::chrono::milliseconds(backoff_ms(create_errors_)));
            t->async_wait([self = shared_from_this(), t](beast::error_code ec) {
                if (!ec && !self->closing_ && !self->in_game_ &&
                    self->player(0).phase == Phase::Ready) {
                    self->new_game();
                }
            });
            return;
        }
        if (p.resyncing && ref == p.resync_id) {
            p.resyncing = false;
            if (!sh_.opt.reconnect || ++p.resume_errors >= kMaxErrorsInARow) {
                end_game(false);
            } else {
                schedule_resume(pi);
            }
        }
    }

    // --- the game ---------------------------------------------------------------------------

    void apply(const Json& st) {
        have_state_ = true;
        ply_        = st.value("ply", 0);
        legal_      = st.contains("legal_moves") && st["legal_moves"].is_array() ? st["legal_moves"]
                                                                                 : Json::array();
        const std::string status = st.value("status", "");
        over_     = (st.contains("result") && !st["result"].is_null()) || status == "over";
        playing_  = status == "playing";
        turn_     = st.value("turn", "");
        white_id_ = black_id_ = std::string{};
        if (st.contains("players") && st["players"].is_object()) {
            const Json& pl = st["players"];
            if (pl.contains("white") && pl["white"].is_object()) {
                white_id_ = pl["white"].value("id", "");
            }
            if (pl.contains("black") && pl["black"].is_object()) {
                black_id_ = pl["black"].value("id", "");
            }
        }
        moves_.clear();
        if (st.contains("moves") && st["moves"].is_array()) {
            for (const auto& m : st["moves"]) {
                moves_.push_back(m.is_object() ? m.value("text", "") : std::string{});
            }
        }
    }

    // A resume of pi was answered: settle the move pi had in flight, then play on.
    // `nothing_missed`: the server answered "resumed" (no event since our last version).
    void finish_resync(int pi, bool nothing_missed = false) {
        Player& p   = player(pi);
        p.resyncing = false;
        p.quiet.cancel();
        p.wait.cancel();
        p.resume_errors = 0;
        resumed(pi);
        if (pending_ && pending_player_ == pi) {
            switch (classify_in_flight(pending_ply_, pending_text_, ply_, moves_)) {
            case InFlight::NotStored:
                resent_after_resumed_ = nothing_missed;
                resend();
                break;
            case InFlight::Stored:
                pending_ = false;
                stall_timer_.cancel();
                sh_.locked([&] { ++sh_.rc.in_flight_stored; });
                break;
            case InFlight::Different:
                pending_ = false;
                stall_timer_.cancel();
                sh_.error("resume_other_move");
                break;
            case InFlight::RolledBack:
                pending_ = false;
                stall_timer_.cancel();
                sh_.error("resume_rolled_back");
                break;
            }
        }
        progress();
    }

    [[nodiscard]] int mover_index() const {
        if (!friend_mode()) {
            return 0;
        }
        const std::string& id = turn_ == "white" ? white_id_ : black_id_;
        for (std::size_t i = 0; i < players_.size(); ++i) {
            if (!id.empty() && players_[i]->player_id == id) {
                return static_cast<int>(i);
            }
        }
        return -1;
    }

    // Friend games: an acknowledged move the other player's connection has not seen yet.
    [[nodiscard]] bool awaiting_opponent() const {
        if (!friend_mode() || !in_game_) {
            return false;
        }
        return players_[1]->seen_ply <= last_acked_by_[0] ||
               players_[0]->seen_ply <= last_acked_by_[1];
    }

    // Whatever changed, do what comes next: the next move, the end of the game, the close.
    void progress() {
        if (closing_) {
            return;
        }
        if (!in_game_ || game_.id.empty() || !have_state_) {
            maybe_close();
            return;
        }
        if (over_) {
            maybe_end_game();
            return;
        }
        if (deadline_) {
            maybe_close();
            return;
        }
        if (pending_ || !playing_) {
            return;
        }
        const int m = mover_index();
        if (m < 0) {
            return;
        }
        const Player& p = player(m);
        if (p.phase != Phase::Ready || p.resyncing) {
            return;  // the mover is reconnecting: it plays once it is back
        }
        if (legal_.empty()) {
            end_game(false);
            return;
        }
        if (Clock::now() < next_move_at_) {
            if (!think_armed_) {
                think_armed_ = true;
                think_timer_.expires_at(next_move_at_);
                think_timer_.async_wait([self = shared_from_this()](beast::error_code ec) {
                    self->think_armed_ = false;
                    if (!ec) {
                        self->progress();
                    }
                });
            }
            return;
        }
        send_move(m);
    }

    void send_move(int m) {
        std::uniform_int_distribution<std::size_t> pick(0, legal_.size() - 1);
        const Json& mv        = legal_[pick(rng_)];
        pending_              = true;
        pending_ply_          = ply_;
        pending_player_       = m;
        pending_crossed_drop_ = false;
        pending_path_         = mv.value("path", Json::array());
        pending_text_         = mv.value("text", "");
        const auto p          = static_cast<std::size_t>(ply_);
        if (game_.sent.size() <= p) {
            game_.sent.resize(p + 1);
        }
        game_.sent[p] = pending_text_;
        transmit();
    }

    // The move in flight was not stored (or its ack is overdue): the same move again.
    void resend() {
        sh_.locked([&] { ++sh_.rc.resent; });
        pending_crossed_drop_ = false;
        transmit();
    }

    void transmit() {
        pending_id_ = ++next_id_;
        sent_at_    = Clock::now();
        send(pending_player_,
             Json{{"type", "move"},
                  {"id", pending_id_},
                  {"game", game_.id},
                  {"ply", pending_ply_},
                  {"path", pending_path_}});
        arm_stall();
    }

    void arm_stall() {
        if (!sh_.opt.reconnect) {
            return;
        }
        stall_timer_.expires_after(std::chrono::duration_cast<Clock::duration>(
            std::chrono::duration<double>(sh_.opt.stall)));
        stall_timer_.async_wait(
            [self = shared_from_this(), id = pending_id_](beast::error_code ec) {
                if (ec || !self->pending_ || self->pending_id_ != id || self->closing_) {
                    return;
                }
                // No ack for --stall seconds: resume the game on the mover's connection (which
                // settles the move as after a drop: stored, or sent again).
                Player& p = self->player(self->pending_player_);
                if (p.phase == Phase::Ready && !p.resyncing) {
                    self->sh_.locked([&] { ++self->sh_.rc.stalls; });
                    self->send_resume(self->pending_player_, true);
                }
                self->arm_stall();
            });
    }

    // The move in flight turned out to be stored already (a resend was answered with the state):
    // it counts as stored but not acknowledged (compare_game: stored_unacked).
    void settle_stored(const std::string& text) {
        sh_.locked([&] {
            ++sh_.rc.in_flight_stored;
            if (resent_after_resumed_) {
                // "resumed" said nothing was missed, yet the move had been stored: the server's
                // version did not count the move's event.
                ++sh_.rc.resumed_but_stored;
            }
        });
        if (!same_move(text, pending_text_)) {
            sh_.error("resume_other_move");
        }
        pending_              = false;
        resent_after_resumed_ = false;
        consecutive_errors_   = 0;
        stall_timer_.cancel();
    }

    void ack(const std::string& text) {
        const auto now = Clock::now();
        const auto us =
            std::chrono::duration_cast<std::chrono::microseconds>(now - sent_at_).count();
        sh_.locked([&] {
            if (!pending_crossed_drop_) {  // a move sent before a drop has no round trip time
                sh_.latencies_us.push_back(us);
            }
            ++sh_.moves;
            sh_.last_ack = std::max(sh_.last_ack, now);
        });
        const auto p = static_cast<std::size_t>(pending_ply_);
        if (game_.acked.size() <= p) {
            game_.acked.resize(p + 1, false);
            game_.acked_text.resize(p + 1);
            mover_.resize(p + 1, 0);
        }
        game_.acked[p]      = true;
        game_.acked_text[p] = text;
        mover_[p]           = pending_player_;
        auto& last          = last_acked_by_[static_cast<std::size_t>(pending_player_)];
        last                = std::max(last, pending_ply_);
        game_.continuity.on_ack();
        resent_after_resumed_ = false;
        pending_              = false;
        consecutive_errors_   = 0;
        stall_timer_.cancel();
        next_move_at_ = now + std::chrono::milliseconds(sh_.opt.think_ms);
    }

    void maybe_end_game() {
        if (pending_) {
            return;  // our last move's ack has not come on the mover's connection yet
        }
        if (awaiting_opponent() && !end_wait_over_) {
            // Give the other player's connection time to see the last move (else it counts as
            // opponent_missed).
            if (!end_wait_armed_) {
                end_wait_armed_ = true;
                end_timer_.expires_after(std::chrono::duration_cast<Clock::duration>(
                    std::chrono::duration<double>(sh_.opt.stall)));
                end_timer_.async_wait([self = shared_from_this()](beast::error_code ec) {
                    self->end_wait_armed_ = false;
                    if (!ec) {
                        self->end_wait_over_ = true;
                        self->progress();
                    }
                });
            }
            return;
        }
        end_game(true);
    }

    // Leaves the current game (ended by the rules or given up) and starts the next one.
    void end_game(bool finished_by_rules) {
        if (finished_by_rules) {
            sh_.locked([&] { ++sh_.games_finished; });
            game_.continuity.on_end();
        }
        store_game();
        if (deadline_) {
            maybe_close();
            return;
        }
        if (player(0).phase == Phase::Ready) {
            new_game();  // else at the creator's next welcome
        }
    }

    void new_game() {
        if (in_game_ || closing_) {
            return;
        }
        if (deadline_ || sh_.stopping || sh_.games_created.fetch_add(1) >= sh_.max_games) {
            begin_close();
            return;
        }
        sh_.locked([&] {
            ++sh_.live;
            sh_.peak = std::max(sh_.peak, sh_.live);
        });
        in_game_            = true;
        awaiting_create_    = true;
        consecutive_errors_ = 0;
        next_move_at_       = Clock::now();
        create_id_          = ++next_id_;
        Json create{{"type", "create"},
                    {"id", create_id_},
                    {"mode", mode_name(sh_.opt.mode)},
                    {"variant", sh_.opt.variant}};
        if (friend_mode()) {
            create["color"] = slot_ % 2 == 0 ? "white" : "black";
            create["clock"] = nullptr;  // no clock: the time a killed server is down costs nothing
        }
        send(0, create);
    }

    // Hands the current game to the store check and clears the game's state.
    void store_game() {
        if (!in_game_) {
            return;
        }
        in_game_ = false;
        if (!game_.id.empty() && friend_mode()) {
            game_.opponent_seen.assign(game_.acked.size(), false);
            for (std::size_t p = 0; p < game_.acked.size(); ++p) {
                if (game_.acked[p]) {
                    const auto other       = static_cast<std::size_t>(1 - mover_[p]);
                    game_.opponent_seen[p] = players_[other]->seen_ply > static_cast<int>(p);
                }
            }
        }
        sh_.locked([&] {
            --sh_.live;
            if (!game_.id.empty()) {
                sh_.games.push_back(std::move(game_));
            }
        });
        game_ = GameCheck{};
        invite_.clear();
        awaiting_create_ = false;
        have_state_      = false;
        ply_             = 0;
        legal_           = Json::array();
        moves_.clear();
        over_    = false;
        playing_ = false;
        pending_ = false;
        mover_.clear();
        last_acked_by_ = {-1, -1};
        end_wait_over_ = false;
        stall_timer_.cancel();
        end_timer_.cancel();
        for (auto& p : players_) {
            p->have_version  = false;
            p->last_version  = 0;
            p->seen_ply      = 0;
            p->joined        = false;
            p->join_pending  = false;
            p->join_attempts = 0;
            p->resyncing     = false;
            p->resume_errors = 0;
            p->quiet.cancel();
            p->wait.cancel();
        }
    }

    // After the duration: close once nothing is awaited any more.
    void maybe_close() {
        if (closing_ || !deadline_) {
            return;
        }
        if (pending_ || awaiting_opponent()) {
            return;  // an ack, or the opponent's copy of one, is still expected
        }
        begin_close();
    }

    Shared& sh_;
    int slot_;
    std::function<void()> on_done_;
    Strand strand_;
    std::vector<std::unique_ptr<Player>> players_;
    net::steady_timer think_timer_;
    net::steady_timer stall_timer_;
    net::steady_timer end_timer_;
    std::mt19937_64 rng_;
    bool closing_         = false;
    bool done_            = false;
    bool deadline_        = false;
    bool think_armed_     = false;
    bool end_wait_armed_  = false;
    bool end_wait_over_   = false;
    std::int64_t next_id_ = 0;

    // The current game.
    bool in_game_ = false;
    GameCheck game_;
    std::string invite_;
    bool awaiting_create_   = false;
    std::int64_t create_id_ = 0;
    bool have_state_        = false;
    int ply_                = 0;
    Json legal_             = Json::array();
    std::vector<std::string> moves_;
    bool over_    = false;
    bool playing_ = false;
    std::string turn_;
    std::string white_id_;
    std::string black_id_;
    std::vector<int> mover_;                    // by ply: the player whose move was acknowledged
    std::array<int, 2> last_acked_by_{-1, -1};  // highest ply acknowledged per player
    int consecutive_errors_ = 0;
    int create_errors_      = 0;
    Clock::time_point next_move_at_;

    // The move in flight.
    bool pending_              = false;
    int pending_ply_           = 0;
    int pending_player_        = 0;
    std::int64_t pending_id_   = 0;
    bool pending_crossed_drop_ = false;
    bool resent_after_resumed_ = false;
    Json pending_path_         = Json::array();
    std::string pending_text_;
    Clock::time_point sent_at_;
};

// Starts the sessions at the rate, ends the play at the duration (or on SIGINT/SIGTERM), and the
// run after the drain at most.
class Runner {
public:
    explicit Runner(Shared& sh)
        : sh_(sh)
        , strand_(net::make_strand(sh.ioc))
        , start_timer_(strand_)
        , end_timer_(strand_)
        , drain_timer_(strand_)
        , signals_(sh.ioc, SIGINT, SIGTERM) {}

    void begin() {
        sh_.start = Clock::now();
        end_timer_.expires_after(to_duration(sh_.opt.duration));
        end_timer_.async_wait([this](beast::error_code ec) {
            if (!ec) {
                on_deadline();
            }
        });
        wait_signal();
        next_start_ = sh_.start;
        start_next();
    }

    [[nodiscard]] int started() const { return started_; }

    [[nodiscard]] int connections() const { return connections_; }

    [[nodiscard]] double played_s() const { return played_s_; }

    [[nodiscard]] bool signalled() const { return signalled_; }

private:
    static Clock::duration to_duration(double seconds) {
        return std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
    }

    void wait_signal() {
        signals_.async_wait(net::bind_executor(strand_, [this](beast::error_code ec, int) {
            if (ec || finished_) {
                return;
            }
            signalled_ = true;
            if (!deadline_passed_) {
                end_timer_.cancel();
                on_deadline();  // end the play now; drain and check as usual
            } else {
                for (auto& s : sessions_) {
                    s->force_close();  // a second signal: stop draining
                }
            }
            wait_signal();
        }));
    }

    void start_next() {
        if (sh_.stopping || started_ >= sh_.opt.games) {
            return;
        }
        auto s = std::make_shared<Session>(sh_, started_, [this] { session_done(); });
        sessions_.push_back(s);
        ++started_;
        connections_ += s->connections();
        ++sh_.active;
        s->start();
        next_start_ += to_duration(1.0 / sh_.opt.rate);
        start_timer_.expires_at(next_start_);
        start_timer_.async_wait([this](beast::error_code ec) {
            if (!ec) {
                start_next();
            }
        });
    }

    void on_deadline() {
        if (deadline_passed_) {
            return;
        }
        deadline_passed_ = true;
        played_s_        = std::chrono::duration<double>(Clock::now() - sh_.start).count();
        sh_.stopping     = true;
        start_timer_.cancel();
        for (auto& s : sessions_) {
            s->deadline();
        }
        drain_timer_.expires_after(to_duration(sh_.opt.drain));
        drain_timer_.async_wait([this](beast::error_code ec) {
            if (!ec) {
                for (auto& s : sessions_) {
                    s->force_close();
                }
            }
        });
    }

    // A session ended: when all have (the run is over or every game is done), stop the timers
    // so that the I/O threads return.
    void session_done() {
        net::post(strand_, [this] {
            if (!finished_ && sh_.active == 0 && (sh_.stopping || started_ >= sh_.opt.games)) {
                finished_ = true;
                if (!deadline_passed_) {
                    played_s_ = std::chrono::duration<double>(Clock::now() - sh_.start).count();
                }
                sh_.stopping = true;
                start_timer_.cancel();
                end_timer_.cancel();
                drain_timer_.cancel();
                beast::error_code ignored;
                signals_.cancel(ignored);
            }
        });
    }

    Shared& sh_;
    Strand strand_;
    net::steady_timer start_timer_;
    net::steady_timer end_timer_;
    net::steady_timer drain_timer_;
    net::signal_set signals_;
    std::vector<std::shared_ptr<Session>> sessions_;
    int started_          = 0;
    int connections_      = 0;
    bool deadline_passed_ = false;
    bool finished_        = false;
    bool signalled_       = false;
    double played_s_      = 0;
    Clock::time_point next_start_;
};

// GET /api/games/{id} from one server: the stored move texts, or nullopt.
std::optional<std::vector<std::string>>
fetch_from(Shared& sh, std::size_t u, const std::string& id) {
    net::io_context ioc;
    beast::tcp_stream stream(ioc);
    http::request<http::empty_body> req{http::verb::get, "/api/games/" + id, 11};
    req.set(http::field::host, sh.urls[u].host + ":" + sh.urls[u].port);
    http::response<http::string_body> res;
    beast::flat_buffer buf;
    bool ok = false;
    stream.expires_after(std::chrono::seconds(10));
    stream.async_connect(sh.endpoints[u], [&](beast::error_code ec, const tcp::endpoint&) {
        if (ec) {
            return;
        }
        http::async_write(stream, req, [&](beast::error_code ew, std::size_t) {
            if (ew) {
                return;
            }
            http::async_read(
                stream, buf, res, [&](beast::error_code er, std::size_t) { ok = !er; });
        });
    });
    ioc.run();
    beast::error_code ignored;
    stream.socket().shutdown(tcp::socket::shutdown_both, ignored);
    if (!ok || res.result_int() != 200) {
        return std::nullopt;
    }
    const Json j = Json::parse(res.body(), nullptr, false);
    if (j.is_discarded() || !j.contains("moves") || !j["moves"].is_array()) {
        return std::nullopt;
    }
    std::vector<std::string> moves;
    for (const auto& m : j["moves"]) {
        moves.push_back(m.is_string() ? m.get<std::string>() : m.value("text", ""));
    }
    return moves;
}

// The stored moves of a game from any server that answers (all nodes share the store).
std::optional<std::vector<std::string>>
fetch_stored(Shared& sh, const std::string& id, std::size_t first) {
    for (std::size_t k = 0; k < sh.urls.size(); ++k) {
        if (auto r = fetch_from(sh, (first + k) % sh.urls.size(), id)) {
            return r;
        }
    }
    return std::nullopt;
}

}  // namespace

Report run(const Options& options) {
    if (const auto e = validate(options); !e.empty()) {
        throw std::runtime_error(e);
    }
    Shared sh;
    sh.opt = options;
    for (const auto& text : options.urls) {
        Url u;
        if (const auto e = parse_url(text, u); !e.empty()) {
            throw std::runtime_error(e);
        }
        tcp::resolver resolver(sh.ioc);
        beast::error_code ec;
        auto eps = resolver.resolve(u.host, u.port, ec);
        if (ec) {
            throw std::runtime_error("cannot resolve " + u.host + ": " + ec.message());
        }
        sh.urls.push_back(u);
        sh.endpoints.push_back(std::move(eps));
    }
    sh.max_games = options.max_games > 0 ? options.max_games : 10 * options.games;

    Runner runner(sh);
    net::post(sh.ioc, [&runner] { runner.begin(); });
    std::vector<std::thread> threads;
    for (int i = 1; i < options.threads; ++i) {
        threads.emplace_back([&sh] { sh.ioc.run(); });
    }
    sh.ioc.run();
    for (auto& t : threads) {
        t.join();
    }

    Report r;
    r.options           = options;
    r.connections       = runner.connections();
    r.games_created     = std::min(sh.games_created.load(), sh.max_games);
    r.games_finished    = sh.games_finished;
    r.peak_games        = sh.peak;
    r.moves             = sh.moves;
    r.messages_in       = sh.messages_in.load();
    r.played_s          = runner.played_s();
    r.stopped_by_signal = runner.signalled();
    r.errors            = sh.errors;
    if (sh.moves > 0) {
        r.elapsed_s   = std::chrono::duration<double>(sh.last_ack - sh.start).count();
        r.moves_per_s = r.elapsed_s > 0 ? static_cast<double>(sh.moves) / r.elapsed_s : 0.0;
    }
    r.ack                       = summarize(std::move(sh.latencies_us));
    r.reconnect                 = sh.rc;
    r.reconnect.resumed_samples = static_cast<std::int64_t>(sh.resume_us.size());
    r.reconnect.resume          = summarize(std::move(sh.resume_us));

    std::size_t k = 0;
    for (const auto& g : sh.games) {
        if (g.continuity.interrupted()) {
            ++r.reconnect.games_interrupted;
            if (g.continuity.continued()) {
                ++r.reconnect.games_continued;
            } else if (r.reconnect.not_continued.size() < 10) {
                r.reconnect.not_continued.push_back(g.id);
            }
        }
        r.opponent_missed += count_opponent_missed(g);
        const auto stored = fetch_stored(sh, g.id, k++);
        if (!stored) {
            ++r.errors["verify_fetch"];
            continue;
        }
        ++r.verified_games;
        const auto c = compare_game(g, *stored);
        r.verify.lost += c.lost;
        r.verify.duplicated += c.duplicated;
        r.verify.stored_unacked += c.stored_unacked;
        if (!c.first_mismatch.empty() && r.mismatches.size() < 10) {
            r.mismatches.push_back(c.first_mismatch);
        }
    }
    if (r.opponent_missed > 0) {
        r.errors["opponent_missed"] += r.opponent_missed;
    }
    for (const auto& [code, n] : r.errors) {
        r.error_total += n;
    }
    r.ok = r.moves > 0 && r.verify.lost == 0 && r.verify.duplicated == 0 &&
           r.error_total <= options.max_errors &&
           (!options.reconnect || r.reconnect.games_continued == r.reconnect.games_interrupted);
    return r;
}

namespace {

nlohmann::ordered_json latency_json(const LatencySummary& s, bool percentiles99) {
    const auto round3 = [](double v) { return std::round(v * 1000.0) / 1000.0; };
    nlohmann::ordered_json j{{"p50", round3(s.p50_ms)}, {"p95", round3(s.p95_ms)}};
    if (percentiles99) {
        j["p99"] = round3(s.p99_ms);
    }
    j["max"]  = round3(s.max_ms);
    j["mean"] = round3(s.mean_ms);
    return j;
}

}  // namespace

nlohmann::ordered_json Report::to_json() const {
    nlohmann::ordered_json by_code = nlohmann::ordered_json::object();
    for (const auto& [code, n] : errors) {
        by_code[code] = n;
    }
    const auto round3         = [](double v) { return std::round(v * 1000.0) / 1000.0; };
    const ReconnectReport& rc = reconnect;
    return nlohmann::ordered_json{
        {"url", options.urls.empty() ? std::string{} : options.urls.front()},
        {"urls", options.urls},
        {"mode", mode_name(options.mode)},
        {"reconnect", options.reconnect},
        {"variant", options.variant},
        {"games", options.games},
        {"rate", options.rate},
        {"duration_s", options.duration},
        {"think_ms", options.think_ms},
        {"seed", options.seed},
        {"connections", connections},
        {"games_created", games_created},
        {"games_finished", games_finished},
        {"peak_games", peak_games},
        {"moves", moves},
        {"messages_in", messages_in},
        {"played_s", round3(played_s)},
        {"stopped_by_signal", stopped_by_signal},
        {"elapsed_s", round3(elapsed_s)},
        {"moves_per_s", round3(moves_per_s)},
        {"ack_ms", latency_json(ack, true)},
        {"errors", {{"total", error_total}, {"by_code", by_code}}},
        {"opponent_missed", opponent_missed},
        {"drops", rc.drops},
        {"reconnects", rc.reconnects},
        {"reconnect_failed_attempts", rc.failed_attempts},
        {"resume_ms", latency_json(rc.resume, false)},
        {"resumes", rc.resumed_samples},
        {"in_flight_stored", rc.in_flight_stored},
        {"resumed_but_stored", rc.resumed_but_stored},
        {"resent", rc.resent},
        {"creates_unanswered", rc.creates_unanswered},
        {"stalls", rc.stalls},
        {"request_timeouts", rc.request_timeouts},
        {"games_interrupted", rc.games_interrupted},
        {"games_continued", rc.games_continued},
        {"not_continued", rc.not_continued},
        {"verified_games", verified_games},
        {"lost", verify.lost},
        {"duplicated", verify.duplicated},
        {"stored_unacked", verify.stored_unacked},
        {"mismatches", mismatches},
        {"ok", ok}};
}

std::string Report::to_text() const {
    std::ostringstream o;
    o << "mode " << mode_name(options.mode) << ", " << options.urls.size() << " URL"
      << (options.urls.size() == 1 ? "" : "s") << ", reconnect "
      << (options.reconnect ? "on" : "off") << ", played " << fixed(played_s, 1) << " s"
      << (stopped_by_signal ? " (ended by a signal)" : "") << '\n';
    o << "games " << games_created << " created (" << connections << " connections, peak "
      << peak_games << " live, " << games_finished << " finished by the rules)\n";
    o << "moves " << moves << " acknowledged in " << fixed(elapsed_s, 1)
      << " s: " << fixed(moves_per_s, 1) << " moves/s, " << messages_in << " messages received\n";
    o << "ack latency ms: p50 " << fixed(ack.p50_ms, 2) << "  p95 " << fixed(ack.p95_ms, 2)
      << "  p99 " << fixed(ack.p99_ms, 2) << "  max " << fixed(ack.max_ms, 2) << "  mean "
      << fixed(ack.mean_ms, 2) << '\n';
    if (options.reconnect) {
        const ReconnectReport& rc = reconnect;
        o << "reconnect: " << rc.drops << " drops, " << rc.reconnects << " reconnections ("
          << rc.failed_attempts << " failed attempts), back in the game after p50 "
          << fixed(rc.resume.p50_ms, 1) << " ms, max " << fixed(rc.resume.max_ms, 1) << " ms\n";
        o << "moves in flight at a drop: " << rc.resent << " sent again, " << rc.in_flight_stored
          << " found stored (" << rc.resumed_but_stored << " after a 'resumed'); " << rc.stalls
          << " stalled acks; " << rc.creates_unanswered << " creates unanswered; "
          << rc.request_timeouts << " resumes/joins unanswered\n";
        o << "games interrupted " << rc.games_interrupted << ", continued " << rc.games_continued;
        for (const auto& id : rc.not_continued) {
            o << "  " << id;
        }
        o << '\n';
    }
    if (options.mode == Mode::Friend) {
        o << "moves the opponent's connection missed: " << opponent_missed << '\n';
    }
    o << "errors " << error_total;
    for (const auto& [code, n] : errors) {
        o << "  " << code << '=' << n;
    }
    o << '\n';
    o << "checked " << verified_games << " games against the store: lost " << verify.lost
      << ", duplicated " << verify.duplicated << ", stored but ack not seen "
      << verify.stored_unacked << '\n';
    for (const auto& m : mismatches) {
        o << "  " << m << '\n';
    }
    o << (ok ? "OK" : "FAILED") << '\n';
    return o.str();
}

}  // namespace papan::loadtest
