#include "api/accounts.hpp"

#include <papan/server/tokens.hpp>

#include <algorithm>
#include <cctype>

namespace papan::server {

std::int64_t Throttle::retry_after(const std::string& key, int limit) {
    if (limit <= 0) {
        return 0;
    }
    const auto now = clock_.now_ms();
    std::lock_guard lock(mutex_);
    const auto it = windows_.find(key);
    if (it == windows_.end()) {
        return 0;
    }
    const auto end = it->second.start_ms + window_ms_;
    if (now >= end) {
        windows_.erase(it);
        return 0;
    }
    return it->second.events >= limit ? (end - now + 999) / 1000 : 0;
}

void Throttle::count(const std::string& key, int limit) {
    if (limit <= 0) {
        return;
    }
    const auto now = clock_.now_ms();
    std::lock_guard lock(mutex_);
    if (windows_.size() > 100'000) {  // drop finished windows (a flood of made-up names)
        std::erase_if(windows_,
                      [&](const auto& kv) { return now >= kv.second.start_ms + window_ms_; });
    }
    auto& w = windows_[key];
    if (w.events == 0 || now >= w.start_ms + window_ms_) {
        w = Window{0, now};
    }
    ++w.events;
}

std::int64_t Throttle::take(const std::string& key, int limit) {
    const auto wait = retry_after(key, limit);
    if (wait == 0) {
        count(key, limit);
    }
    return wait;
}

void Throttle::clear(const std::string& key) {
    std::lock_guard lock(mutex_);
    windows_.erase(key);
}

BoundedPool::BoundedPool(int threads, std::size_t capacity) : capacity_(capacity) {
    for (int i = 0; i < std::max(1, threads); ++i) {
        threads_.emplace_back([this] {
            for (;;) {
                std::function<void()> job;
                {
                    std::unique_lock lock(mutex_);
                    wake_.wait(lock, [this] { return stopped_ || !jobs_.empty(); });
                    if (stopped_ && jobs_.empty()) {
                        return;
                    }
                    job = std::move(jobs_.front());
                    jobs_.pop_front();
                }
                job();
            }
        });
    }
}

BoundedPool::~BoundedPool() {
    stop();
}

bool BoundedPool::try_post(std::function<void()> job) {
    {
        std::lock_guard lock(mutex_);
        if (stopped_ || jobs_.size() >= capacity_) {
            return false;
        }
        jobs_.push_back(std::move(job));
    }
    wake_.notify_one();
    return true;
}

void BoundedPool::stop() {
    {
        std::lock_guard lock(mutex_);
        stopped_ = true;
    }
    wake_.notify_all();
    for (auto& t : threads_) {
        if (t.joinable()) {
            t.join();
        }
    }
}

Accounts::Accounts(const Clock& clock, AccountLimits limits)
    : limits_(limits)
    , logins_(clock, static_cast<std::int64_t>(limits.login_window_seconds) * 1000)
    , registrations_(clock, 3600 * 1000)
    , imports_(clock, 3600 * 1000)
    , hashing_(limits.hash_threads, limits.hash_queue)
    , importing_(1, limits.import_queue) {}

const std::string& Accounts::dummy_hash() {
    std::call_once(dummy_once_, [this] { dummy_hash_ = hash_password(random_token()); });
    return dummy_hash_;
}

std::string Accounts::normalised(const std::string& username) {
    std::string out = username;
    std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) {
        return static_cast<char>(std::tolower(c));
    });
    return out;
}

std::int64_t Accounts::login_wait(const std::string& user, const std::string& ip) {
    return std::max(logins_.retry_after("u:" + normalised(user), limits_.login_attempts),
                    ip.empty() ? std::int64_t{0}
                               : logins_.retry_after("ip:" + ip, limits_.login_attempts_per_ip));
}

void Accounts::login_failed(const std::string& user, const std::string& ip) {
    logins_.count("u:" + normalised(user), limits_.login_attempts);
    if (!ip.empty()) {
        logins_.count("ip:" + ip, limits_.login_attempts_per_ip);
    }
}

void Accounts::login_succeeded(const std::string& user) {
    logins_.clear("u:" + normalised(user));
}

std::int64_t Accounts::take_registration(const std::string& ip) {
    if (ip.empty()) {
        return 0;
    }
    return registrations_.take("ip:" + ip, limits_.registrations_per_ip);
}

std::int64_t Accounts::take_import(std::int64_t user_id) {
    return imports_.take("u:" + std::to_string(user_id), limits_.imports_per_user);
}

}  // namespace papan::server
