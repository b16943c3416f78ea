// DXP sockets (see dxp_socket.hpp).
#include "dxp_socket.hpp"

#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstring>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <thread>
#include <unistd.h>

namespace papan::engine::detail {

DxpConnection::DxpConnection(int fd) : fd_(fd) {
    int one = 1;
    (void)setsockopt(fd_, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
}

DxpConnection::~DxpConnection() {
    if (fd_ >= 0) {
        ::close(fd_);
    }
}

bool DxpConnection::send(const std::string& message, std::string& error) {
    std::string data = message;
    data += '\0';
    std::size_t sent = 0;
    while (sent < data.size()) {
        const ssize_t n = ::send(fd_, data.data() + sent, data.size() - sent, MSG_NOSIGNAL);
        if (n < 0) {
            if (errno == EINTR) {
                continue;
            }
            error = std::string("send failed: ") + std::strerror(errno);
            return false;
        }
        sent += static_cast<std::size_t>(n);
    }
    return true;
}

DxpConnection::Status
DxpConnection::receive(std::string& message, double timeout, std::string& error) {
    using Clock                      = std::chrono::steady_clock;
    const auto start                 = Clock::now();
    constexpr std::size_t kMaxBuffer = 4096;
    for (;;) {
        const auto nul = buffer_.find('\0');
        if (nul != std::string::npos) {
            message = buffer_.substr(0, nul);
            buffer_.erase(0, nul + 1);
            return Status::Message;
        }
        if (buffer_.size() > kMaxBuffer) {
            error = "message longer than " + std::to_string(kMaxBuffer) + " bytes (no NUL)";
            return Status::Error;
        }
        int wait_ms = -1;
        if (timeout >= 0) {
            const double left =
                timeout - std::chrono::duration<double>(Clock::now() - start).count();
            if (left <= 0) {
                return Status::Timeout;
            }
            wait_ms = static_cast<int>(std::ceil(left * 1000));
        }
        pollfd p{fd_, POLLIN, 0};
        const int ready = ::poll(&p, 1, wait_ms);
        if (ready < 0) {
            if (errno == EINTR) {
                continue;
            }
            error = std::string("poll failed: ") + std::strerror(errno);
            return Status::Error;
        }
        if (ready == 0) {
            continue;  // the deadline check above ends the wait
        }
        char chunk[1024];
        const ssize_t n = ::recv(fd_, chunk, sizeof chunk, 0);
        if (n < 0) {
            if (errno == EINTR || errno == EAGAIN) {
                continue;
            }
            error = std::string("receive failed: ") + std::strerror(errno);
            return Status::Error;
        }
        if (n == 0) {
            return Status::Closed;
        }
        buffer_.append(chunk, static_cast<std::size_t>(n));
    }
}

namespace {

struct AddrInfo {
    addrinfo* list = nullptr;

    ~AddrInfo() {
        if (list != nullptr) {
            freeaddrinfo(list);
        }
    }
};

// The addresses of host:port for a stream socket (`passive`: to listen on); false with `error`
// set when the name does not resolve.
bool resolve(const std::string& host,
             const std::string& service,
             bool passive,
             AddrInfo& ai,
             std::string& error) {
    addrinfo hints{};
    hints.ai_family   = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags    = passive ? AI_PASSIVE : 0;
    const int rc      = getaddrinfo(host.c_str(), service.c_str(), &hints, &ai.list);
    if (rc != 0) {
        error = "cannot resolve " + host + ": " + gai_strerror(rc);
        return false;
    }
    return true;
}

// Opens a socket for each address in turn and gives it to `use(fd, address)`, which returns true
// to keep it (or sets `error`); the socket kept, or -1 when no address worked.
template <class Use>
int first_socket(const AddrInfo& ai, std::string& error, Use use) {
    for (addrinfo* a = ai.list; a != nullptr; a = a->ai_next) {
        const int fd = ::socket(a->ai_family, a->ai_socktype, a->ai_protocol);
        if (fd < 0) {
            error = std::string("socket: ") + std::strerror(errno);
            continue;
        }
        if (use(fd, *a)) {
            return fd;
        }
        ::close(fd);
    }
    return -1;
}

}  // namespace

int port_of(int fd) {
    sockaddr_storage addr{};
    socklen_t len = sizeof addr;
    if (getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) != 0) {
        return -1;
    }
    if (addr.ss_family == AF_INET) {
        return ntohs(reinterpret_cast<const sockaddr_in*>(&addr)->sin_port);
    }
    if (addr.ss_family == AF_INET6) {
        return ntohs(reinterpret_cast<const sockaddr_in6*>(&addr)->sin6_port);
    }
    return -1;
}

int open_listener(const std::string& host, int port, std::string& error) {
    const std::string service = std::to_string(port);
    AddrInfo ai;
    if (!resolve(host, service, true, ai, error)) {
        return -1;
    }
    return first_socket(ai, error, [&](int fd, const addrinfo& a) {
        int one = 1;
        (void)setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
        if (::bind(fd, a.ai_addr, a.ai_addrlen) == 0 && ::listen(fd, 4) == 0) {
            return true;
        }
        error = "cannot listen on " + host + ":" + service + ": " + std::strerror(errno);
        return false;
    });
}

int open_connection(const std::string& host, int port, double timeout, std::string& error) {
    const auto deadline = std::chrono::steady_clock::now() +
                          std::chrono::milliseconds(static_cast<std::int64_t>(timeout * 1000));
    const std::string service = std::to_string(port);
    for (;;) {
        AddrInfo ai;
        if (!resolve(host, service, false, ai, error)) {
            return -1;
        }
        const int fd = first_socket(ai, error, [&](int s, const addrinfo& a) {
            if (::connect(s, a.ai_addr, a.ai_addrlen) == 0) {
                return true;
            }
            error = "cannot connect to " + host + ":" + service + ": " + std::strerror(errno);
            return false;
        });
        if (fd >= 0) {
            return fd;
        }
        if (std::chrono::steady_clock::now() >= deadline) {
            return -1;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
    }
}

int accept_connection(int listener, std::string& error) {
    for (;;) {
        const int fd = ::accept(listener, nullptr, nullptr);
        if (fd >= 0) {
            return fd;
        }
        if (errno != EINTR && errno != ECONNABORTED) {
            error = std::string("accept failed: ") + std::strerror(errno);
            return -1;
        }
    }
}

void close_socket(int fd) noexcept {
    ::close(fd);
}

}  // namespace papan::engine::detail
