// Hub protocol v2 (Scan 3.x, docs/engine-protocols.md): the line protocol `papan hub`
// speaks on stdin/stdout. The session reads commands from an std::istream and writes answers to
// an std::ostream (flushed after every line), so it runs the same on pipes and in tests.
//
// The search runs on a worker thread, so `ping`, `stop` and `ponder-hit` are read and answered
// while it thinks; every `go` is answered by exactly one `done` line (also after `stop`).
//
// Position strings: side to move (W/B) followed by one character per square 1..N in the numbering
// of notation.md (w/b man, W/B king, e empty): 50 squares for 10x10, 32 for the 8x8 diagonal
// boards, 64 for Turkish. Moves: quiet `32-28`, captures `from x to x captured...` (`28x19x23`).
#pragma once

#include <papan/core/expected.hpp>
#include <papan/core/move.hpp>
#include <papan/core/movegen.hpp>
#include <papan/core/position.hpp>
#include <papan/engine/engine.hpp>

#include <iosfwd>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace papan::engine {

// One protocol line: `<command> <arg>=<value> <flag> <arg>="quoted value" ...`.
struct HubLine {
    std::string command;
    std::vector<std::pair<std::string, std::string>> args;  // flags have an empty value
    std::vector<std::string> flags;                         // args given without `=`

    [[nodiscard]] std::optional<std::string> get(std::string_view name) const;
    [[nodiscard]] bool has_flag(std::string_view name) const;
};

// Splits a line into command and arguments (double quotes group a value; unknown parts are kept).
[[nodiscard]] HubLine parse_hub_line(std::string_view line);

// The value as written on the wire: double-quoted when empty or when it holds a space, `=` or `"`.
[[nodiscard]] std::string hub_quote(std::string_view value);

// Side to move plus one character per square.
[[nodiscard]] std::string hub_position(const core::Position& pos);
// Reads a position string for the variant (also accepts `z`/`Z` for Black, `.` for empty).
[[nodiscard]] core::Expected<core::Position> parse_hub_position(core::VariantId v,
                                                                std::string_view text);

// `32-28`, or `from x to x captured x ...` with the captured squares ascending.
[[nodiscard]] std::string hub_move(core::VariantId v, const core::Move& m);
// Finds the legal move a Hub move names: the Hub form (captured squares in any order) first, then
// any form the core's move parser accepts (a PDN landing path `28x19x10`, the short `28x19`).
[[nodiscard]] core::Expected<core::Move>
parse_hub_move(const core::Position& pos, std::string_view text, core::MoveGenOptions options = {});

// The score as Hub shows it, in men with two decimals ("0.12", "-1.00"); a forced game end is
// shown as +-19.xx (19.99 = the game ends in one ply), as Scan does.
[[nodiscard]] std::string hub_score(int centi_men);

struct HubIdentity {
    std::string name    = "Papan";
    std::string version = "0.1.0";
    std::string author  = "Papan developers";
    std::string country = "Netherlands";
};

class HubSession {
public:
    HubSession(std::istream& in,
               std::ostream& out,
               EngineOptions options = {},
               HubIdentity identity  = {});
    ~HubSession();
    HubSession(const HubSession&)            = delete;
    HubSession& operator=(const HubSession&) = delete;

    // Reads and answers commands until `quit` or the end of the input; returns the exit code (0).
    int run();

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace papan::engine
