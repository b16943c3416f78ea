// What the protocol tests (hub_test.cpp, dxp_test.cpp) share: the real `papan` binary
// (PAPAN_BINARY) run as a subprocess behind pipes, and reading delimited messages from a pipe or a
// socket. Every read has a timeout, so a hang fails the test instead of blocking it.
// Header-only: the engine tests' executable is built from tests/engine/*_test.cpp alone.
#pragma once

#include <gtest/gtest.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstddef>
#include <cstdint>
#include <fcntl.h>
#include <optional>
#include <poll.h>
#include <string>
#include <sys/types.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <utility>
#include <vector>

namespace papan::test {

using namespace std::chrono_literals;

inline constexpr std::chrono::milliseconds kTimeout = 60s;  // generous: slow, busy machines

// Messages ending in one delimiter character ('\n' for lines, '\0' for DXP), read from a
// descriptor with timeouts; what is read past a message stays buffered for the next one.
class MessageReader {
public:
    explicit MessageReader(char delimiter) : delimiter_(delimiter) {}

    // The next message without its delimiter; nullopt on timeout or at the end of the input
    // (closed() tells which).
    std::optional<std::string> next(int fd, std::chrono::milliseconds timeout = kTimeout) {
        const auto deadline = std::chrono::steady_clock::now() + timeout;
        closed_             = false;
        for (;;) {
            const auto at = buffer_.find(delimiter_);
            if (at != std::string::npos) {
                std::string m = buffer_.substr(0, at);
                buffer_.erase(0, at + 1);
                return m;
            }
            const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                deadline - std::chrono::steady_clock::now());
            if (left.count() <= 0 || !fill(fd, static_cast<int>(left.count()))) {
                return std::nullopt;
            }
        }
    }

    // Reads everything available now, without waiting.
    void drain(int fd) {
        while (fill(fd, 0)) {
        }
    }

    // Whether the last next() ended because the other end closed.
    [[nodiscard]] bool closed() const { return closed_; }

private:
    // Waits up to `timeout_ms` for data and buffers it; false on timeout, error or end of input.
    bool fill(int fd, int timeout_ms) {
        pollfd p{fd, POLLIN, 0};
        const int r = poll(&p, 1, timeout_ms);
        if (r <= 0) {
            return r < 0 && errno == EINTR;  // interrupted: try again
        }
        char chunk[4096];
        const ssize_t n = read(fd, chunk, sizeof chunk);
        if (n <= 0) {
            closed_ = true;
            return false;
        }
        buffer_.append(chunk, static_cast<std::size_t>(n));
        return true;
    }

    char delimiter_;
    std::string buffer_;
    bool closed_ = false;
};

// `papan <args...>` with its stdout on a pipe, its stdin a pipe (Stdin::Pipe, written by send())
// or /dev/null, and its stderr inherited. Killed when destroyed if it has not exited.
class Subprocess {
public:
    enum class Stdin : std::uint8_t {
        Pipe,
        Null,
    };

    Subprocess(const std::vector<std::string>& args, Stdin input) {
        signal(SIGPIPE, SIG_IGN);
        int in[2]  = {-1, -1};
        int out[2] = {-1, -1};
        if ((input == Stdin::Pipe && pipe(in) != 0) || pipe(out) != 0) {
            ADD_FAILURE() << "pipe failed";
            return;
        }
        std::vector<std::string> argv_strings{PAPAN_BINARY};
        argv_strings.insert(argv_strings.end(), args.begin(), args.end());
        pid_ = fork();
        if (pid_ == 0) {
            if (input == Stdin::Pipe) {
                dup2(in[0], STDIN_FILENO);
                close(in[0]);
                close(in[1]);
            } else {
                const int devnull = open("/dev/null", O_RDONLY);
                dup2(devnull, STDIN_FILENO);
            }
            dup2(out[1], STDOUT_FILENO);
            close(out[0]);
            close(out[1]);
            std::vector<char*> argv;
            for (auto& s : argv_strings) {
                argv.push_back(s.data());
            }
            argv.push_back(nullptr);
            execv(PAPAN_BINARY, argv.data());
            _exit(127);
        }
        if (input == Stdin::Pipe) {
            close(in[0]);
            to_child_ = in[1];
        }
        close(out[1]);
        from_child_ = out[0];
    }

    ~Subprocess() {
        close_input();
        if (from_child_ >= 0) {
            close(from_child_);
        }
        if (pid_ > 0 && !exit_code_) {
            kill(pid_, SIGKILL);
            waitpid(pid_, nullptr, 0);
        }
    }

    Subprocess(const Subprocess&)            = delete;
    Subprocess& operator=(const Subprocess&) = delete;

    // Writes `line` and a newline to its stdin.
    void send(const std::string& line) {
        const std::string data = line + "\n";
        std::size_t done       = 0;
        while (done < data.size()) {
            const ssize_t n = write(to_child_, data.data() + done, data.size() - done);
            if (n <= 0) {
                ADD_FAILURE() << "cannot write to papan: " << line;
                return;
            }
            done += static_cast<std::size_t>(n);
        }
    }

    void close_input() {
        if (to_child_ >= 0) {
            close(to_child_);
            to_child_ = -1;
        }
    }

    // The next output line, or nullopt after the timeout or at the end of the output.
    std::optional<std::string> line(std::chrono::milliseconds timeout = kTimeout) {
        auto l = output_.next(from_child_, timeout);
        if (l) {
            transcript_ += "< " + *l + "\n";
        }
        return l;
    }

    // Reads lines until one starts with `prefix` (the others go to `skipped`); on timeout fails
    // the test with the transcript and returns nullopt.
    std::optional<std::string> expect(const std::string& prefix,
                                      std::vector<std::string>* skipped = nullptr) {
        const auto deadline = std::chrono::steady_clock::now() + kTimeout;
        for (;;) {
            const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                deadline - std::chrono::steady_clock::now());
            auto l = line(left);
            if (!l) {
                ADD_FAILURE() << "no line starting with '" << prefix << "'; transcript:\n"
                              << transcript_;
                return std::nullopt;
            }
            if (l->rfind(prefix, 0) == 0) {
                return l;
            }
            if (skipped != nullptr) {
                skipped->push_back(*l);
            }
        }
    }

    // Whether it still runs (its pending output is read meanwhile, so it never blocks on a full
    // pipe; the lines stay available to line()).
    [[nodiscard]] bool running() {
        output_.drain(from_child_);
        if (exit_code_ || pid_ <= 0) {
            return false;
        }
        int status = 0;
        if (waitpid(pid_, &status, WNOHANG) == pid_) {
            exit_code_ = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
            return false;
        }
        return true;
    }

    // Waits for the process to exit; its exit code, or nullopt on timeout.
    std::optional<int> wait_exit(std::chrono::milliseconds timeout = kTimeout) {
        const auto deadline = std::chrono::steady_clock::now() + timeout;
        while (std::chrono::steady_clock::now() < deadline) {
            if (!running()) {
                return exit_code_;
            }
            std::this_thread::sleep_for(20ms);
        }
        return std::nullopt;
    }

    [[nodiscard]] const std::string& transcript() const { return transcript_; }

private:
    pid_t pid_      = -1;
    int to_child_   = -1;
    int from_child_ = -1;
    MessageReader output_{'\n'};
    std::string transcript_;
    std::optional<int> exit_code_;
};

}  // namespace papan::test
