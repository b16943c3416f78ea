// The computer move jobs between nodes and engine workers (server/src/cluster/ai_jobs.cpp):
// a job survives the trip through its JSON with its game, level and limits, and a job that is
// not one is refused with the reason, never half-read.
#include "cluster/ai_jobs.hpp"

#include <papan/core/rules/registry.hpp>

#include <gtest/gtest.h>

namespace papan::server {
namespace {

using Json = nlohmann::json;

AiJob sample_job() {
    core::Game game(core::VariantId::International);
    for (int i = 0; i < 6; ++i) {
        (void)game.play(game.legal_moves()[game.legal_moves().size() - 1]);
    }
    engine::SearchLimits limits;
    limits.time_left = 61.5;
    limits.increment = 2;
    return AiJob{
        "b1-7", "node-a", std::move(game), engine::Level::Hard, limits, true, 1'764'400'001'000};
}

TEST(AiJobs, AJobSurvivesItsJson) {
    const AiJob job    = sample_job();
    const Json j       = ai_job_json(job);
    const auto decoded = ai_job_from_json(Json::parse(j.dump()));
    ASSERT_TRUE(std::holds_alternative<AiJob>(decoded)) << std::get<std::string>(decoded);
    const auto& back = std::get<AiJob>(decoded);
    EXPECT_EQ(back.id, "b1-7");
    EXPECT_EQ(back.node, "node-a");
    EXPECT_EQ(back.level, engine::Level::Hard);
    EXPECT_TRUE(back.clocked);
    EXPECT_EQ(back.take_by_ms, 1'764'400'001'000);
    EXPECT_EQ(back.game.ply(), 6);
    EXPECT_EQ(back.game.position().key(), job.game.position().key());
    // The history comes too: repetitions and the move-limit counters depend on it.
    for (std::size_t i = 0; i < 6; ++i) {
        EXPECT_EQ(back.game.positions()[i].key(), job.game.positions()[i].key());
    }
    EXPECT_DOUBLE_EQ(back.limits.time_left, 61.5);
    EXPECT_DOUBLE_EQ(back.limits.increment, 2);
    EXPECT_EQ(back.limits.move_time, 0);
}

TEST(AiJobs, AJobThatIsNotOneIsRefusedWithTheReason) {
    const Json good    = ai_job_json(sample_job());
    const auto refused = [&](const std::function<void(Json&)>& spoil) {
        Json j = good;
        spoil(j);
        const auto decoded = ai_job_from_json(j);
        return std::holds_alternative<std::string>(decoded) ? std::get<std::string>(decoded)
                                                            : std::string();
    };
    EXPECT_EQ(refused([](Json&) {}), "");
    EXPECT_NE(refused([](Json& j) { j.erase("id"); }), "");
    EXPECT_NE(refused([](Json& j) { j["variant"] = "chess"; }).find("unknown variant"),
              std::string::npos);
    EXPECT_NE(refused([](Json& j) { j["level"] = "grandmaster"; }).find("unknown level"),
              std::string::npos);
    EXPECT_NE(refused([](Json& j) { j["start"] = "W:W99:B1"; }).find("bad start position"),
              std::string::npos);
    // An illegal move anywhere in the history: the whole job is refused.
    EXPECT_NE(refused([](Json& j) { j["moves"][3] = "50-45"; }).find("move 4"), std::string::npos);
    EXPECT_NE(refused([](Json& j) { j["moves"][0] = 3; }), "");
    EXPECT_NE(refused([](Json& j) { j["draw_rules"] = 9; }), "");
    // American club rules belong to American checkers only.
    EXPECT_NE(refused([](Json& j) { j["draw_rules"] = 1; }).find("bad game options"),
              std::string::npos);
    EXPECT_NE(refused([](Json& j) { j["limits"]["move_time"] = "soon"; }), "");
    EXPECT_NE(refused([](Json& j) { j["limits"]["time_left"] = -5; }), "");
    EXPECT_NE(refused([](Json& j) { j["limits"]["nodes"] = -1; }), "");
    EXPECT_NE(refused([](Json& j) { j["limits"]["time_left"] = -1; }).find("without any search"),
              std::string::npos);
    EXPECT_NE(refused([](Json& j) {
                  j["moves"] = Json::array();
                  j["moves"].push_back(nullptr);
              }),
              "");
    EXPECT_FALSE(std::holds_alternative<AiJob>(ai_job_from_json(Json::array())));
    EXPECT_FALSE(std::holds_alternative<AiJob>(ai_job_from_json(Json())));
}

TEST(AiJobs, TheBudgetIsTheSearchsHardDeadline) {
    engine::SearchLimits fixed;
    fixed.move_time = 1.5;
    EXPECT_LE(ai_budget_ms(fixed), 1500);
    EXPECT_GE(ai_budget_ms(fixed), 1400);
    engine::SearchLimits nodes;
    nodes.nodes = 100'000;
    EXPECT_EQ(ai_budget_ms(nodes), 3000);
    engine::SearchLimits clock;
    clock.time_left = 60;
    EXPECT_GT(ai_budget_ms(clock), 0);
    EXPECT_LE(ai_budget_ms(clock), 60'000 * 0.4 + 1);
}

}  // namespace
}  // namespace papan::server
