#include "harness.hpp"

#include "pg_test_db.hpp"
#include "redis_process.hpp"

#include <papan/loadtest/state_delta.hpp>

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core/buffers_to_string.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/string_body.hpp>
#include <boost/beast/http/write.hpp>
#include <boost/beast/websocket/stream.hpp>

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <fcntl.h>
#include <fstream>
#include <map>
#include <poll.h>
#include <random>
#include <sstream>
#include <stdexcept>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace papan::test {

namespace net       = boost::asio;
namespace beast     = boost::beast;
namespace http      = beast::http;
namespace websocket = beast::websocket;
using tcp           = net::ip::tcp;

TempDir::TempDir() {
    std::random_device rd;
    path_ = std::filesystem::temp_directory_path() /
            ("papan-server-test-" + std::to_string(::getpid()) + "-" + std::to_string(rd()));
    std::filesystem::create_directories(path_);
}

TempDir::~TempDir() {
    pg_drop_for_data_dir(path_.string());
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
}

ServerProcess::ServerProcess(const std::filesystem::path& data,
                             std::vector<std::string> extra,
                             const std::filesystem::path& log) {
    std::vector<std::string> args{PAPAN_BINARY, "serve", "--port", "0", "--data", data.string()};
    const auto has = [&](const char* flag) {
        return std::find(extra.begin(), extra.end(), flag) != extra.end();
    };
    if (!has("--ai-nodes")) {
        args.insert(args.end(), {"--ai-nodes", "3000"});  // keeps the computer fast in tests
    }
    if (!has("--build-endgames")) {
        args.emplace_back("--no-build-endgames");  // no table builds beside the tests
    }
    if (!has("--ws-rate")) {
        // Test clients play back to back, faster than a person: no message rate limit unless a
        // test sets one (limits_test.cpp).
        args.insert(args.end(), {"--ws-rate", "0"});
    }
    if (!has("--creates-per-ip")) {
        // Likewise no cap on new games per address (all test clients share 127.0.0.1).
        args.insert(args.end(), {"--creates-per-ip", "0"});
    }
    const bool pg = !pg_base_url().empty();
    if (pg && !has("--store")) {
        // PostgreSQL run (the pg.* tests): the data directory's own database, the same one when
        // the server restarts on it.
        args.insert(args.end(), {"--store", pg_url_for_data_dir(data.string())});
    }
    const char* cluster  = std::getenv("PAPAN_TEST_CLUSTER");
    const bool two_nodes = pg && cluster != nullptr && *cluster != '\0' && !has("--bus");
    for (auto& a : extra) {
        args.push_back(std::move(a));
    }
    if (!two_nodes) {
        nodes_.push_back(spawn_server(args, log));
        return;
    }
    redis_          = std::make_shared<RedisProcess>();
    std::string tag = "t";
    tag += std::to_string(std::hash<std::string>{}(data.string()) % 1000000);
    for (int i = 1; i <= 2; ++i) {
        auto node_args = args;
        node_args.insert(node_args.end(),
                         {"--bus",
                          redis_->url(),
                          "--node-id",
                          tag + "-" + std::to_string(i),
                          "--lease",
                          "1",
                          "--cluster-secret",
                          kTestClusterSecret});
        try {
            nodes_.push_back(spawn_server(node_args, log));
        } catch (...) {
            kill_hard();
            throw;
        }
    }
}

void exec_args(std::vector<std::string> args) {
    std::vector<char*> argv;
    for (auto& a : args) {
        argv.push_back(a.data());
    }
    argv.push_back(nullptr);
    ::execv(argv[0], argv.data());
    std::_Exit(127);
}

SpawnedServer spawn_server(const std::vector<std::string>& given,
                           const std::filesystem::path& log) {
    int fds[2];
    if (::pipe(fds) != 0) {
        throw std::runtime_error("pipe failed");
    }
    auto args = given;
    SpawnedServer node;
    node.pid = ::fork();
    if (node.pid == 0) {
        ::dup2(fds[1], 1);
        if (!log.empty()) {
            const int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
            if (fd >= 0) {
                ::dup2(fd, 2);
                ::close(fd);
            }
        }
        ::close(fds[0]);
        ::close(fds[1]);
        exec_args(std::move(args));
    }
    ::close(fds[1]);
    std::string out;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (std::chrono::steady_clock::now() < deadline) {
        pollfd p{fds[0], POLLIN, 0};
        if (::poll(&p, 1, 200) > 0) {
            char buf[256];
            const auto n = ::read(fds[0], buf, sizeof buf);
            if (n <= 0) {
                break;
            }
            out.append(buf, static_cast<std::size_t>(n));
            const auto at = out.find("listening on http://127.0.0.1:");
            if (at != std::string::npos && out.find('\n', at) != std::string::npos) {
                node.port = static_cast<unsigned short>(std::stoi(out.substr(at + 30)));
                break;
            }
        }
    }
    ::close(fds[0]);
    if (node.port == 0) {
        ::kill(node.pid, SIGKILL);
        int st = 0;
        ::waitpid(node.pid, &st, 0);
        throw std::runtime_error("the server did not start: " + out);
    }
    return node;
}

