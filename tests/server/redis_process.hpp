// A private redis-server for one test (Debian's redis-server package): its own free port, no
// persistence, stopped at destruction. restart() stops it and starts a fresh one on the same port
// (everything it held is gone, as after a real Redis restart).
#pragma once

#include <memory>
#include <string>

namespace papan::test {

class RedisProcess {
public:
    RedisProcess();
    ~RedisProcess();
    RedisProcess(const RedisProcess&)            = delete;
    RedisProcess& operator=(const RedisProcess&) = delete;

    [[nodiscard]] std::string url() const;

    [[nodiscard]] int port() const { return port_; }

    void stop();
    void start();

    // PUBLISH `payload` on `channel` with redis-cli (Debian's redis-tools, which redis-server
    // brings): the number of subscribers it reached.
    [[nodiscard]] int publish(const std::string& channel, const std::string& payload) const;

    void restart() {
        stop();
        start();
    }

    // `redis-cli MONITOR` into `log` from now until the returned object is destroyed: every
    // command the server runs, PUBLISH payloads included (what anyone on the bus can read).
    class Monitor {
    public:
        Monitor(int port, const std::string& log);
        ~Monitor();
        Monitor(const Monitor&)            = delete;
        Monitor& operator=(const Monitor&) = delete;

    private:
        int pid_ = -1;
    };

    [[nodiscard]] std::unique_ptr<Monitor> monitor(const std::string& log) const {
        return std::make_unique<Monitor>(port_, log);
    }

private:
    int pid_  = -1;
    int port_ = 0;
};

}  // namespace papan::test
