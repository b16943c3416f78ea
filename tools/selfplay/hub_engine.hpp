// One engine of a match: a program run as a subprocess that speaks the Hub protocol v2 on its
// stdin/stdout (docs/engine-protocols.md), e.g. `papan hub`. Only the commands every Papan build
// since the Hub session was written understands are used (hub, set-param, init, new-game, pos,
// level, go think), so a candidate can meet any older binary.
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

struct EngineSpec {
    std::string path;                                         // the program
    std::vector<std::string> args{"hub"};                     // its arguments
    std::vector<std::pair<std::string, std::string>> params;  // set-param name/value, in order
    std::string level   = "max";                              // set-param name=level
    std::size_t hash_mb = 16;                                 // set-param name=hash
    std::string label;                                        // how reports name it
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
    // The depth of that `info` line.
    std::optional<int> depth;
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

    EngineSpec spec_;
    int pid_     = -1;
    int to_fd_   = -1;  // its stdin
    int from_fd_ = -1;  // its stdout
    std::string buffer_;
};

}  // namespace papan::selfplay
