// Transport (net/, docs/architecture.md): the listener, the HTTP session (parse, hand to the
// router, write) and the WebSocket session (read loop, bounded write queue), plus run_server, which
// wires the layers together. The only translation unit that includes Beast's stream headers.
#include "api/accounts.hpp"
#include "api/api.hpp"
#include "api/auth_service.hpp"
#include "api/http_reader.hpp"
#include "api/http_wire.hpp"
#include "api/wire_codec.hpp"
#include "cluster/cluster.hpp"
#include "cluster/remote_ai.hpp"
#include "game/ai_pool.hpp"
#include "game/endgame_builds.hpp"
#include "game/lifecycle.hpp"
#include "game/lobby.hpp"
#include "game/store_executor.hpp"
#include "puzzles/service.hpp"
#include "support/log.hpp"

#include <papan/server/server.hpp>
#include <papan/server/tokens.hpp>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core/buffers_to_string.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http/string_body.hpp>
#include <boost/beast/http/write.hpp>
#include <boost/beast/websocket/rfc6455.hpp>
#include <boost/beast/websocket/stream.hpp>

#include <array>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <sstream>
#include <thread>
#include <unistd.h>
#include <unordered_map>
#include <vector>

namespace papan::server {

namespace beast     = boost::beast;
namespace http      = beast::http;
namespace websocket = beast::websocket;
using tcp           = net::ip::tcp;
using namespace std::chrono_literals;

namespace {

constexpr auto kAwait = net::as_tuple(net::use_awaitable);

// Connection ids ("c17") for the log: every line about a connection names it.
std::string new_connection_id() {
    static std::atomic<std::uint64_t> next{0};
    return "c" + std::to_string(++next);
}

// The test hook --test-fault TEXT (hidden): an HTTP request for the target TEXT, or a WebSocket
// text message equal to TEXT, throws inside the connection's coroutine, so that a test can check
// that the connection boundary catches and logs it and the server carries on.
void inject_fault(const ServerOptions& opts, std::string_view input) {
    if (!opts.test_fault.empty() && input == opts.test_fault) {
        throw std::runtime_error("injected fault (--test-fault)");
    }
}

// A request target as a log may show it: at most 200 bytes, anything but printable ASCII as %XX.
std::string printable(beast::string_view target) {
    std::string out;
    for (const char c : target.substr(0, 200)) {
        const auto u = static_cast<unsigned char>(c);
        if (u > 0x20 && u < 0x7f) {
            out += c;
        } else {
            constexpr char kHex[] = "0123456789ABCDEF";
            out += '%';
            out += kHex[u >> 4];
            out += kHex[u & 15];
        }
    }
    return out;
}

std::string what_of(const std::exception_ptr& e) {
    try {
        std::rethrow_exception(e);
    } catch (const std::exception& ex) {
        return ex.what();
    } catch (...) {
        return "an unknown exception";
    }
}

// The completion of a connection's coroutine: an exception that ends it is logged (the rest of
// the server carries on).
auto log_exception(std::string context) {
    return [context = std::move(context)](const std::exception_ptr& e) {
        if (e) {
            log_line(context, "connection ended by an internal error: " + what_of(e));
        }
    };
}

class WsSession;

// The open WebSocket sessions, for shutdown. Transport bookkeeping only (not domain state).
class SessionSet {
public:
    void add(const std::shared_ptr<WsSession>& s) {
        std::lock_guard lock(mutex_);
        std::erase_if(sessions_, [](const auto& w) { return w.expired(); });
        sessions_.push_back(s);
    }

    std::vector<std::shared_ptr<WsSession>> all() {
        std::lock_guard lock(mutex_);
        std::vector<std::shared_ptr<WsSession>> out;
        for (const auto& w : sessions_) {
            if (auto s = w.lock()) {
                out.push_back(std::move(s));
            }
        }
        return out;
    }

private:
    std::mutex mutex_;
    std::vector<std::weak_ptr<WsSession>> sessions_;
};

// Concurrent connections per remote address (--max-connections-per-ip). A Slot holds one place
// until it is destroyed (with the HTTP session, or with the WebSocket session it became).
class ConnectionLimiter {
public:
    explicit ConnectionLimiter(std::size_t cap) : cap_(cap) {}

