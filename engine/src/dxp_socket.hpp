// The TCP side of DXP sessions (POSIX sockets): a connection that sends and receives
// NUL-terminated messages with a timeout, and opening a listener or a connection. Internal to
// the engine library (dxp_session.cpp).
#pragma once

#include <cstdint>
#include <string>

namespace papan::engine::detail {

// One connected socket (owned: closed on destruction), with TCP_NODELAY.
class DxpConnection {
public:
    enum class Status : std::uint8_t {
        Message,
        Closed,
        Timeout,
        Error,
    };

    explicit DxpConnection(int fd);
    ~DxpConnection();
    DxpConnection(const DxpConnection&)            = delete;
    DxpConnection& operator=(const DxpConnection&) = delete;

    // Sends the message and its NUL; false with `error` set when the socket fails.
    bool send(const std::string& message, std::string& error);
    // Waits for the next message; timeout < 0 waits forever.
    Status receive(std::string& message, double timeout, std::string& error);

private:
    int fd_;
    std::string buffer_;
};

// The local port of a bound socket; -1 when unknown.
[[nodiscard]] int port_of(int fd);
// A listening socket on host:port (port 0: any free port); -1 with `error` set.
[[nodiscard]] int open_listener(const std::string& host, int port, std::string& error);
// A connected socket to host:port, retrying until `timeout` seconds have passed; -1 with `error`.
[[nodiscard]] int
open_connection(const std::string& host, int port, double timeout, std::string& error);

// The next connection on a listening socket (interrupted waits are retried); -1 with `error`.
[[nodiscard]] int accept_connection(int listener, std::string& error);
void close_socket(int fd) noexcept;

}  // namespace papan::engine::detail
