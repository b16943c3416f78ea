// Accounts (docs/protocol.md, "HTTP" and "Abuse limits"): registration, login, logout, password
// change and session lookup, with their throttles. Password hashes (Argon2id: slow and
// memory-hard on purpose) are made and checked on a small pool of their own with a bounded
// queue: when it is full the request is answered 503 with Retry-After, so a flood of
// registrations cannot grow memory or delay move writes. An unknown username is checked against
// a dummy hash, so the time of an answer does not tell whether the name exists.
#pragma once

#include <papan/server/clock.hpp>

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

namespace papan::server {

// Failures (or events) per key in fixed windows; thread-safe. Keys are normalised by the caller.
class Throttle {
public:
    Throttle(const Clock& clock, std::int64_t window_ms) : clock_(clock), window_ms_(window_ms) {}

    // Seconds to wait before `key` may try again (0: go ahead) under `limit` per window.
    [[nodiscard]] std::int64_t retry_after(const std::string& key, int limit);
    void count(const std::string& key, int limit);
    // retry_after, and when it is 0 counts the event: the check-and-count of every rate cap.
    [[nodiscard]] std::int64_t take(const std::string& key, int limit);
    void clear(const std::string& key);

private:
    struct Window {
        int events            = 0;
        std::int64_t start_ms = 0;
    };

    const Clock& clock_;
    std::int64_t window_ms_;
    std::mutex mutex_;
    std::unordered_map<std::string, Window> windows_;
};

// A fixed pool of threads with a bounded queue: try_post refuses when the queue is full.
class BoundedPool {
public:
    BoundedPool(int threads, std::size_t capacity);
    ~BoundedPool();
    BoundedPool(const BoundedPool&)            = delete;
    BoundedPool& operator=(const BoundedPool&) = delete;

    [[nodiscard]] bool try_post(std::function<void()> job);
    void stop();

private:
    std::size_t capacity_;
    std::mutex mutex_;
    std::condition_variable wake_;
    std::deque<std::function<void()>> jobs_;
    bool stopped_ = false;
    std::vector<std::thread> threads_;
};

struct AccountLimits {
    int login_attempts        = 5;   // failed logins per username per window
    int login_attempts_per_ip = 20;  // failed logins per address per window
    int login_window_seconds  = 60;
    int registrations_per_ip  = 10;  // per hour
    int hash_threads          = 1;
    std::size_t hash_queue    = 8;                        // hashes waiting; beyond, 503
    std::int64_t session_ms   = 30LL * 24 * 3600 * 1000;  // sliding expiry
    int imports_per_user      = 20;  // PDN imports per account per hour (POST /api/import)
    std::size_t import_queue  = 2;   // imports waiting to be read; beyond, 503
};

class Accounts {
public:
    Accounts(const Clock& clock, AccountLimits limits);

    // The key a username is throttled and looked up by (usernames are ASCII, case-insensitive).
    [[nodiscard]] static std::string normalised(const std::string& username);

    [[nodiscard]] const AccountLimits& limits() const noexcept { return limits_; }

    // The hash an unknown username is checked against. Made on first use (call it on the
    // hashing pool): an Argon2id hash takes a tenth of a second or more, and start-up, which
    // must be quick (a restarted node is waited for), does not wait for it.
    [[nodiscard]] const std::string& dummy_hash();

    [[nodiscard]] BoundedPool& hashing() noexcept { return hashing_; }

    // One thread reading PDN imports (CPU work that must not hold an I/O or the store thread).
    [[nodiscard]] BoundedPool& importing() noexcept { return importing_; }

    // Login throttling: seconds to wait (0: go ahead); a failure; a success (clears the user).
    [[nodiscard]] std::int64_t login_wait(const std::string& user, const std::string& ip);
    void login_failed(const std::string& user, const std::string& ip);
    void login_succeeded(const std::string& user);
    // Registration throttling per address: seconds to wait, else the registration is counted.
    [[nodiscard]] std::int64_t take_registration(const std::string& ip);
    // Import throttling per account: seconds to wait, else the import is counted.
    [[nodiscard]] std::int64_t take_import(std::int64_t user_id);

    void stop() {
        hashing_.stop();
        importing_.stop();
    }

private:
    AccountLimits limits_;
    Throttle logins_;
    Throttle registrations_;
    Throttle imports_;
    BoundedPool hashing_;
    BoundedPool importing_;
    std::once_flag dummy_once_;
    std::string dummy_hash_;
};

}  // namespace papan::server
