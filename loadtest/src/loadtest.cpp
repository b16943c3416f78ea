// The load tool: one hot-seat game per WebSocket connection (the server still checks every
// move), sessions started at a fixed rate, one move in flight per game. Asio/Beast are compiled
// once in papan_server (BOOST_*_SEPARATE_COMPILATION), as everywhere in the project.
#include <papan/loadtest/loadtest.hpp>

#include <boost/asio/connect.hpp>
#include <boost/asio/dispatch.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
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
#include <atomic>
#include <chrono>
#include <cmath>
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

std::string validate(const Options& o) {
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
    if (o.threads < 1 || o.threads > kMaxThreads) {
        return "--threads must be 1-" + std::to_string(kMaxThreads);
    }
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

namespace {

std::string fixed(double v, int digits) {
    std::ostringstream s;
    s << std::fixed << std::setprecision(digits) << v;
    return s.str();
}

// State shared by the sessions; the counters are guarded by `mu`.
struct Shared {
    Options opt;
    Url url;
    tcp::resolver::results_type endpoints;
    net::io_context ioc;
    std::atomic<bool> stopping{false};
    std::atomic<int> games_created{0};
    std::atomic<int> active{0};
    int max_games = 0;
    Clock::time_point start;

    std::mutex mu;
    std::vector<std::int64_t> latencies_us;
    std::map<std::string, std::int64_t> errors;
    std::int64_t moves = 0;
    std::atomic<std::int64_t> messages_in{0};
    Clock::time_point last_ack;
    int games_finished = 0;
    int live           = 0;
    int peak           = 0;
    std::vector<GameCheck> games;

    void error(const std::string& code) {
        const std::lock_guard lock(mu);
        ++errors[code];
    }
};

class Session : public std::enable_shared_from_this<Session> {
public:
    Session(Shared& sh, int index, std::function<void()> on_done)
        : sh_(sh)
        , index_(index)
        , on_done_(std::move(on_done))
        , ws_(net::make_strand(sh.ioc))
        , timer_(ws_.get_executor())
        , rng_(sh.opt.seed * std::uint64_t{1000003} + static_cast<std::uint64_t>(index)) {}

    void start() {
        net::dispatch(ws_.get_executor(), [self = shared_from_this()] { self->connect(); });
    }

    // The duration is over: no new moves; close once the move in flight is acknowledged.
    void deadline() {
        net::post(ws_.get_executor(), [self = shared_from_this()] {
            self->deadline_ = true;
            if (!self->pending_ && !self->awaiting_state_) {
                self->close();
            }
        });
    }

    // The drain time is over: drop the socket whatever is in flight.
    void force_close() {
        net::post(ws_.get_executor(), [self = shared_from_this()] {
            if (self->done_) {
                return;
            }
            if (self->pending_) {
                self->sh_.error("no_ack");
            }
            self->closing_ = true;
            self->timer_.cancel();
            beast::get_lowest_layer(self->ws_).close();
        });
    }

private:
    void connect() {
        ++sh_.active;
        beast::get_lowest_layer(ws_).expires_after(std::chrono::seconds(10));
        beast::get_lowest_layer(ws_).async_connect(
            sh_.endpoints, [self = shared_from_this()](beast::error_code ec, const tcp::endpoint&) {
                self->on_connect(ec);
            });
    }

    void on_connect(beast::error_code ec) {
        if (ec) {
            sh_.error("connect");
            finish();
            return;
        }
        beast::get_lowest_layer(ws_).expires_never();
        beast::error_code ignored;
        beast::get_lowest_layer(ws_).socket().set_option(tcp::no_delay(true), ignored);
        ws_.set_option(websocket::stream_base::timeout::suggested(beast::role_type::client));
        ws_.read_message_max(std::size_t{4} << 20);
        ws_.async_handshake(
            sh_.url.host + ":" + sh_.url.port,
            sh_.url.path,
            [self = shared_from_this()](beast::error_code e) { self->on_handshake(e); });
    }

    void on_handshake(beast::error_code ec) {
        if (ec) {
            sh_.error("handshake");
            finish();
            return;
        }
        send(Json{{"type", "hello"}, {"name", "load-" + std::to_string(index_)}});
        read();
    }

    void read() {
        ws_.async_read(buf_, [self = shared_from_this()](beast::error_code ec, std::size_t) {
            self->on_read(ec);
        });
    }

    void on_read(beast::error_code ec) {
        if (ec) {
            if (!closing_) {
                sh_.error(ec == websocket::error::closed ? "closed_by_server" : "read");
            }
            finish();
            return;
        }
        ++sh_.messages_in;
        Json msg = Json::parse(beast::buffers_to_string(buf_.data()), nullptr, false);
        buf_.consume(buf_.size());
        if (msg.is_discarded() || !msg.is_object()) {
            sh_.error("client_bad_json");
        } else {
            handle(msg);
        }
        read();
    }

    void handle(const Json& msg) {
        const std::string type = msg.value("type", "");
        if (type == "welcome") {
            new_game();
        } else if (type == "created") {
            if (msg.value("ref", std::int64_t{-1}) == create_id_) {
                game_    = GameCheck{};
                game_.id = msg.value("game", "");
            }
        } else if (type == "state" || type == "event") {
            if (msg.value("game", "") != game_.id || game_.id.empty() || !msg.contains("state")) {
                return;
            }
            on_game_message(msg, type == "event");
        } else if (type == "error") {
            const std::string code = msg.value("code", "unknown");
            sh_.error(code);
            const auto ref = msg.value("ref", std::int64_t{-1});
            if (pending_ && ref == pending_id_) {
                pending_ = false;
                if (++consecutive_errors_ >= 3) {
                    end_game(false);  // give this game up; the next one starts clean
                } else {
                    next_move();
                }
            } else if (awaiting_state_ && ref == create_id_) {
                awaiting_state_ = false;
                close();
            }
        }
    }

    void on_game_message(const Json& msg, bool is_event) {
        const Json& st = msg["state"];
        if (awaiting_state_) {
            awaiting_state_ = false;
            apply(st);
            next_move();
            return;
        }
        if (!pending_) {
            apply(st);
            return;
        }
        bool acked = false;
        std::string text;
        if (is_event) {
            const Json& ev = msg["event"];
            if (ev.value("kind", "") == "move" && ev.contains("move") &&
                ev["move"].value("ply", -1) == pending_ply_) {
                acked = true;
                text  = ev["move"].value("text", "");
            }
        } else if (st.value("ply", 0) > pending_ply_ && st.contains("moves") &&
                   st["moves"].is_array() &&
                   st["moves"].size() > static_cast<std::size_t>(pending_ply_)) {
            acked = true;
            text  = st["moves"][static_cast<std::size_t>(pending_ply_)].value("text", "");
        }
        apply(st);
        if (!acked) {
            return;
        }
        const auto now = Clock::now();
        const auto us =
            std::chrono::duration_cast<std::chrono::microseconds>(now - sent_at_).count();
        {
            const std::lock_guard lock(sh_.mu);
            sh_.latencies_us.push_back(us);
            ++sh_.moves;
            sh_.last_ack = std::max(sh_.last_ack, now);
        }
        const auto p = static_cast<std::size_t>(pending_ply_);
        if (game_.acked.size() <= p) {
            game_.acked.resize(p + 1, false);
            game_.acked_text.resize(p + 1);
        }
        game_.acked[p]      = true;
        game_.acked_text[p] = text;
        pending_            = false;
        consecutive_errors_ = 0;
        next_move();
    }

    void apply(const Json& st) {
        ply_   = st.value("ply", 0);
        legal_ = st.contains("legal_moves") ? st["legal_moves"] : Json::array();
        over_  = (st.contains("result") && !st["result"].is_null()) ||
                st.value("status", "playing") != "playing";
    }

    void next_move() {
        if (deadline_ || closing_) {
            close();
            return;
        }
        if (over_ || !legal_.is_array() || legal_.empty()) {
            end_game(over_);
            return;
        }
        if (sh_.opt.think_ms > 0) {
            timer_.expires_after(std::chrono::milliseconds(sh_.opt.think_ms));
            timer_.async_wait([self = shared_from_this()](beast::error_code ec) {
                if (!ec) {
                    self->send_move();
                }
            });
        } else {
            send_move();
        }
    }

    void send_move() {
        if (deadline_ || closing_) {
            close();
            return;
        }
        std::uniform_int_distribution<std::size_t> pick(0, legal_.size() - 1);
        const Json& m = legal_[pick(rng_)];
        pending_      = true;
        pending_ply_  = ply_;
        pending_id_   = ++next_id_;
        const auto p  = static_cast<std::size_t>(ply_);
        if (game_.sent.size() <= p) {
            game_.sent.resize(p + 1);
        }
        game_.sent[p] = m.value("text", "");
        sent_at_      = Clock::now();
        send(Json{{"type", "move"},
                  {"id", pending_id_},
                  {"game", game_.id},
                  {"ply", ply_},
                  {"path", m.value("path", Json::array())}});
    }

    // Leaves the current game (ended by the rules or given up) and starts the next one.
    void end_game(bool finished_by_rules) {
        {
            const std::lock_guard lock(sh_.mu);
            if (finished_by_rules) {
                ++sh_.games_finished;
            }
        }
        store_game();
        new_game();
    }

    void new_game() {
        if (deadline_ || closing_ || sh_.stopping ||
            sh_.games_created.fetch_add(1) >= sh_.max_games) {
            close();
            return;
        }
        {
            const std::lock_guard lock(sh_.mu);
            ++sh_.live;
            sh_.peak = std::max(sh_.peak, sh_.live);
        }
        in_game_            = true;
        awaiting_state_     = true;
        consecutive_errors_ = 0;
        over_               = false;
        create_id_          = ++next_id_;
        send(Json{{"type", "create"},
                  {"id", create_id_},
                  {"mode", "hotseat"},
                  {"variant", sh_.opt.variant}});
    }

    void store_game() {
        if (in_game_) {
            in_game_ = false;
            const std::lock_guard lock(sh_.mu);
            --sh_.live;
            if (!game_.id.empty()) {
                sh_.games.push_back(std::move(game_));
            }
            game_ = GameCheck{};
        }
    }

    void send(const Json& j) {
        outbox_.push_back(j.dump());
        if (!writing_) {
            write_next();
        }
    }

    void write_next() {
        writing_ = true;
        ws_.text(true);
        ws_.async_write(
            net::buffer(outbox_.front()),
            [self = shared_from_this()](beast::error_code ec, std::size_t) { self->on_write(ec); });
    }

    void on_write(beast::error_code ec) {
        writing_ = false;
        if (ec) {
            if (!closing_) {
                sh_.error("write");
                closing_ = true;
                beast::get_lowest_layer(ws_).close();
            }
            return;
        }
        outbox_.pop_front();
        if (!outbox_.empty()) {
            write_next();
        } else if (close_wanted_) {
            start_close();
        }
    }

    void close() {
        if (closing_) {
            return;
        }
        closing_ = true;
        store_game();
        if (writing_ || !outbox_.empty()) {
            close_wanted_ = true;
        } else {
            start_close();
        }
    }

    void start_close() {
        close_wanted_ = false;
        ws_.async_close(websocket::close_code::normal,
                        [self = shared_from_this()](beast::error_code) {});
    }

    void finish() {
        if (done_) {
            return;
        }
        done_    = true;
        closing_ = true;
        timer_.cancel();
        store_game();
        --sh_.active;
        on_done_();
    }

    Shared& sh_;
    int index_;
    std::function<void()> on_done_;
    websocket::stream<beast::tcp_stream> ws_;
    net::steady_timer timer_;
    std::mt19937_64 rng_;
    beast::flat_buffer buf_;
    std::deque<std::string> outbox_;
    bool writing_      = false;
    bool closing_      = false;
    bool close_wanted_ = false;
    bool done_         = false;
    bool deadline_     = false;

    GameCheck game_;
    bool in_game_            = false;
    bool awaiting_state_     = false;
    bool over_               = false;
    bool pending_            = false;
    int ply_                 = 0;
    int pending_ply_         = 0;
    std::int64_t pending_id_ = 0;
    std::int64_t create_id_  = 0;
    std::int64_t next_id_    = 0;
    int consecutive_errors_  = 0;
    Json legal_              = Json::array();
    Clock::time_point sent_at_;
};

// Starts the sessions at the rate, ends the run at duration (+ drain at most).
class Runner {
public:
    explicit Runner(Shared& sh)
        : sh_(sh)
        , strand_(net::make_strand(sh.ioc))
        , start_timer_(strand_)
        , end_timer_(strand_)
        , drain_timer_(strand_) {}

    void begin() {
        sh_.start = Clock::now();
        end_timer_.expires_after(to_duration(sh_.opt.duration));
        end_timer_.async_wait([this](beast::error_code ec) {
            if (!ec) {
                on_deadline();
            }
        });
        next_start_ = sh_.start;
        start_next();
    }

private:
    static Clock::duration to_duration(double seconds) {
        return std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
    }

    void start_next() {
        if (sh_.stopping || started_ >= sh_.opt.games) {
            return;
        }
        auto s = std::make_shared<Session>(sh_, started_, [this] { session_done(); });
        sessions_.push_back(s);
        ++started_;
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
        sh_.stopping = true;
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
            if (sh_.active == 0 && (sh_.stopping || started_ >= sh_.opt.games)) {
                sh_.stopping = true;
                start_timer_.cancel();
                end_timer_.cancel();
                drain_timer_.cancel();
            }
        });
    }

public:
    [[nodiscard]] int started() const { return started_; }

private:
    Shared& sh_;
    net::strand<net::io_context::executor_type> strand_;
    net::steady_timer start_timer_;
    net::steady_timer end_timer_;
    net::steady_timer drain_timer_;
    std::vector<std::shared_ptr<Session>> sessions_;
    int started_ = 0;
    Clock::time_point next_start_;
};

