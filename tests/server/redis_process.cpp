#include "redis_process.hpp"

#include <arpa/inet.h>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <fcntl.h>
#include <fstream>
#include <netinet/in.h>
#include <random>
#include <stdexcept>
#include <sys/socket.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace papan::test {

namespace {

// connect() (a listener answers) or bind() (the port is free) on 127.0.0.1:port.
bool loopback(int port, bool connect_to) {
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0) {
        return false;
    }
    sockaddr_in addr{};
    addr.sin_family      = AF_INET;
    addr.sin_port        = htons(static_cast<std::uint16_t>(port));
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    const auto* a        = reinterpret_cast<sockaddr*>(&addr);
    const bool ok = (connect_to ? ::connect(fd, a, sizeof addr) : ::bind(fd, a, sizeof addr)) == 0;
    ::close(fd);
    return ok;
}

bool port_accepts(int port) {
    return loopback(port, true);
}

bool port_free(int port) {
    return loopback(port, false);
}

}  // namespace

RedisProcess::RedisProcess() {
    std::random_device rd;
    std::uniform_int_distribution<int> pick(20000, 59999);
    for (int i = 0; i < 100 && port_ == 0; ++i) {
        const int p = pick(rd);
        if (port_free(p)) {
            port_ = p;
        }
    }
    if (port_ == 0) {
        throw std::runtime_error("no free port for redis-server");
    }
    start();
}

RedisProcess::~RedisProcess() {
    stop();
}

std::string RedisProcess::url() const {
    return "redis://127.0.0.1:" + std::to_string(port_);
}

void RedisProcess::start() {
    std::vector<std::string> args{"redis-server",
                                  "--port",
                                  std::to_string(port_),
                                  "--bind",
                                  "127.0.0.1",
                                  "--save",
                                  "",
                                  "--appendonly",
                                  "no",
                                  "--daemonize",
                                  "no",
                                  "--loglevel",
                                  "warning"};
    pid_ = ::fork();
    if (pid_ == 0) {
        const int null = ::open("/dev/null", O_WRONLY);
        ::dup2(null, 1);
        std::vector<char*> argv;
        for (auto& a : args) {
            argv.push_back(a.data());
        }
        argv.push_back(nullptr);
        ::execvp("redis-server", argv.data());
        std::_Exit(127);
    }
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (std::chrono::steady_clock::now() < deadline) {
        if (port_accepts(port_)) {
            return;
        }
        int status = 0;
        if (::waitpid(pid_, &status, WNOHANG) == pid_) {
            pid_ = -1;
            throw std::runtime_error(
                "redis-server did not start (is Debian's redis-server installed? "
                "scripts/services start installs it)");
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    throw std::runtime_error("redis-server did not accept connections in 20 s");
}

void RedisProcess::stop() {
    if (pid_ <= 0) {
        return;
    }
    ::kill(pid_, SIGKILL);
    int status = 0;
    ::waitpid(pid_, &status, 0);
    pid_ = -1;
    // The port is free again once the kernel closed the listening socket.
    for (int i = 0; i < 200 && port_accepts(port_); ++i) {
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
}

int RedisProcess::publish(const std::string& channel, const std::string& payload) const {
    int fds[2];
    if (::pipe(fds) != 0) {
        throw std::runtime_error("pipe failed");
    }
    std::vector<std::string> args{
        "redis-cli", "-p", std::to_string(port_), "PUBLISH", channel, payload};
    const int pid = ::fork();
    if (pid == 0) {
        ::dup2(fds[1], 1);
        ::close(fds[0]);
        ::close(fds[1]);
        std::vector<char*> argv;
        for (auto& a : args) {
            argv.push_back(a.data());
        }
        argv.push_back(nullptr);
        ::execvp("redis-cli", argv.data());
        std::_Exit(127);
    }
    ::close(fds[1]);
    std::string out;
    char buf[256];
    for (ssize_t n; (n = ::read(fds[0], buf, sizeof buf)) > 0;) {
        out.append(buf, static_cast<std::size_t>(n));
    }
    ::close(fds[0]);
    int status = 0;
    ::waitpid(pid, &status, 0);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        throw std::runtime_error("redis-cli PUBLISH failed: " + out);
    }
    return std::atoi(out.c_str());
}

RedisProcess::Monitor::Monitor(int port, const std::string& log) {
    pid_ = ::fork();
    if (pid_ == 0) {
        const int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fd >= 0) {
            ::dup2(fd, 1);
            ::close(fd);
        }
        std::vector<std::string> args{"redis-cli", "-p", std::to_string(port), "MONITOR"};
        std::vector<char*> argv;
        for (auto& a : args) {
            argv.push_back(a.data());
        }
        argv.push_back(nullptr);
        ::execvp("redis-cli", argv.data());
        std::_Exit(127);
    }
    // MONITOR answers OK once it listens: wait for it before the test goes on.
    for (int i = 0; i < 200; ++i) {
        std::ifstream in(log);
        std::string first;
        if (std::getline(in, first) && first.find("OK") != std::string::npos) {
            return;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
}

RedisProcess::Monitor::~Monitor() {
    if (pid_ > 0) {
        ::kill(pid_, SIGTERM);
        int status = 0;
        ::waitpid(pid_, &status, 0);
    }
}

}  // namespace papan::test
