// The state's draw counters (wire::write_move_limits, server/src/wire/game_writer.cpp): each
// no-progress rule names its kind and length, per variant and rule set, as docs/protocol.md lists
// them; the endgame rules have no kind; limit_moves is in moves of each side.
#include <papan/core/notation/fen.hpp>
#include <papan/core/rules/registry.hpp>
#include <papan/server/wire/game_writer.hpp>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <map>
#include <string>

namespace papan::server {
namespace {

using Json = nlohmann::json;

std::map<std::string, Json> limits_of(core::VariantId v,
                                      const std::string& fen,
                                      core::DrawRuleSet set = core::DrawRuleSet::Standard) {
    const auto pos = core::parse_fen(v, fen);
    EXPECT_TRUE(pos) << fen;
    core::GameOptions opts;
    opts.draw_rules = set;
    auto game       = core::Game::create(*pos, opts);
    EXPECT_TRUE(game) << fen;
    std::string text;
    wire::JsonWriter writer(text);
    wire::write_move_limits(writer, *game, true);
    std::map<std::string, Json> out;
    for (const auto& d : Json::parse(text)) {
        out[d["rule"].get<std::string>()] = d;
    }
    return out;
}

TEST(MoveLimitJson, EachVariantsNoProgressRuleHasItsKindAndLength) {
    const std::map<std::string, std::pair<std::string, int>> expected{
        {"american", {"no_capture_no_man_move", 40}},
        {"international", {"kings_only_no_capture", 25}},
        {"brazilian", {"no_capture_no_crowning", 40}},
        {"russian", {"no_capture_no_crowning", 40}},
        {"pool", {"no_capture_no_crowning", 40}},
        {"spanish", {"no_capture_no_crowning", 40}},
        {"italian", {"no_capture_no_crowning", 40}},
        {"czech", {"no_capture_no_crowning", 40}},
        {"thai", {"no_capture_no_crowning", 40}},
        {"turkish", {"no_capture_no_man_advance", 25}},
    };
    for (const auto& r : core::all_variants()) {
        const auto limits = limits_of(r.id, std::string(r.start_fen));
        ASSERT_TRUE(limits.contains("no_progress")) << r.key;
        const Json& d             = limits.at("no_progress");
        const auto& [kind, moves] = expected.at(std::string(r.key));
        EXPECT_EQ(d["kind"], kind) << r.key;
        EXPECT_EQ(d["limit_moves"], moves) << r.key << ": " << d["text"];
        EXPECT_EQ(d["moves_left"], moves) << r.key;
    }
}

TEST(MoveLimitJson, RuleSetsAndEndgameRules) {
    // American club rules count king moves without capture (40 each).
    const auto club =
        limits_of(core::VariantId::American, "B:WK32:BK1", core::DrawRuleSet::AmericanClub);
    EXPECT_EQ(club.at("no_progress")["kind"], "kings_only_no_capture");
    EXPECT_EQ(club.at("no_progress")["limit_moves"], 40);
    // International king against king: the 5-move endgame rule, which has no kind.
    const auto kk = limits_of(core::VariantId::International, "W:WK47:BK1");
    ASSERT_TRUE(kk.contains("king_vs_two")) << Json(kk).dump();
    EXPECT_FALSE(kk.at("king_vs_two").contains("kind"));
    EXPECT_EQ(kk.at("king_vs_two")["limit_moves"], 5);
    EXPECT_EQ(kk.at("no_progress")["kind"], "kings_only_no_capture");
}

}  // namespace
}  // namespace papan::server
