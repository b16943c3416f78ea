// One engine of a match: a program run as a subprocess that speaks the Hub protocol on its
// stdin/stdout (docs/engine-protocols.md), version 2 (`papan hub`, Scan 3.x) or version 1 (Scan
// 2.0). The version is read from the engine's answer to `hub` (v2 sends `id`/`param` lines, v1
// `name`/`author`/`country`) unless EngineSpec::protocol fixes it.
//
// Version 2: only the commands every Papan build since the Hub session was written understands
// are used (hub, set-param, init, new-game, pos, level, go think), so a candidate can meet any
// older binary. Version 1 (International only, fixed move time only): `set NAME VALUE` for each
// parameter, `set book false` unless `book` is given (the opening suite chooses the openings),
// `init`, `new`, then per move `pos <w|b + 50 squares>`, `time <ms>`, `go`, answered by
// `move <m> [ponder]`; its `info <depth> <mean ply> <score> <nodes> <time> <speed> <pv>` lines
// give the depth and the score.
//
// The program runs in EngineSpec::work_dir, by default the folder it is in: Hub v1 engines such as
// Scan read their settings (scan.ini) and data (data/) from there and exit without them. So a
// relative path given to an engine (papan hub's --egdb) is read from that folder.
//
// Every read has a deadline, so a hung or crashed engine is an error, never a hang. Not
// thread-safe: one match worker owns each engine.
#pragma once

#include <papan/core/expected.hpp>
#include <papan/core/game.hpp>

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace papan::selfplay {

enum class HubProtocol : std::uint8_t {
    Auto,  // read from the handshake
    V1,
    V2,
};

struct EngineSpec {
    std::string path;                                         // the program
    std::vector<std::string> args{"hub"};                     // its arguments
    std::vector<std::pair<std::string, std::string>> params;  // set-param name/value, in order
    std::string level   = "max";                              // set-param name=level
    std::size_t hash_mb = 16;                                 // set-param name=hash
    std::string label;                                        // how reports name it
    HubProtocol protocol = HubProtocol::Auto;
    std::string work_dir;  // where it runs; empty: the folder of `path`
};

// What one `go think` may spend.
struct MoveLimit {
    std::uint64_t nodes = 0;  // level nodes=N (when > 0)
    double move_time    = 0;  // level move-time=S (when nodes == 0)
};

struct EngineReply {
    std::string move;    // the `done move=` text as sent
    double seconds = 0;  // wall time from `go think` to `done`
    // The score of the last `info` line, in hundredths of a man from the mover's side; none when
    // the engine sent no `info` (a move played without a search).
    std::optional<int> score;
    // The depth, the node count and the seconds of that `info` line.
    std::optional<int> depth;
    std::optional<std::uint64_t> nodes;
    double info_seconds = 0;
};

class HubEngine {
public:
    explicit HubEngine(EngineSpec spec);
    ~HubEngine();
    HubEngine(const HubEngine&)            = delete;
    HubEngine& operator=(const HubEngine&) = delete;

    // Starts the program (again, when it is running) and does the handshake for the variant.
    [[nodiscard]] core::Expected<bool> start(core::VariantId variant);
    // `new-game`: forget the previous game (table, history).
    [[nodiscard]] core::Expected<bool> new_game();
    // Sends the game (start position and every move) and the limit, then `go think`; waits for
    // `done` at most `timeout`.
    [[nodiscard]] core::Expected<EngineReply>
    think(const core::Game& game, const MoveLimit& limit, std::chrono::milliseconds timeout);

    void stop_process() noexcept;

    // The protocol version spoken (known after start()).
    [[nodiscard]] HubProtocol protocol() const noexcept { return protocol_; }

    [[nodiscard]] const EngineSpec& spec() const noexcept { return spec_; }

private:
    [[nodiscard]] bool send(const std::string& line) noexcept;
    // The next line; nullopt on timeout, end of output or error.
    [[nodiscard]] std::optional<std::string> read_line(std::chrono::steady_clock::time_point until);
    // Reads lines until one starts with `word`; an `error` line or a timeout is an error. The
    // last `info` line read on the way is kept in `last_info` when given.
    [[nodiscard]] core::Expected<std::string> expect(const std::string& word,
                                                     std::chrono::milliseconds timeout,
                                                     std::string* last_info = nullptr);

    // Starts the program in `dir` and reads its answer to `hub`.
    [[nodiscard]] core::Expected<HubProtocol> launch(const std::string& exe,
                                                     const std::string& dir);
    [[nodiscard]] core::Expected<bool> handshake_v1(core::VariantId variant,
                                                    const std::string& who);
    [[nodiscard]] core::Expected<bool> handshake_v2(core::VariantId variant,
                                                    const std::string& who);
    [[nodiscard]] core::Expected<EngineReply>
    think_v1(const core::Game& game, const MoveLimit& limit, std::chrono::milliseconds timeout);

    EngineSpec spec_;
    HubProtocol protocol_ = HubProtocol::V2;
    int pid_              = -1;
    int to_fd_            = -1;  // its stdin
    int from_fd_          = -1;  // its stdout
    std::string buffer_;
};

}  // namespace papan::selfplay