ServerProcess::~ServerProcess() {
    kill_hard();
}

void ServerProcess::kill_hard() {
    for (auto& n : nodes_) {
        if (n.pid > 0) {
            ::kill(n.pid, SIGKILL);
            int st = 0;
            ::waitpid(n.pid, &st, 0);
            n.pid = -1;
        }
    }
}

int ServerProcess::terminate() {
    int result = 0;
    bool any   = false;
    for (auto& n : nodes_) {
        if (n.pid <= 0) {
            continue;
        }
        any = true;
        ::kill(n.pid, SIGTERM);
        int st     = 0;
        int status = -2;
        for (int i = 0; i < 100; ++i) {
            if (::waitpid(n.pid, &st, WNOHANG) == n.pid) {
                n.pid  = -1;
                status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
                break;
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
        }
        if (n.pid > 0) {
            ::kill(n.pid, SIGKILL);
            ::waitpid(n.pid, &st, 0);
            n.pid = -1;
        }
        if (result == 0) {
            result = status;
        }
    }
    return any ? result : -1;
}

HttpResult http_request(unsigned short port,
                        const std::string& method,
                        const std::string& target,
                        const std::string& body,
                        const std::string& token) {
    net::io_context ioc;
    beast::tcp_stream stream(ioc);
    stream.connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), port));
    http::request<http::string_body> req{http::string_to_verb(method), target, 11};
    req.set(http::field::host, "127.0.0.1");
    if (!token.empty()) {
        req.set(http::field::authorization, "Bearer " + token);
    }
    if (!body.empty()) {
        req.set(http::field::content_type, "application/json");
        req.body() = body;
    }
    req.prepare_payload();
    http::write(stream, req);
    beast::flat_buffer buf;
    http::response<http::string_body> res;
    http::read(stream, buf, res);
    beast::error_code ec;
    stream.socket().shutdown(tcp::socket::shutdown_both, ec);
    std::string headers;
    for (const auto& f : res.base()) {
        headers += std::string(f.name_string()) + ": " + std::string(f.value()) + "\r\n";
    }
    return HttpResult{res.result_int(),
                      res.body(),
                      std::string(res[http::field::content_type]),
                      std::string(res[http::field::retry_after]),
                      std::move(headers),
                      {}};
}

HttpResult raw_http(unsigned short port, const std::string& bytes) {
    net::io_context ioc;
    tcp::socket socket(ioc);
    socket.connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), port));
    beast::error_code ec;
    net::write(socket, net::buffer(bytes), ec);
    socket.shutdown(tcp::socket::shutdown_send, ec);
    std::string in;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    socket.non_blocking(true);
    while (std::chrono::steady_clock::now() < deadline) {
        char buf[4096];
        const auto n = socket.read_some(net::buffer(buf), ec);
        if (ec == net::error::would_block) {
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
            continue;
        }
        if (ec) {
            break;
        }
        in.append(buf, n);
    }
    HttpResult r;
    r.raw = in;
    if (in.rfind("HTTP/1.1 ", 0) == 0 && in.size() >= 12) {
        r.status = static_cast<unsigned>(std::stoi(in.substr(9, 3)));
    }
    if (const auto end = in.find("\r\n\r\n"); end != std::string::npos) {
        r.headers = in.substr(0, end + 2);
        r.body    = in.substr(end + 4);
    }
    return r;
}

struct WsClient::Impl {
    net::io_context ioc;
    websocket::stream<beast::tcp_stream> ws{ioc};
    std::map<std::string, Json> states;  // the full state of each game, kept from its deltas
};

WsClient::WsClient(unsigned short port, const std::string& from) : impl_(std::make_unique<Impl>()) {
    auto& socket = beast::get_lowest_layer(impl_->ws).socket();
    if (!from.empty()) {
        socket.open(tcp::v4());
        socket.bind(tcp::endpoint(net::ip::make_address(from), 0));
    }
    beast::get_lowest_layer(impl_->ws).connect(
        tcp::endpoint(net::ip::make_address("127.0.0.1"), port));
    impl_->ws.handshake("127.0.0.1:" + std::to_string(port), "/ws");
}

WsClient::~WsClient() {
    beast::error_code ec;
    beast::get_lowest_layer(impl_->ws).socket().close(ec);
}

