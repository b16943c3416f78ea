#include "cluster/ai_jobs.hpp"

#include <papan/core/notation/fen.hpp>
#include <papan/core/notation/move_text.hpp>
#include <papan/core/rules/registry.hpp>
#include <papan/engine/time_plan.hpp>

#include <algorithm>
#include <cmath>

namespace papan::server {

using Json = nlohmann::json;

namespace {

constexpr std::size_t kMaxJobPlies = 4000;  // longer than any game the move-limit rules allow
constexpr double kMaxSeconds       = 24.0 * 3600;

// A finite number in [0, max], or nullopt.
std::optional<double> seconds(const Json& j, const char* key, double max = kMaxSeconds) {
    const auto it = j.find(key);
    if (it == j.end() || !it->is_number()) {
        return std::nullopt;
    }
    const double v = it->get<double>();
    if (!std::isfinite(v) || v < -1 || v > max) {
        return std::nullopt;
    }
    return v;
}

// A whole number >= 0 (held as signed or unsigned: a job built here and one read from text
// differ), or nullopt.
std::optional<std::uint64_t> count(const Json& j, const char* key) {
    const auto it = j.find(key);
    if (it == j.end() || !it->is_number_integer()) {
        return std::nullopt;
    }
    if (it->is_number_unsigned()) {
        return it->get<std::uint64_t>();
    }
    const auto v = it->get<std::int64_t>();
    return v < 0 ? std::nullopt : std::optional<std::uint64_t>(static_cast<std::uint64_t>(v));
}

}  // namespace

std::string ai_reply_channel(const std::string& node) {
    return "papan:ai:reply:" + node;
}

Json ai_job_json(const AiJob& job) {
    Json moves           = Json::array();
    const auto positions = job.game.positions();
    const auto played    = job.game.moves();
    for (std::size_t i = 0; i < played.size(); ++i) {
        moves.push_back(core::move_text_full(positions[i], played[i]));
    }
    const auto& l = job.limits;
    return Json{{"id", job.id},
                {"node", job.node},
                {"variant", job.game.rules().key},
                {"start", core::to_fen(job.game.start_position())},
                {"forced_capture", job.game.options().forced_capture},
                {"draw_rules", static_cast<int>(job.game.options().draw_rules)},
                {"moves", std::move(moves)},
                {"level", engine::level_name(job.level)},
                {"clocked", job.clocked},
                {"take_by", job.take_by_ms},
                {"limits",
                 {{"depth", l.depth},
                  {"nodes", l.nodes},
                  {"move_time", l.move_time},
                  {"time_left", l.time_left},
                  {"increment", l.increment},
                  {"moves_to_go", l.moves_to_go},
                  {"byo_yomi", l.byo_yomi},
                  {"periods", l.periods}}}};
}

std::variant<AiJob, std::string> ai_job_from_json(const Json& j) {
    const auto text = [&j](const char* key) -> const std::string* {
        const auto it = j.find(key);
        return it != j.end() && it->is_string() ? it->get_ptr<const std::string*>() : nullptr;
    };
    const auto* id      = text("id");
    const auto* node    = text("node");
    const auto* variant = text("variant");
    const auto* start   = text("start");
    const auto* level   = text("level");
    if (id == nullptr || node == nullptr || variant == nullptr || start == nullptr ||
        level == nullptr || id->empty() || node->empty()) {
        return std::string("a job needs id, node, variant, start and level");
    }
    const auto v = core::variant_from_key(*variant);
    if (!v) {
        return "unknown variant '" + *variant + "'";
    }
    const auto parsed_level = engine::level_from_string(*level);
    if (!parsed_level) {
        return "unknown level '" + *level + "'";
    }
    const auto fc = j.find("forced_capture");
    const auto dr = j.find("draw_rules");
    const auto mv = j.find("moves");
    const auto tb = j.find("take_by");
    const auto cl = j.find("clocked");
    const auto li = j.find("limits");
    if (fc == j.end() || !fc->is_boolean() || dr == j.end() || !dr->is_number_integer() ||
        mv == j.end() || !mv->is_array() || tb == j.end() || !tb->is_number_integer() ||
        cl == j.end() || !cl->is_boolean() || li == j.end() || !li->is_object()) {
        return std::string("a job needs forced_capture, draw_rules, moves, take_by, clocked and "
                           "limits");
    }
    if (mv->size() > kMaxJobPlies) {
        return std::string("too many moves in a job");
    }
    const auto rules = dr->get<std::int64_t>();
    if (rules < 0 || rules > static_cast<int>(core::DrawRuleSet::RussianOfficial)) {
        return std::string("unknown draw rule set");
    }
    core::GameOptions options;
    options.forced_capture = fc->get<bool>();
    options.draw_rules     = static_cast<core::DrawRuleSet>(rules);
    auto pos               = core::parse_fen(*v, *start);
    if (!pos) {
        return "bad start position: " + pos.error();
    }
    auto created = core::Game::create(*pos, options);
    if (!created) {
        return "bad game options: " + created.error();
    }
    core::Game game = std::move(created).value();
    for (const auto& m : *mv) {
        if (!m.is_string()) {
            return std::string("a move that is not a text");
        }
        if (auto r = game.play(m.get_ref<const std::string&>()); !r) {
            return "move " + std::to_string(game.ply() + 1) + ": " + r.error();
        }
    }
    AiJob job{
        *id, *node, std::move(game), *parsed_level, {}, cl->get<bool>(), tb->get<std::int64_t>()};
    const auto depth     = count(*li, "depth");
    const auto nodes     = count(*li, "nodes");
    const auto mtg       = count(*li, "moves_to_go");
    const auto period    = count(*li, "periods");
    const auto move_time = seconds(*li, "move_time");
    const auto left      = seconds(*li, "time_left");
    const auto inc       = seconds(*li, "increment");
    const auto byo       = seconds(*li, "byo_yomi");
    if (!depth || !nodes || !mtg || !period || !move_time || !left || !inc || !byo) {
        return std::string("bad search limits");
    }
    auto& l       = job.limits;
    l.depth       = static_cast<int>(std::min<std::uint64_t>(*depth, 1000));
    l.nodes       = *nodes;
    l.moves_to_go = static_cast<int>(std::min<std::uint64_t>(*mtg, 1000));
    l.periods     = static_cast<int>(std::min<std::uint64_t>(*period, 1000));
    l.move_time   = std::max(0.0, *move_time);
    l.time_left   = *left;
    l.increment   = std::max(0.0, *inc);
    l.byo_yomi    = std::max(0.0, *byo);
    if (l.move_time == 0 && l.time_left < 0 && l.nodes == 0 && l.depth == 0) {
        return std::string("a job without any search limit");
    }
    return job;
}

std::int64_t ai_budget_ms(const engine::SearchLimits& l) {
    const double hard = engine::plan_time(l).hard;
    if (hard <= 0) {
        return 3000;
    }
    return static_cast<std::int64_t>(std::ceil(hard * 1000));
}

}  // namespace papan::server
