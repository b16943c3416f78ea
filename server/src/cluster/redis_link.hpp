// The Redis connection pieces shared by the bus (redis_bus.hpp) and the engine workers
// (ai_worker.hpp): an address parsed from a redis:// URL, replies as plain values, and
// RedisLink, one synchronous connection that reconnects on its own.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

struct redisContext;

namespace papan::server {

struct RedisReply {
    enum class Kind : std::uint8_t {
        Nil,
        Integer,
        String,
        Status,
        Error,
        Array
    };
    Kind kind         = Kind::Nil;
    long long integer = 0;
    std::string str;  // String, Status, Error
    std::vector<RedisReply> elements;
};

struct RedisAddress {
    std::string host = "127.0.0.1";
    int port         = 6379;
    int db           = 0;
    std::string user;      // Redis 6 ACL user ("" = the default user)
    std::string password;  // "" = no AUTH
};

// Parses redis://[[USER]:PASSWORD@]HOST[:PORT][/DB] (user and password percent-decoded); an
// error text, or nothing when fine. rediss:// (TLS) is refused with the reason: hiredis 0.14,
// the version Debian 12 ships, has no TLS.
[[nodiscard]] std::optional<std::string> parse_redis_url(const std::string& url, RedisAddress& out);

namespace redis {

struct ContextDeleter {
    void operator()(redisContext* c) const noexcept;
};

using Context = std::unique_ptr<redisContext, ContextDeleter>;

// A connected (and authenticated, and SELECTed) context, or null with the reason in `why`.
[[nodiscard]] Context connect(const RedisAddress& a, std::string& why);
// Queues one command on the context (sent with the next read).
void append(redisContext* c, const std::vector<std::string>& args);
// The next reply; nullopt when the connection is lost (or the read timed out).
[[nodiscard]] std::optional<RedisReply> read_reply(redisContext* c);
// The file descriptor of the context, to shut a blocking read down from another thread.
[[nodiscard]] int fd_of(redisContext* c) noexcept;
void set_timeout(redisContext* c, int ms);

}  // namespace redis

// One synchronous connection for one thread: connects on first use and again after a failure.
class RedisLink {
public:
    explicit RedisLink(RedisAddress address, int timeout_ms = 5000)
        : address_(std::move(address))
        , timeout_ms_(timeout_ms) {}

    // The reply, or nullopt when Redis could not be reached (the reason in last_error()).
    std::optional<RedisReply> command(const std::vector<std::string>& args);

    [[nodiscard]] const std::string& last_error() const noexcept { return error_; }

private:
    RedisAddress address_;
    int timeout_ms_;
    redis::Context ctx_;
    std::string error_;
};

}  // namespace papan::server
