// libFuzzer target: what a node or an engine worker does with a message from the Redis bus
// (server/src/cluster): BusSealer::open (MAC, JSON, replay window) on the raw bytes, and the
// computer move job decoder, ai_job_from_json, on the bytes taken as JSON, as a worker runs it
// once a job's MAC has checked (a node with the secret can still send nonsense). Neither may
// throw or crash; a decoded job must be a game in progress or over with its moves replayed,
// a known level, and limits in range, and must survive a round trip through ai_job_json.
#include "cluster/ai_jobs.hpp"
#include "cluster/bus_envelope.hpp"
#include "fuzz_check.hpp"

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <variant>

namespace papan::fuzz::bus_message_fuzz {

using namespace papan::server;

namespace {

constexpr Checker check{"fuzz_bus_message"};
constexpr std::int64_t kNow = 1'764'400'000'000;

}  // namespace

// One input; returns 0. A finding aborts.
int one_input(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    static const BusSealer sealer("fuzz-cluster-secret-0123456789");
    if (const auto opened = sealer.open(text, kNow);
        std::holds_alternative<nlohmann::json>(opened)) {
        check(std::get<nlohmann::json>(opened).is_object(),
              "an opened message that is no object",
              text);
    }
    const auto j       = nlohmann::json::parse(text, nullptr, false);
    const auto decoded = ai_job_from_json(j);
    if (const auto* why = std::get_if<std::string>(&decoded)) {
        check(!why->empty(), "a refusal without a reason", text);
        return 0;
    }
    const auto& job = std::get<AiJob>(decoded);
    check(!job.id.empty() && !job.node.empty(), "a job without id or node", text);
    check(engine::level_from_string(engine::level_name(job.level)) == job.level,
          "a job of an unknown level",
          text);
    const auto& l = job.limits;
    check(l.nodes > 0 || l.depth > 0 || l.move_time > 0 || l.time_left >= 0,
          "a job without a search limit",
          text);
    check(l.move_time >= 0 && l.increment >= 0 && l.byo_yomi >= 0 && l.periods >= 0 &&
              l.moves_to_go >= 0 && l.depth >= 0,
          "a negative search limit",
          text);
    const auto again = ai_job_from_json(ai_job_json(job));
    check(std::holds_alternative<AiJob>(again), "a decoded job that does not decode again", text);
    const auto& same = std::get<AiJob>(again);
    check(same.game.ply() == job.game.ply() &&
              same.game.position().key() == job.game.position().key() &&
              same.game.is_over() == job.game.is_over(),
          "a job whose game changed in a round trip",
          text);
    return 0;
}

}  // namespace papan::fuzz::bus_message_fuzz

PAPAN_FUZZ_ENTRY(papan::fuzz::bus_message_fuzz::one_input)