    class Slot {
    public:
        Slot(ConnectionLimiter* owner, std::string address)
            : owner_(owner)
            , address_(std::move(address)) {}

        ~Slot() {
            if (owner_ != nullptr) {
                owner_->release(address_);
            }
        }

        Slot(const Slot&)            = delete;
        Slot& operator=(const Slot&) = delete;

    private:
        ConnectionLimiter* owner_;
        std::string address_;
    };

    // A slot for `address`, or nullptr when it already holds `cap` connections.
    std::shared_ptr<Slot> acquire(const std::string& address) {
        if (cap_ == 0) {
            return std::make_shared<Slot>(nullptr, address);
        }
        std::lock_guard lock(mutex_);
        auto& n = counts_[address];
        if (n >= cap_) {
            return nullptr;
        }
        ++n;
        return std::make_shared<Slot>(this, address);
    }

private:
    void release(const std::string& address) {
        std::lock_guard lock(mutex_);
        const auto it = counts_.find(address);
        if (it != counts_.end() && --it->second == 0) {
            counts_.erase(it);
        }
    }

    std::size_t cap_;
    std::mutex mutex_;
    std::unordered_map<std::string, std::size_t> counts_;
};

class WsSession final : public SessionPeer, public std::enable_shared_from_this<WsSession> {
public:
    WsSession(beast::tcp_stream&& stream,
              ApiContext& ctx,
              const ServerOptions& opts,
              SessionSet& set,
              std::shared_ptr<ConnectionLimiter::Slot> slot,
              std::string remote,
              std::string id)
        : ws_(std::move(stream))
        , ctx_(ctx)
        , opts_(opts)
        , set_(set)
        , slot_(std::move(slot))
        , remote_(std::move(remote))
        , id_(std::move(id))
        , tokens_(opts.ws_burst)
        , last_refill_(std::chrono::steady_clock::now()) {}

    void start(http::request<http::string_body> req) {
        auto self = shared_from_this();
        net::co_spawn(
            ws_.get_executor(),
            [self, req = std::move(req)]() mutable { return self->run(std::move(req)); },
            log_exception("ws " + id_));
    }

    void send(std::shared_ptr<const std::string> message) override {
        net::post(ws_.get_executor(), [self = shared_from_this(), message = std::move(message)] {
            self->enqueue(message);
        });
    }

    void run_on_session(std::function<void()> fn) override {
        net::post(ws_.get_executor(), std::move(fn));
    }

    Identity& identity() override { return identity_; }

    [[nodiscard]] const std::string& remote_address() const override { return remote_; }

    [[nodiscard]] const std::string& connection_id() const override { return id_; }

