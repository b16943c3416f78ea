// A private redis-server for one test (Debian's redis-server package): its own free port, no
// persistence, stopped at destruction. restart() stops it and starts a fresh one on the same port
// (everything it held is gone, as after a real Redis restart).
#pragma once

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

private:
    int pid_  = -1;
    int port_ = 0;
};

}  // namespace papan::test
