// Perft is the move generator's oracle: every published count of tests/data/perft (sources per
// block, conventions in docs/perft.md) is reproduced here up to a node budget that keeps `make
// test` fast; `make bench` runs every depth.
#include "perft_data.hpp"

#include <papan/core/notation/fen.hpp>
#include <papan/core/perft.hpp>

#include <gtest/gtest.h>

namespace papan::core {
namespace {

#if defined(__SANITIZE_ADDRESS__) || defined(__OPTIMIZE__) == 0
constexpr std::uint64_t kNodeBudget = 300'000;  // sanitizer and debug builds are slow
#else
constexpr std::uint64_t kNodeBudget = 12'000'000;
#endif

TEST(Perft, DataFilesCoverEveryVariant) {
    const auto cases = test::load_all_perft(PAPAN_TEST_DATA_DIR "/perft");
    for (const RuleSet& r : all_variants()) {
        const bool found = std::any_of(cases.begin(), cases.end(), [&](const test::PerftCase& c) {
            return c.variant == r.id;
        });
        EXPECT_TRUE(found) << r.key;
    }
    EXPECT_GE(cases.size(), 12U);
}

TEST(Perft, PublishedCountsUpToBudget) {
    const auto cases = test::load_all_perft(PAPAN_TEST_DATA_DIR "/perft");
    int checked      = 0;
    for (const auto& c : cases) {
        const auto pos = parse_fen(c.variant, c.fen);
        ASSERT_TRUE(pos.ok()) << c.fen << ": " << pos.error();
        for (const auto& [depth, nodes] : c.counts) {
            if (nodes > kNodeBudget) {
                break;
            }
            EXPECT_EQ(perft(*pos, depth, c.mode), nodes)
                << rules(c.variant).key << " " << c.id << " depth " << depth;
            ++checked;
        }
    }
    EXPECT_GE(checked, 60);
}

TEST(Perft, DivideSumsToPerft) {
    const Position pos = start_position(VariantId::International);
    const auto divide  = perft_divide(pos, 4);
    std::uint64_t sum  = 0;
    for (const auto& e : divide) {
        sum += e.nodes;
    }
    EXPECT_EQ(divide.size(), 9U);
    EXPECT_EQ(sum, 4265U);
}

TEST(Perft, RoutesAndDistinctDifferOnlyWhereRoutesRepeat) {
    // kish counts every Turkish capture route; the counts agree to depth 6 and part at 7.
    const Position pos = start_position(VariantId::Turkish);
    EXPECT_EQ(perft(pos, 6, CountMode::Routes), perft(pos, 6, CountMode::Distinct));
}

}  // namespace
}  // namespace papan::core