    // Ends the session: a close frame when possible, else the socket is dropped.
    void close(websocket::close_code code) {
        net::post(ws_.get_executor(), [self = shared_from_this(), code] {
            if (self->closed_) {
                return;
            }
            self->closed_ = true;
            if (self->writing_) {
                beast::get_lowest_layer(self->ws_).socket().close();
                return;
            }
            self->ws_.async_close(code, [self](beast::error_code) {});
        });
    }

private:
    net::awaitable<void> run(http::request<http::string_body> req) {
        websocket::stream_base::timeout t{};
        t.handshake_timeout = 30s;
        t.idle_timeout      = std::chrono::seconds(opts_.idle_timeout_seconds);
        t.keep_alive_pings  = true;  // a ping after half the idle time; no pong = gone
        ws_.set_option(t);
        ws_.read_message_max(opts_.max_message_bytes);
        ws_.set_option(websocket::stream_base::decorator(
            [](websocket::response_type& res) { res.set(http::field::server, "papan"); }));
        auto [ec] = co_await ws_.async_accept(req, kAwait);
        if (ec) {
            log_line("ws " + id_, "handshake failed: " + ec.message());
            co_return;
        }
        set_.add(shared_from_this());
        beast::flat_buffer buffer;
        for (;;) {
            auto [rec, n] = co_await ws_.async_read(buffer, kAwait);
            (void)n;
            if (rec) {
                if (rec == websocket::error::message_too_big) {
                    log_line("ws " + id_,
                             "closing: a message over " + std::to_string(opts_.max_message_bytes) +
                                 " bytes (1009)");
                } else if (rec != websocket::error::closed &&
                           rec != net::error::operation_aborted && rec != beast::error::timeout &&
                           rec != net::error::eof && rec != net::error::connection_reset &&
                           rec != net::error::bad_descriptor) {
                    log_line("ws " + id_, "read: " + rec.message());
                }
                break;
            }
            if (!take_token()) {
                std::string rate = std::to_string(opts_.ws_rate);  // "20.000000" -> "20"
                rate.erase(rate.find_last_not_of('0') + 1);
                if (rate.back() == '.') {
                    rate.pop_back();
                }
                log_line("ws " + id_, "closing: over " + rate + " messages/s (1008)");
                closed_ = true;
                buffer.consume(buffer.size());
                auto [cec] = co_await ws_.async_close(
                    websocket::close_reason(websocket::close_code::policy_error,
                                            "rate limit: too many messages"),
                    kAwait);
                (void)cec;
                break;
            }
            if (!ws_.got_text()) {
                send_text(WireMessages::error_text(
                    ErrorCode::BadMessage, "send text frames with JSON", std::nullopt));
            } else {
                handle_text(beast::buffers_to_string(buffer.data()));
            }
            buffer.consume(buffer.size());
        }
        closed_ = true;
        if (Cluster* cluster = ctx_.cluster; cluster != nullptr) {
            cluster->session_closed(shared_from_this());
        }
    }

    // One text message, behind the connection's error boundary: an exception is logged with the
    // connection id, answered `internal` (no internal text), and the connection stays open.
    void handle_text(const std::string& text) {
        try {
            inject_fault(opts_, text);
            handle_ws_message(ctx_, shared_from_this(), text);
        } catch (...) {
            log_line("ws " + id_,
                     "internal error on a message: " + what_of(std::current_exception()));
            send_text(WireMessages::internal_error());
        }
    }

    // The per-socket token bucket (--ws-rate, --ws-burst): false when the message is one too many.
    bool take_token() {
        if (opts_.ws_rate <= 0) {
            return true;
        }
        const auto now                         = std::chrono::steady_clock::now();
        const std::chrono::duration<double> dt = now - last_refill_;
        last_refill_                           = now;
        tokens_ = std::min(std::max(opts_.ws_burst, 1.0), tokens_ + dt.count() * opts_.ws_rate);
        if (tokens_ < 1.0) {
            return false;
        }
        tokens_ -= 1.0;
        return true;
    }

    void enqueue(const std::shared_ptr<const std::string>& message) {
        if (closed_) {
            return;
        }
        if (queue_.size() >= opts_.max_queued_messages) {
            log_line("ws " + id_,
                     "dropping a client " + std::to_string(queue_.size()) + " messages behind");
            closed_ = true;
            beast::get_lowest_layer(ws_).socket().close();
            return;
        }
        queue_.push_back(message);
        if (!writing_) {
            write_next();
        }
    }

    void write_next() {
        writing_ = true;
        ws_.text(true);
        ws_.async_write(net::buffer(*queue_.front()),
                        [self = shared_from_this()](beast::error_code ec, std::size_t) {
                            self->queue_.pop_front();
                            if (ec) {
                                self->closed_  = true;
                                self->writing_ = false;
                                self->queue_.clear();
                                return;
                            }
                            if (self->queue_.empty() || self->closed_) {
                                self->writing_ = false;
                                return;
                            }
                            self->write_next();
                        });
    }

