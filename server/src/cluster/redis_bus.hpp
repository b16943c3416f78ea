// RedisBus: the link between server nodes (hiredis, synchronous API on two threads of its own).
// One thread holds a SUBSCRIBE connection and hands every message to a callback; the other
// sends PUBLISH and other commands from a queue, pipelined, so callers never block on Redis.
// Both reconnect on their own when Redis goes away (restart, network): messages published while
// it is away are dropped, which the cluster tolerates because the store is the source of truth
// (see cluster.hpp). Callbacks run on the bus threads; they must hand work off quickly.
#pragma once

#include "cluster/redis_link.hpp"

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace papan::server {

class RedisBus {
public:
    using MessageFn   = std::function<void(const std::string& channel, std::string payload)>;
    using ReconnectFn = std::function<void()>;
    using ReplyFn     = std::function<void(std::optional<RedisReply>)>;

    // Subscribes to `channels`; on_message gets each message; on_resubscribed runs each time the
    // subscription is back after a lost connection (messages may have been missed meanwhile).
    RedisBus(RedisAddress address,
             std::vector<std::string> channels,
             MessageFn on_message,
             ReconnectFn on_resubscribed);
    ~RedisBus();
    RedisBus(const RedisBus&)            = delete;
    RedisBus& operator=(const RedisBus&) = delete;

    // Connects both links once (throws std::runtime_error when Redis cannot be reached at start).
    void start();
    void stop();

    // Queued; never blocks. Dropped when Redis is unreachable.
    void publish(std::string channel, std::string payload);
    // Runs a command; `done` gets the reply, or nullopt when Redis could not be reached.
    void command(std::vector<std::string> args, ReplyFn done);

private:
    struct Job {
        std::vector<std::string> args;
        ReplyFn done;  // empty for publish
    };

    void publisher_loop();
    void subscriber_loop();

    RedisAddress address_;
    std::vector<std::string> channels_;
    MessageFn on_message_;
    ReconnectFn on_resubscribed_;

    std::mutex mutex_;
    std::condition_variable wake_;
    std::deque<Job> jobs_;
    std::atomic<bool> stopping_{false};
    std::atomic<int> subscriber_fd_{-1};
    std::thread publisher_;
    std::thread subscriber_;
};

}  // namespace papan::server
