#include "cluster/redis_bus.hpp"

#include "support/log.hpp"

#include <boost/url/parse.hpp>

#include <chrono>
#include <hiredis/hiredis.h>
#include <stdexcept>
#include <sys/socket.h>

namespace papan::server {

namespace {

constexpr std::size_t kMaxQueuedJobs = 200000;  // beyond, publishes are dropped
constexpr std::size_t kMaxBatch      = 1024;    // commands pipelined in one round trip

struct ContextDeleter {
    void operator()(redisContext* c) const noexcept { redisFree(c); }
};

using Context = std::unique_ptr<redisContext, ContextDeleter>;

struct ReplyDeleter {
    void operator()(redisReply* r) const noexcept { freeReplyObject(r); }
};

using ReplyPtr = std::unique_ptr<redisReply, ReplyDeleter>;

// A connected context, or null (with the reason in `why`).
Context connect(const RedisAddress& a, std::string& why) {
    const timeval timeout{0, 500 * 1000};
    Context c(redisConnectWithTimeout(a.host.c_str(), a.port, timeout));
    if (!c || c->err != 0) {
        why = c ? c->errstr : "out of memory";
        return nullptr;
    }
    redisEnableKeepAlive(c.get());
    if (!a.password.empty()) {
        ReplyPtr r(static_cast<redisReply*>(
            a.user.empty() ? redisCommand(c.get(), "AUTH %b", a.password.data(), a.password.size())
                           : redisCommand(c.get(),
                                          "AUTH %b %b",
                                          a.user.data(),
                                          a.user.size(),
                                          a.password.data(),
                                          a.password.size())));
        if (!r || r->type == REDIS_REPLY_ERROR) {
            why = "AUTH failed";
            return nullptr;
        }
    }
    if (a.db != 0) {
        ReplyPtr r(static_cast<redisReply*>(redisCommand(c.get(), "SELECT %d", a.db)));
        if (!r || r->type == REDIS_REPLY_ERROR) {
            why = "SELECT failed";
            return nullptr;
        }
    }
    return c;
}

RedisReply convert(const redisReply* r) {
    RedisReply out;
    switch (r->type) {
    case REDIS_REPLY_INTEGER:
        out.kind    = RedisReply::Kind::Integer;
        out.integer = r->integer;
        break;
    case REDIS_REPLY_STRING:
        out.kind = RedisReply::Kind::String;
        out.str.assign(r->str, r->len);
        break;
    case REDIS_REPLY_STATUS:
        out.kind = RedisReply::Kind::Status;
        out.str.assign(r->str, r->len);
        break;
    case REDIS_REPLY_ERROR:
        out.kind = RedisReply::Kind::Error;
        out.str.assign(r->str, r->len);
        break;
    case REDIS_REPLY_ARRAY:
        out.kind = RedisReply::Kind::Array;
        for (std::size_t i = 0; i < r->elements; ++i) {
            out.elements.push_back(convert(r->element[i]));
        }
        break;
    default:
        break;
    }
    return out;
}

void append(redisContext* c, const std::vector<std::string>& args) {
    std::vector<const char*> argv;
    std::vector<std::size_t> lens;
    argv.reserve(args.size());
    lens.reserve(args.size());
    for (const auto& a : args) {
        argv.push_back(a.data());
        lens.push_back(a.size());
    }
    redisAppendCommandArgv(c, static_cast<int>(args.size()), argv.data(), lens.data());
}

}  // namespace

std::optional<std::string> parse_redis_url(const std::string& url, RedisAddress& out) {
    if (url.rfind("rediss://", 0) == 0) {
        return "rediss:// (TLS) is not supported: hiredis 0.14 (Debian 12) has no TLS; reach Redis "
               "over a private network or a TLS tunnel (docs/operations.md, \"Cluster trust\")";
    }
    constexpr std::string_view scheme = "redis://";
    if (url.rfind(scheme, 0) != 0) {
        return "the bus must be a redis://[USER:PASSWORD@]HOST[:PORT][/DB] URL";
    }
    std::string rest = url.substr(scheme.size());
    RedisAddress a;
    if (const auto at = rest.rfind('@'); at != std::string::npos) {
        const auto urls = boost::urls::parse_uri(url);
        if (!urls) {
            return std::string("bad user or password in the bus URL");
        }
        a.user     = urls->user();
        a.password = urls->password();
        rest       = rest.substr(at + 1);
    }
    if (const auto slash = rest.find('/'); slash != std::string::npos) {
        const std::string db = rest.substr(slash + 1);
        rest.resize(slash);
        if (!db.empty()) {
            try {
                a.db = std::stoi(db);
            } catch (const std::exception&) {
                return "bad database number in the bus URL";
            }
        }
    }
    if (const auto colon = rest.rfind(':'); colon != std::string::npos) {
        try {
            a.port = std::stoi(rest.substr(colon + 1));
        } catch (const std::exception&) {
            return "bad port in the bus URL";
        }
        rest.resize(colon);
    }
    if (rest.empty() || a.port <= 0 || a.port > 65535) {
        return "bad host or port in the bus URL";
    }
    a.host = rest;
    out    = a;
    return std::nullopt;
}

RedisBus::RedisBus(RedisAddress address,
                   std::vector<std::string> channels,
                   MessageFn on_message,
                   ReconnectFn on_resubscribed)
    : address_(std::move(address))
    , channels_(std::move(channels))
    , on_message_(std::move(on_message))
    , on_resubscribed_(std::move(on_resubscribed)) {}

RedisBus::~RedisBus() {
    stop();
}

void RedisBus::start() {
    std::string why;
    auto probe = connect(address_, why);
    if (!probe) {
        throw std::runtime_error("cannot reach Redis at " + address_.host + ":" +
                                 std::to_string(address_.port) + ": " + why);
    }
    publisher_  = std::thread([this] { publisher_loop(); });
    subscriber_ = std::thread([this] { subscriber_loop(); });
}

void RedisBus::stop() {
    {
        const std::lock_guard lock(mutex_);
        if (stopping_.exchange(true)) {
            return;
        }
        if (const int fd = subscriber_fd_.load(); fd >= 0) {
            ::shutdown(fd, SHUT_RDWR);  // wakes the blocking read
        }
    }
    wake_.notify_all();
    if (publisher_.joinable()) {
        publisher_.join();
    }
    if (subscriber_.joinable()) {
        subscriber_.join();
    }
}

void RedisBus::publish(std::string channel, std::string payload) {
    {
        const std::lock_guard lock(mutex_);
        if (stopping_ || jobs_.size() >= kMaxQueuedJobs) {
            return;
        }
        jobs_.push_back(Job{{"PUBLISH", std::move(channel), std::move(payload)}, {}});
    }
    wake_.notify_one();
}

void RedisBus::command(std::vector<std::string> args, ReplyFn done) {
    {
        const std::lock_guard lock(mutex_);
        if (!stopping_) {
            jobs_.push_back(Job{std::move(args), std::move(done)});
            wake_.notify_one();
            return;
        }
    }
    if (done) {
        done(std::nullopt);
    }
}

void RedisBus::publisher_loop() {
    Context ctx;
    bool warned = false;
    for (;;) {
        std::vector<Job> batch;
        {
            std::unique_lock lock(mutex_);
            wake_.wait(lock, [this] { return stopping_ || !jobs_.empty(); });
            if (stopping_ && jobs_.empty()) {
                break;
            }
            while (!jobs_.empty() && batch.size() < kMaxBatch) {
                batch.push_back(std::move(jobs_.front()));
                jobs_.pop_front();
            }
        }
        // A connection found dead while sending (Redis restarted since the last batch) is
        // replaced and the unanswered rest of the batch sent once more.
        std::size_t answered = 0;
        for (int attempt = 0; attempt < 2 && answered < batch.size(); ++attempt) {
            if (!ctx) {
                std::string why;
                ctx = connect(address_, why);
                if (ctx) {
                    const timeval timeout{2, 0};
                    redisSetTimeout(ctx.get(), timeout);
                    if (warned) {
                        log_line("bus", "Redis is back");
                    }
                    warned = false;
                } else {
                    if (!warned) {
                        log_line("bus", "Redis unreachable (" + why + "); dropping bus messages");
                        warned = true;
                    }
                    break;
                }
            }
            for (std::size_t i = answered; i < batch.size(); ++i) {
                append(ctx.get(), batch[i].args);
            }
            for (; answered < batch.size(); ++answered) {
                void* raw = nullptr;
                if (redisGetReply(ctx.get(), &raw) != REDIS_OK || raw == nullptr) {
                    log_line("bus", std::string("Redis connection lost: ") + ctx->errstr);
                    ctx.reset();
                    break;
                }
                ReplyPtr r(static_cast<redisReply*>(raw));
                if (batch[answered].done) {
                    batch[answered].done(convert(r.get()));
                }
            }
        }
        for (; answered < batch.size(); ++answered) {
            if (batch[answered].done) {
                batch[answered].done(std::nullopt);
            }
        }
        if (!ctx) {
            // Redis is away: do not spin; jobs queued meanwhile fail fast on the next round.
            std::unique_lock lock(mutex_);
            wake_.wait_for(
                lock, std::chrono::milliseconds(100), [this] { return stopping_.load(); });
        }
    }
}

void RedisBus::subscriber_loop() {
    bool first = true;
    while (!stopping_) {
        std::string why;
        auto ctx = connect(address_, why);
        if (!ctx) {
            std::unique_lock lock(mutex_);
            wake_.wait_for(
                lock, std::chrono::milliseconds(200), [this] { return stopping_.load(); });
            continue;
        }
        std::vector<std::string> args{"SUBSCRIBE"};
        args.insert(args.end(), channels_.begin(), channels_.end());
        append(ctx.get(), args);
        bool ok = true;
        for (std::size_t i = 0; i < channels_.size() && ok; ++i) {
            void* raw = nullptr;
            ok        = redisGetReply(ctx.get(), &raw) == REDIS_OK && raw != nullptr;
            freeReplyObject(raw);
        }
        if (!ok) {
            continue;
        }
        {
            const std::lock_guard lock(mutex_);
            if (stopping_) {
                break;
            }
            subscriber_fd_ = ctx->fd;
        }
        if (!first) {
            log_line("bus", "subscription restored");
            on_resubscribed_();
        }
        first = false;
        for (;;) {
            void* raw = nullptr;
            if (redisGetReply(ctx.get(), &raw) != REDIS_OK || raw == nullptr) {
                break;
            }
            ReplyPtr r(static_cast<redisReply*>(raw));
            if (r->type == REDIS_REPLY_ARRAY && r->elements == 3 &&
                r->element[0]->type == REDIS_REPLY_STRING &&
                std::string_view(r->element[0]->str, r->element[0]->len) == "message") {
                on_message_(std::string(r->element[1]->str, r->element[1]->len),
                            std::string(r->element[2]->str, r->element[2]->len));
            }
        }
        {
            const std::lock_guard lock(mutex_);
            subscriber_fd_ = -1;
        }
        if (!stopping_) {
            log_line("bus", "subscription lost; reconnecting");
        }
    }
}

}  // namespace papan::server