    websocket::stream<beast::tcp_stream> ws_;
    ApiContext& ctx_;
    const ServerOptions& opts_;
    SessionSet& set_;
    std::shared_ptr<ConnectionLimiter::Slot> slot_;
    std::string remote_;
    std::string id_;
    double tokens_;
    std::chrono::steady_clock::time_point last_refill_;
    Identity identity_;
    std::deque<std::shared_ptr<const std::string>> queue_;
    bool writing_ = false;
    bool closed_  = false;
};

template <class Token>
auto async_route(ApiContext& ctx, HttpRequest req, Token&& token) {
    return net::async_initiate<Token, void(HttpResponse)>(
        [&ctx](auto handler, HttpRequest r) {
            auto h = std::make_shared<decltype(handler)>(std::move(handler));
            handle_http(ctx, r, [h](HttpResponse res) {
                auto ex = net::get_associated_executor(*h);
                net::post(ex,
                          [h, res = std::move(res)]() mutable { std::move (*h)(std::move(res)); });
            });
        },
        token,
        std::move(req));
}

// Ends a connection after a refusal was written: the sending side is shut, and what the client
// sent meanwhile is read and dropped for at most 200 ms, so that closing does not reset the
// connection before the client has read the answer.
net::awaitable<void> drain_and_close(beast::tcp_stream& stream) {
    beast::error_code ignored;
    stream.socket().shutdown(tcp::socket::shutdown_send, ignored);
    stream.expires_after(200ms);
    std::array<char, 4096> sink{};
    for (;;) {
        auto [rec, rn] = co_await stream.async_read_some(net::buffer(sink), kAwait);
        (void)rn;
        if (rec) {
            break;
        }
    }
    stream.socket().close(ignored);
}

// A connection over --max-connections-per-ip: answered 429 at once, without waiting for its
// request, and closed (it holds no socket longer than that one write).
net::awaitable<void> refuse_session(tcp::socket socket) {
    static const std::string kRefusal = [] {
        HttpResponse r =
            error_response(429, "too_many_connections", "too many connections from your address");
        r.headers.emplace_back("Retry-After", "1");
        std::ostringstream os;
        os << to_wire(std::move(r), 11, false, false);
        return os.str();
    }();
    beast::tcp_stream stream(std::move(socket));
    stream.expires_after(200ms);
    auto [ec, n] = co_await net::async_write(stream, net::buffer(kRefusal), kAwait);
    (void)n;
    if (!ec) {
        co_await drain_and_close(stream);
    }
}

net::awaitable<void> http_session(tcp::socket socket,
                                  ApiContext& ctx,
                                  const ServerOptions& opts,
                                  SessionSet& set,
                                  std::shared_ptr<ConnectionLimiter::Slot> slot,
                                  std::string remote,
                                  std::string id) {
    beast::tcp_stream stream(std::move(socket));
    beast::flat_buffer buffer;
    for (;;) {
        stream.expires_after(30s);
        // The request is read by RequestReader (RFC 9112 framing, the head's and body's limits);
        // bytes after it stay in `buffer` for the next request of the connection.
        RequestReader reader(opts.max_message_bytes);
        boost::system::error_code ec;
        for (;;) {
            if (buffer.size() > 0) {
                const auto data = buffer.data();
                buffer.consume(reader.put(
                    std::string_view(static_cast<const char*>(data.data()), data.size())));
            }
            if (reader.status() != RequestReader::Status::NeedMore) {
                break;
            }
            auto [rec, n] = co_await stream.async_read_some(buffer.prepare(16 * 1024), kAwait);
            buffer.commit(n);
            if (rec == net::error::eof) {
                reader.put_eof();
                if (reader.status() == RequestReader::Status::NeedMore) {
                    ec = rec;  // closed between requests
                }
                break;
            }
            if (rec) {
                ec = rec;
                break;
            }
        }
        if (ec) {
            break;  // the peer left, reset, or went quiet for 30 s
        }
        if (reader.status() == RequestReader::Status::Refused) {
            // A clear 4xx, then the connection is closed: after a request whose end is
            // uncertain the stream cannot be trusted to find the next one.
            auto out       = to_wire(reader.refusal(), 11, false, false);
            auto [wec, wn] = co_await http::async_write(stream, out, kAwait);
            (void)wn;
            if (!wec) {
                co_await drain_and_close(stream);
                co_return;
            }
            break;
        }
        auto req = reader.release();
        if (websocket::is_upgrade(req)) {
            stream.expires_never();
            std::make_shared<WsSession>(std::move(stream),
                                        ctx,
                                        opts,
                                        set,
                                        std::move(slot),
                                        std::move(remote),
                                        std::move(id))
                ->start(std::move(req));
            co_return;
        }
        const bool head       = req.method() == http::verb::head;
        const bool keep_alive = req.keep_alive();
        // The connection's error boundary: an exception is logged with the connection id and
        // the request, answered 500 `internal` (no internal text), and the connection closed.
        std::optional<HttpResponse> res;
        std::exception_ptr failure;
        try {
            inject_fault(opts, std::string_view(req.target().data(), req.target().size()));
            res = co_await async_route(ctx, from_wire(req, remote), net::use_awaitable);
        } catch (...) {
            failure = std::current_exception();
        }
        if (failure) {
            log_line("http " + id,
                     "internal error on " + std::string(req.method_string()) + " " +
                         printable(req.target()) + ": " + what_of(failure));
            res = internal_error_response();
        }
        auto out       = to_wire(std::move(*res), req.version(), keep_alive && !failure, head);
        auto [wec, wn] = co_await http::async_write(stream, out, kAwait);
        (void)wn;
        if (wec) {
            break;
        }
        if (!out.keep_alive()) {
            break;
        }
    }
    beast::error_code ignored;
    stream.socket().shutdown(tcp::socket::shutdown_send, ignored);
}

net::awaitable<void> listen(tcp::acceptor& acceptor,
                            net::io_context& ioc,
                            ApiContext& ctx,
                            const ServerOptions& opts,
                            SessionSet& set,
                            ConnectionLimiter& limiter) {
    for (;;) {
        auto [ec, socket] = co_await acceptor.async_accept(net::make_strand(ioc), kAwait);
        if (ec) {
            if (ec == net::error::operation_aborted || !acceptor.is_open()) {
                co_return;
            }
            log_line("listen", "accept: " + ec.message());
            continue;
        }
        // Every event is small and answers a move: send it now, not after the peer's delayed ACK
        // (without it a game played back to back waited ~40 ms per move, docs/operations.md).
        boost::system::error_code nodelay_ec;
        socket.set_option(tcp::no_delay(true), nodelay_ec);
        auto ex = socket.get_executor();
        boost::system::error_code rec;
        const auto remote_ep = socket.remote_endpoint(rec);
        std::string remote   = rec ? std::string{} : remote_ep.address().to_string();
        auto slot            = limiter.acquire(remote);
        if (!slot) {
            log_line("listen", "refusing a connection from " + remote + " (429: over the cap)");
            net::co_spawn(ex, refuse_session(std::move(socket)), log_exception("listen"));
            continue;
        }
        auto id = new_connection_id();
        net::co_spawn(
            ex,
            http_session(std::move(socket), ctx, opts, set, std::move(slot), std::move(remote), id),
            log_exception("http " + id));
    }
}

// The web client: --web, else web/dist in the working directory, else next to the binary
// (DIR/web for an installed layout, or the build tree's ../../web/dist). No source-tree path is
// compiled in.
std::filesystem::path find_web_root(const ServerOptions& o) {
    std::error_code ec;
    if (!o.web_dir.empty()) {
        return std::filesystem::is_regular_file(o.web_dir / "index.html", ec)
                   ? o.web_dir
                   : std::filesystem::path{};
    }
    std::vector<std::filesystem::path> candidates{"web/dist"};
    const auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
    if (!ec) {
        candidates.push_back(exe.parent_path() / "web");
        candidates.push_back(exe.parent_path() / "../../web/dist");
    }
    for (const auto& p : candidates) {
        if (std::filesystem::is_regular_file(p / "index.html", ec)) {
            return std::filesystem::weakly_canonical(p, ec);
        }
    }
    return {};
}

// Runs the io_context until it stops; an exception escaping a handler is logged and the loop
// goes on (no handler can end the process).
void run_loop(net::io_context& ioc) {
    for (;;) {
        try {
            ioc.run();
            return;
        } catch (const std::exception& e) {
            log_line("server", std::string("internal error in a handler: ") + e.what());
        } catch (...) {
            log_line("server", "unknown internal error in a handler");
        }
    }
}

}  // namespace

int run_server(const ServerOptions& options) {
    init_crypto();
    std::filesystem::create_directories(options.data_dir);
    SystemClock clock;
    StoreExecutor store(open_store(options.store, options.data_dir));
    // Before the io_context: sessions destroyed with it still release their slots.
    ConnectionLimiter limiter(options.max_connections_per_ip);
    net::io_context ioc(options.io_threads);
    std::uint64_t seed = 0;
    {
        const auto hex = random_hex(8);
        seed           = std::stoull(hex, nullptr, 16);
    }
    AiSettings ai_settings;
    ai_settings.threads        = options.ai_threads > 0
                                     ? options.ai_threads
                                     : static_cast<int>(std::max(1U, std::thread::hardware_concurrency()));
    ai_settings.max_pending    = options.ai_queue;
    ai_settings.max_nodes      = options.ai_nodes;
    ai_settings.hard_move_time = options.hard_move_time;
    ai_settings.seed           = seed;
    ai_settings.egdb_dir       = options.egdb_dir;
    AiPool ai(ai_settings);
    GameSettings settings;
    settings.first_move_timeout_ms = options.first_move_timeout_ms;
    settings.reward_daily_cap      = options.reward_daily_cap;
    settings.invite_ttl_ms         = options.invite_ttl_ms;
    settings.pairing_wait_ms       = options.pairing_wait_ms;
    settings.idle_unload_ms        = options.idle_unload_ms;
    settings.abandon_after_ms      = options.abandon_after_ms;
    settings.max_open_games        = options.max_open_games;
    const WireMessages messages;
    Services svc{ioc, clock, store, ai, settings, messages, seed, nullptr};
    Lobby lobby(svc);
    svc.lobby = &lobby;
    std::unique_ptr<Cluster> cluster;
    std::unique_ptr<RemoteAi> remote_ai;
    if (!options.bus.empty()) {
        RedisAddress address;
        if (auto err = parse_redis_url(options.bus, address)) {
            throw std::runtime_error(*err);
        }
        std::string node = options.node_id;
        if (node.empty()) {
            char host[256] = {};
            ::gethostname(host, sizeof host - 1);
            node = std::string(host) + "-" + random_hex(3);
        }
        const std::string secret = cluster_secret(options.cluster_secret, "--bus");
        cluster       = std::make_unique<Cluster>(svc, address, node, secret, options.lease_ms);
        svc.placement = cluster.get();
        cluster->start();
        // The engine workers (`papan worker`) on the same bus take the computer moves first.
        RemoteAiOptions remote_options;
        remote_options.pickup_ms = options.worker_pickup_ms;
        remote_ai = std::make_unique<RemoteAi>(ioc, clock, address, node, secret, remote_options);
        remote_ai->start();
        ai.set_offload(remote_ai.get());
    }

    // Start-up loads only the games whose clock runs (a flag must fall on time, docs/operations.md
    // "Room lifecycle"); every other game is read from the store when it is asked for. Untimed
    // games untouched for --abandon-after end abandoned here. With several nodes, only games no
    // live node holds are taken (and this node's own, after a restart). The store thread is idle
    // until the first job.
    int resumed   = 0;
    int abandoned = 0;
    std::vector<std::string> claimed;
    const auto started_ms = clock.now_ms();
    for_each_unfinished(store.direct(), INT64_MAX, [&](GameRecord& header) {
        if (abandon_if_stale(header, started_ms, options.abandon_after_ms)) {
            if (!cluster || !store.direct().game_owner(header.id, started_ms)) {
                store.direct().update_game(header);
                ++abandoned;
            }
            return;
        }
        if (!clock_runs(header)) {
            return;
        }
        if (cluster && !store.direct().claim_game(
                           header.id, cluster->node(), started_ms, cluster->lease_ms())) {
            return;
        }
        auto rec = store.direct().load_game(header.id);
        if (!rec) {
            return;
        }
        if (cluster) {
            claimed.push_back(rec->id);
        }
        if (lobby.adopt(std::move(*rec)) != nullptr) {
            ++resumed;
        }
    });
    if (resumed > 0 || abandoned > 0) {
        log_line("start",
                 "resumed " + std::to_string(resumed) + " games with running clocks, " +
                     std::to_string(abandoned) + " abandoned");
    }
    for (const auto& id : claimed) {
        cluster->announce_owner(id);
    }

    AccountLimits limits;
    limits.login_attempts        = options.login_attempts;
    limits.login_attempts_per_ip = options.login_attempts_per_ip;
    limits.login_window_seconds  = options.login_window_seconds;
    limits.registrations_per_ip  = options.registrations_per_ip;
    limits.hash_queue            = options.hash_queue;
    limits.session_ms = static_cast<std::int64_t>(options.session_days * 24 * 3600 * 1000);
    Accounts accounts(clock, limits);
    ApiContext ctx{svc, lobby, find_web_root(options)};
    ctx.accounts = &accounts;
    Throttle creates(clock, 60'000);
    ctx.creates        = &creates;
    ctx.cluster        = cluster.get();
    ctx.creates_per_ip = options.creates_per_ip;
    AuthService auth(options.auth, clock);
    ctx.auth = &auth;
    auth.start();
    const auto puzzles = start_puzzle_service(options, clock);
    Throttle puzzle_limits(clock, 60'000);
    ctx.puzzles                    = puzzles.get();
    ctx.puzzle_limits              = &puzzle_limits;
    ctx.puzzle_requests_per_minute = options.puzzles.requests_per_minute;
    ctx.puzzle_attempts_per_minute = options.puzzles.attempts_per_minute;
    SessionSet sessions;
    tcp::acceptor acceptor(ioc);
    const tcp::endpoint ep(net::ip::make_address(options.host), options.port);
    acceptor.open(ep.protocol());
    acceptor.set_option(net::socket_base::reuse_address(true));
    acceptor.bind(ep);
    acceptor.listen(net::socket_base::max_listen_connections);
    const auto bound = acceptor.local_endpoint();
    net::co_spawn(
        ioc, listen(acceptor, ioc, ctx, options, sessions, limiter), log_exception("listen"));
    lobby.post([&lobby] { lobby.start_housekeeping(); });
    ctx.ready = true;
    const EndgameBuilds endgames(options.build_endgames, options.egdb_dir);
    if (options.on_ready) {
        const auto a = bound.address();
        options.on_ready(a.is_v6() ? "[" + a.to_string() + "]" : a.to_string(), bound.port());
    }

    net::signal_set signals(ioc, SIGINT, SIGTERM);
    net::steady_timer stop_timer(ioc);
    signals.async_wait([&](const beast::error_code& ec, int sig) {
        if (ec) {
            return;
        }
        log_line("server", "signal " + std::to_string(sig) + ": shutting down");
        ctx.ready = false;
        beast::error_code ignored;
        acceptor.close(ignored);
        lobby.post([&lobby] { lobby.shutdown(); });
        for (const auto& s : sessions.all()) {
            s->close(websocket::close_code::going_away);
        }
        stop_timer.expires_after(300ms);
        stop_timer.async_wait([&ioc](const beast::error_code&) { ioc.stop(); });
    });

    std::vector<std::thread> threads;
    for (int i = 1; i < std::max(1, options.io_threads); ++i) {
        threads.emplace_back([&ioc] { run_loop(ioc); });
    }
    run_loop(ioc);
    for (auto& t : threads) {
        t.join();
    }
    accounts.stop();
    puzzles->stop();
    auth.stop();
    if (remote_ai) {
        ai.set_offload(nullptr);
        remote_ai->stop();
    }
    ai.stop();
    store.stop();
    if (cluster) {
        cluster->stop();
    }
    log_line("server", "stopped");
    return 0;
}

}  // namespace papan::server