void WsClient::send(const Json& j) {
    send_raw(j.dump());
}

void WsClient::send_raw(const std::string& text) {
    impl_->ws.text(true);
    impl_->ws.write(net::buffer(text));
}

Json WsClient::recv(std::chrono::milliseconds timeout) {
    beast::flat_buffer buf;
    bool done = false;
    beast::error_code err;
    impl_->ws.async_read(buf, [&](beast::error_code ec, std::size_t) {
        done = true;
        err  = ec;
    });
    impl_->ioc.restart();
    impl_->ioc.run_for(timeout);
    if (!done) {
        beast::get_lowest_layer(impl_->ws).socket().cancel();
        impl_->ioc.restart();
        impl_->ioc.run();
        throw std::runtime_error("timed out waiting for a message");
    }
    if (err) {
        throw std::runtime_error("read failed: " + err.message());
    }
    last_bytes = buf.size();
    Json j     = Json::parse(beast::buffers_to_string(buf.data()));
    // Events carry deltas: every message hands the tests the full state after it, built the
    // way a client builds it, so every test that plays checks the server's deltas.
    papan::loadtest::add_full_state(impl_->states, j);
    seen.push_back(j);
    return j;
}

void WsClient::know(const Json& state_msg) {
    impl_->states[state_msg.value("game", "")] = state_msg["state"];
}

Json WsClient::recv_until(const std::function<bool(const Json&)>& pred,
                          std::chrono::milliseconds timeout) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    for (;;) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
            deadline - std::chrono::steady_clock::now());
        if (left.count() <= 0) {
            throw std::runtime_error("timed out waiting for the expected message");
        }
        Json j = recv(left);
        if (pred(j)) {
            return j;
        }
    }
}

int WsClient::wait_close(std::chrono::milliseconds timeout) {
    try {
        for (;;) {
            (void)recv(timeout);
        }
    } catch (const std::exception&) {
    }
    return static_cast<int>(impl_->ws.reason().code);
}

Json WsClient::hello(const std::string& name, const std::string& secret) {
    Json h{{"type", "hello"}, {"name", name}};
    if (!secret.empty()) {
        h["secret"] = secret;
    }
    send(h);
    return recv_until([](const Json& j) { return j["type"] == "welcome" || j["type"] == "error"; });
}

Json WsClient::hello_token(const std::string& token) {
    send(Json{{"type", "hello"}, {"token", token}});
    return recv_until([](const Json& j) { return j["type"] == "welcome" || j["type"] == "error"; });
}

Json WsClient::create(Json create_msg) {
    create_msg["type"] = "create";
    send(create_msg);
    const Json created =
        recv_until([](const Json& j) { return j["type"] == "created" || j["type"] == "error"; });
    if (created["type"] == "error") {
        throw std::runtime_error("create failed: " + created.dump());
    }
    const std::string game = created["game"];
    Json st = recv_until([&](const Json& j) { return j["type"] == "state" && j["game"] == game; });
    st["created"] = created;
    return st;
}

Json WsClient::wait_version(const std::string& game, std::int64_t v) {
    return recv_until([&](const Json& j) {
        return (j["type"] == "event" || j["type"] == "state") && j["game"] == game &&
               j["version"].get<std::int64_t>() >= v;
    });
}

Json WsClient::wait_state(const std::string& game, const std::function<bool(const Json&)>& pred) {
    for (auto it = seen.rbegin(); it != seen.rend(); ++it) {
        const Json& j = *it;
        if ((j["type"] == "event" || j["type"] == "state") && j["game"] == game) {
            if (pred(j["state"])) {
                return j;
            }
            break;
        }
    }
    return recv_until([&](const Json& j) {
        return (j["type"] == "event" || j["type"] == "state") && j["game"] == game &&
               pred(j["state"]);
    });
}

Json path_move(const std::string& game, int ply, const Json& path) {
    return Json{{"type", "move"}, {"game", game}, {"ply", ply}, {"path", path}};
}

Json move_msg(const Json& state_msg, std::size_t i) {
    const Json& s = state_msg["state"];
    return path_move(s["id"], s["ply"].get<int>(), s["legal_moves"][i]["path"]);
}

std::string read_file(const std::filesystem::path& p) {
    std::ifstream in(p);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

bool log_has(const std::filesystem::path& log,
             const std::regex& pattern,
             std::chrono::milliseconds timeout) {
    const auto until = std::chrono::steady_clock::now() + timeout;
    for (;;) {
        if (std::regex_search(read_file(log), pattern)) {
            return true;
        }
        if (std::chrono::steady_clock::now() >= until) {
            return false;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
}

std::int64_t epoch_ms() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
}

}  // namespace papan::test
