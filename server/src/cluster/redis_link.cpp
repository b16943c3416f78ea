#include "cluster/redis_link.hpp"

#include <boost/url/parse.hpp>

#include <hiredis/hiredis.h>

namespace papan::server {

namespace {

struct ReplyDeleter {
    void operator()(redisReply* r) const noexcept { freeReplyObject(r); }
};

using ReplyPtr = std::unique_ptr<redisReply, ReplyDeleter>;

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

namespace redis {

void ContextDeleter::operator()(redisContext* c) const noexcept {
    redisFree(c);
}

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

std::optional<RedisReply> read_reply(redisContext* c) {
    void* raw = nullptr;
    if (redisGetReply(c, &raw) != REDIS_OK || raw == nullptr) {
        return std::nullopt;
    }
    const ReplyPtr r(static_cast<redisReply*>(raw));
    return convert(r.get());
}

int fd_of(redisContext* c) noexcept {
    return c->fd;
}

void set_timeout(redisContext* c, int ms) {
    const timeval timeout{ms / 1000, (ms % 1000) * 1000};
    redisSetTimeout(c, timeout);
}

}  // namespace redis

std::optional<RedisReply> RedisLink::command(const std::vector<std::string>& args) {
    // A connection found dead (Redis restarted since the last command) is replaced once.
    for (int attempt = 0; attempt < 2; ++attempt) {
        if (!ctx_) {
            ctx_ = redis::connect(address_, error_);
            if (!ctx_) {
                return std::nullopt;
            }
            redis::set_timeout(ctx_.get(), timeout_ms_);
        }
        redis::append(ctx_.get(), args);
        if (auto reply = redis::read_reply(ctx_.get())) {
            return reply;
        }
        error_ = ctx_->errstr;
        ctx_.reset();
    }
    return std::nullopt;
}

}  // namespace papan::server
