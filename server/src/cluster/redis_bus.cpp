#include "cluster/redis_bus.hpp"

#include "support/log.hpp"

#include <chrono>
#include <hiredis/hiredis.h>
#include <stdexcept>
#include <sys/socket.h>

namespace papan::server {

namespace {

constexpr std::size_t kMaxQueuedJobs = 200000;  // beyond, publishes are dropped
constexpr std::size_t kMaxBatch      = 1024;    // commands pipelined in one round trip

using redis::Context;

}  // namespace

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
    auto probe = redis::connect(address_, why);
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
                ctx = redis::connect(address_, why);
                if (ctx) {
                    redis::set_timeout(ctx.get(), 2000);
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
                redis::append(ctx.get(), batch[i].args);
            }
            for (; answered < batch.size(); ++answered) {
                auto reply = redis::read_reply(ctx.get());
                if (!reply) {
                    log_line("bus", std::string("Redis connection lost: ") + ctx->errstr);
                    ctx.reset();
                    break;
                }
                if (batch[answered].done) {
                    batch[answered].done(std::move(*reply));
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
        auto ctx = redis::connect(address_, why);
        if (!ctx) {
            std::unique_lock lock(mutex_);
            wake_.wait_for(
                lock, std::chrono::milliseconds(200), [this] { return stopping_.load(); });
            continue;
        }
        std::vector<std::string> args{"SUBSCRIBE"};
        args.insert(args.end(), channels_.begin(), channels_.end());
        redis::append(ctx.get(), args);
        bool ok = true;
        for (std::size_t i = 0; i < channels_.size() && ok; ++i) {
            ok = redis::read_reply(ctx.get()).has_value();
        }
        if (!ok) {
            continue;
        }
        {
            const std::lock_guard lock(mutex_);
            if (stopping_) {
                break;
            }
            subscriber_fd_ = redis::fd_of(ctx.get());
        }
        if (!first) {
            log_line("bus", "subscription restored");
            on_resubscribed_();
        }
        first = false;
        for (;;) {
            auto r = redis::read_reply(ctx.get());
            if (!r) {
                break;
            }
            if (r->kind == RedisReply::Kind::Array && r->elements.size() == 3 &&
                r->elements[0].kind == RedisReply::Kind::String &&
                r->elements[0].str == "message") {
                on_message_(r->elements[1].str, std::move(r->elements[2].str));
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
