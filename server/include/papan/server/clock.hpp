// Clock: the server's source of time, injected so tests can drive it. Times are wall-clock
// milliseconds since the Unix epoch, because clocks of stored games must keep counting across
// a restart (the time the server was down is charged to the player on move).
#pragma once

#include <atomic>
#include <cstdint>

namespace papan::server {

class Clock {
public:
    virtual ~Clock()                                  = default;
    [[nodiscard]] virtual std::int64_t now_ms() const = 0;
};

// The system wall clock.
class SystemClock final : public Clock {
public:
    [[nodiscard]] std::int64_t now_ms() const override;
};

// A clock that moves only when told (unit tests).
class ManualClock final : public Clock {
public:
    explicit ManualClock(std::int64_t start_ms = 1'700'000'000'000) : now_(start_ms) {}

    [[nodiscard]] std::int64_t now_ms() const override { return now_.load(); }

    void advance(std::int64_t ms) { now_ += ms; }

private:
    std::atomic<std::int64_t> now_;
};

}  // namespace papan::server
