// Computer move jobs between nodes and engine workers (`papan worker`, docs/operations.md
// "Engine workers"). A node adds a job to a Redis stream, the workers of one consumer group
// take it, answer on the node's reply channel and only then acknowledge it; a job a dead worker
// held is claimed by another (XAUTOCLAIM). Jobs of games with a running clock have a stream of
// their own that workers read first. Every job and every answer travels in the bus envelope
// (bus_envelope.hpp): a message without the cluster secret's MAC is refused and never worked on.
#pragma once

#include "game/ai_pool.hpp"

#include <papan/core/game.hpp>
#include <papan/engine/limits.hpp>

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <variant>

namespace papan::server {

inline constexpr std::string_view kAiStreamClocked  = "papan:ai:clocked";
inline constexpr std::string_view kAiStreamUntimed  = "papan:ai:untimed";
inline constexpr std::string_view kAiGroup          = "papan-workers";
inline constexpr std::string_view kAiWorkersChannel = "papan:ai:workers";  // worker heartbeats
inline constexpr std::size_t kAiStreamMaxLen        = 10'000;  // XADD MAXLEN ~ of each stream

// The channel a node hears its answers on.
[[nodiscard]] std::string ai_reply_channel(const std::string& node);

// What a node asks: the game (start position, options, every move: repetitions count), the
// level, and the search limits the node's settings give it (ai_limits), so a worker plays as
// the node would. `take_by_ms`: a worker that first sees the job later leaves it (the node has
// thought itself by then).
struct AiJob {
    std::string id;
    std::string node;
    core::Game game;
    engine::Level level = engine::Level::Normal;
    engine::SearchLimits limits;
    bool clocked            = false;
    std::int64_t take_by_ms = 0;
};

[[nodiscard]] nlohmann::json ai_job_json(const AiJob& job);

// The job a message names, or the reason it is not one (every field checked, every move
// legal in turn); never throws.
[[nodiscard]] std::variant<AiJob, std::string> ai_job_from_json(const nlohmann::json& j);

// How long the search of these limits may take, in ms, as the node waits for it: the fixed
// move time, or a share of the clock (the engine's time management spends less), or 3 s.
[[nodiscard]] std::int64_t ai_budget_ms(const engine::SearchLimits& l);

}  // namespace papan::server