// GET /api/games/{id} on the same host: the stored move texts, or nullopt.
std::optional<std::vector<std::string>> fetch_stored(Shared& sh, const std::string& id) {
    net::io_context ioc;
    beast::tcp_stream stream(ioc);
    http::request<http::empty_body> req{http::verb::get, "/api/games/" + id, 11};
    req.set(http::field::host, sh.url.host + ":" + sh.url.port);
    http::response<http::string_body> res;
    beast::flat_buffer buf;
    bool ok = false;
    stream.expires_after(std::chrono::seconds(10));
    stream.async_connect(sh.endpoints, [&](beast::error_code ec, const tcp::endpoint&) {
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

}  // namespace

Report run(const Options& options) {
    if (const auto e = validate(options); !e.empty()) {
        throw std::runtime_error(e);
    }
    Shared sh;
    sh.opt = options;
    if (const auto e = parse_url(options.url, sh.url); !e.empty()) {
        throw std::runtime_error(e);
    }
    sh.max_games = options.max_games > 0 ? options.max_games : 10 * options.games;
    {
        tcp::resolver resolver(sh.ioc);
        beast::error_code ec;
        sh.endpoints = resolver.resolve(sh.url.host, sh.url.port, ec);
        if (ec) {
            throw std::runtime_error("cannot resolve " + sh.url.host + ": " + ec.message());
        }
    }

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
    r.options        = options;
    r.connections    = runner.started();
    r.games_created  = std::min(sh.games_created.load(), sh.max_games);
    r.games_finished = sh.games_finished;
    r.peak_games     = sh.peak;
    r.moves          = sh.moves;
    r.messages_in    = sh.messages_in.load();
    r.errors         = sh.errors;
    if (sh.moves > 0) {
        r.elapsed_s   = std::chrono::duration<double>(sh.last_ack - sh.start).count();
        r.moves_per_s = r.elapsed_s > 0 ? static_cast<double>(sh.moves) / r.elapsed_s : 0.0;
    }
    r.ack = summarize(std::move(sh.latencies_us));

    for (const auto& g : sh.games) {
        const auto stored = fetch_stored(sh, g.id);
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
    for (const auto& [code, n] : r.errors) {
        r.error_total += n;
    }
    r.ok = r.moves > 0 && r.verify.lost == 0 && r.verify.duplicated == 0 &&
           r.error_total <= options.max_errors;
    return r;
}

nlohmann::ordered_json Report::to_json() const {
    nlohmann::ordered_json by_code = nlohmann::ordered_json::object();
    for (const auto& [code, n] : errors) {
        by_code[code] = n;
    }
    const auto round3 = [](double v) { return std::round(v * 1000.0) / 1000.0; };
    return nlohmann::ordered_json{{"url", options.url},
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
                                  {"elapsed_s", round3(elapsed_s)},
                                  {"moves_per_s", round3(moves_per_s)},
                                  {"ack_ms",
                                   {{"p50", round3(ack.p50_ms)},
                                    {"p95", round3(ack.p95_ms)},
                                    {"p99", round3(ack.p99_ms)},
                                    {"max", round3(ack.max_ms)},
                                    {"mean", round3(ack.mean_ms)}}},
                                  {"errors", {{"total", error_total}, {"by_code", by_code}}},
                                  {"verified_games", verified_games},
                                  {"lost", verify.lost},
                                  {"duplicated", verify.duplicated},
                                  {"stored_unacked", verify.stored_unacked},
                                  {"mismatches", mismatches},
                                  {"ok", ok}};
}

std::string Report::to_text() const {
    std::ostringstream o;
    o << "games " << games_created << " created (" << connections << " connections, peak "
      << peak_games << " live, " << games_finished << " finished by the rules)\n";
    o << "moves " << moves << " acknowledged in " << fixed(elapsed_s, 1)
      << " s: " << fixed(moves_per_s, 1) << " moves/s, " << messages_in << " messages received\n";
    o << "ack latency ms: p50 " << fixed(ack.p50_ms, 2) << "  p95 " << fixed(ack.p95_ms, 2)
      << "  p99 " << fixed(ack.p99_ms, 2) << "  max " << fixed(ack.max_ms, 2) << "  mean "
      << fixed(ack.mean_ms, 2) << '\n';
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
