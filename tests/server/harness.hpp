// Test harness: the real `papan serve` as a subprocess on a free port with its own data
// directory, a WebSocket client (Beast, with timeouts) and small HTTP helpers.
#pragma once

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <regex>
#include <string>
#include <vector>

namespace papan::test {

using Json = nlohmann::json;

// A fresh temporary directory, removed at destruction (with the PostgreSQL database a
// ServerProcess made for it, if any).
class TempDir {
public:
    TempDir();
    ~TempDir();
    TempDir(const TempDir&)            = delete;
    TempDir& operator=(const TempDir&) = delete;

    [[nodiscard]] const std::filesystem::path& path() const { return path_; }

private:
    std::filesystem::path path_;
};

class RedisProcess;

// The bus secret of the nodes the tests start (--cluster-secret).
inline constexpr const char* kTestClusterSecret = "test-cluster-secret-0123456789";

// A `papan serve` started with exactly `args` (argv, the binary first), once it printed its
// "listening on" line; throws with what it printed when it did not within 30 s.
struct SpawnedServer {
    int pid             = -1;
    unsigned short port = 0;
};

// In a child of fork(): replaces the process with `args` (argv, the binary first), or exits 127.
[[noreturn]] void exec_args(std::vector<std::string> args);

// `log`: the server's stderr (its log) is appended to that file (empty: inherited).
SpawnedServer spawn_server(const std::vector<std::string>& args,
                           const std::filesystem::path& log = {});

class ServerProcess {
public:
    // Starts `papan serve --port 0 --data <dir> --ai-nodes 3000 --ws-rate 0 --creates-per-ip 0
    // <extra...>` (the three defaults unless `extra` sets them) and waits for the "listening on"
    // line. With env PAPAN_TEST_PG set (and no --store in `extra`) it adds `--store <url>` of a
    // database of the data directory's own, created on first use and dropped with the TempDir
    // (pg_test_db.hpp). With PAPAN_TEST_CLUSTER set as well (and no --bus in `extra`) it starts a
    // private Redis and two nodes on that database (`--bus`, node ids of the data directory, so a
    // restart on it gets its games back), and port() alternates between them: consecutive clients
    // of a test land on different nodes.
    // `log`: every node's stderr is appended to that file (empty: the test's stderr).
    explicit ServerProcess(const std::filesystem::path& data,
                           std::vector<std::string> extra   = {},
                           const std::filesystem::path& log = {});
    ~ServerProcess();
    ServerProcess(const ServerProcess&)            = delete;
    ServerProcess& operator=(const ServerProcess&) = delete;

    [[nodiscard]] unsigned short port() const { return nodes_[next_node_++ % nodes_.size()].port; }

    void kill_hard();  // SIGKILL and reap (every node)
    int terminate();   // SIGTERM; returns the exit status (the first non-zero of the nodes)

private:
    using Node = SpawnedServer;

    std::vector<Node> nodes_;
    mutable std::size_t next_node_ = 0;
    std::shared_ptr<RedisProcess> redis_;
};

struct HttpResult {
    unsigned status = 0;
    std::string body;
    std::string content_type;
    std::string retry_after;  // the Retry-After header, if any
    std::string headers;      // raw_http: the whole header block
    std::string raw;          // raw_http: every byte the server sent

    [[nodiscard]] Json json() const { return Json::parse(body, nullptr, false); }
};

HttpResult http_request(unsigned short port,
                        const std::string& method,
                        const std::string& target,
                        const std::string& body  = {},
                        const std::string& token = {});

// Sends `bytes` as they are on a fresh connection and reads the answer until the server closes
// or 5 s pass: the status of the first response line (0 if none) and the body after the headers.
HttpResult raw_http(unsigned short port, const std::string& bytes);

class WsClient {
public:
    // Connects to 127.0.0.1:port; from a given local address when `from` is set (any 127.x.y.z
    // is this machine: a second "remote address" for per-address limits).
    explicit WsClient(unsigned short port, const std::string& from = {});
    ~WsClient();
    WsClient(const WsClient&)            = delete;
    WsClient& operator=(const WsClient&) = delete;

    void send(const Json& j);
    void send_raw(const std::string& text);
    // The next message (throws on timeout or a closed socket).
    Json recv(std::chrono::milliseconds timeout = std::chrono::seconds(30));
    // Reads until a message satisfies pred (others are kept in `seen`).
    Json recv_until(const std::function<bool(const Json&)>& pred,
                    std::chrono::milliseconds timeout = std::chrono::seconds(30));
    // Waits for the close; returns the close code (0 when the socket just dropped).
    int wait_close(std::chrono::milliseconds timeout = std::chrono::seconds(10));

    // hello as a guest; returns the welcome.
    Json hello(const std::string& name, const std::string& secret = {});
    Json hello_token(const std::string& token);
    // create and wait for the state of the new game; returns the "state" message.
    Json create(Json create_msg);
    // The latest event/state message of `game` with version >= v.
    Json wait_version(const std::string& game, std::int64_t v);
    // Waits for an event or state of `game` satisfying pred on its state.
    Json wait_state(const std::string& game, const std::function<bool(const Json&)>& pred);

    // Gives this client the state of a game it saw on an earlier connection (a state or event
    // message as recv returns it), the base a resume with last_version builds on.
    void know(const Json& state_msg);

    std::vector<Json> seen;
    std::size_t last_bytes = 0;  // the size of the last frame received, as sent

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

// The whole of a file ("" when it cannot be read): a spawned process's log.
std::string read_file(const std::filesystem::path& p);

// Whether a line matching `pattern` appears in the file within `timeout` (polled every 100 ms).
bool log_has(const std::filesystem::path& log,
             const std::regex& pattern,
             std::chrono::milliseconds timeout = std::chrono::seconds(5));

// Milliseconds since the Unix epoch: the time a bus message or a job is stamped with.
std::int64_t epoch_ms();

// The move message for legal move i of a state message's state.
Json move_msg(const Json& state_msg, std::size_t i = 0);

// {"type":"move"...} from a path.
Json path_move(const std::string& game, int ply, const Json& path);

}  // namespace papan::test
