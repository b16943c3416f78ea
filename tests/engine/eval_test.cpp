// The static evaluation: colour symmetry for every variant, that the engine's integer evaluation
// is the linear form the tuner fits (evaluation.hpp), and what the pattern terms see.
#include "eval_positions.hpp"

#include <papan/core/notation/fen.hpp>
#include <papan/engine/evaluation.hpp>

#include <gtest/gtest.h>

#include <cmath>

namespace papan::engine {
namespace {

using core::VariantId;

// A position and its colour-flipped mirror score the same for the side to move, with the
// compiled-in weights and with random ones (which give every pattern entry a value).
TEST(EvalSymmetry, MirrorScoresTheSame_EveryVariant) {
    for (const core::RuleSet& r : core::all_variants()) {
        const EvalWeights random = test::random_weights(r.id, 77, 400);
        for (const core::Position& p : test::playout_positions(r.id, 400, 11)) {
            const core::Position m = test::mirror(p);
            ASSERT_TRUE(m.is_consistent()) << r.key;
            ASSERT_EQ(static_eval(p), static_eval(m)) << r.key << " " << core::to_fen(p);
            ASSERT_EQ(static_eval(p, &random), static_eval(m, &random))
                << r.key << " " << core::to_fen(p);
        }
    }
}

// White's view of the real-valued form of evaluation.hpp from the features.
double linear_form(const EvalFeatures& f, const EvalWeights& w) {
    const auto v   = w.values();
    const double a = static_cast<double>(f.phase) / f.phase_total;
    double raw     = 0;
    for (std::size_t i = 0; i < f.count; ++i) {
        const auto& e = f.entries[i];
        raw += e.coef * (v[2 * e.pair] * a + v[2 * e.pair + 1] * (1 - a));
    }
    raw /= eval_layout(w.variant()).fine_units;
    return raw * (raw >= 0 ? f.scale_white : f.scale_black) / 16.0;
}

TEST(EvalFeaturesTest, EngineScoreIsTheFittedLinearForm_EveryVariant) {
    for (const core::RuleSet& r : core::all_variants()) {
        const EvalWeights w = test::random_weights(r.id, 5, 300);
        int checked         = 0;
        for (const core::Position& p : test::playout_positions(r.id, 300, 3)) {
            EvalFeatures f;
            eval_features(p, f);
            ASSERT_LT(f.count, EvalFeatures::kCapacity) << r.key;
            const double white = linear_form(f, w);
            const int engine   = static_eval(p, &w) * (p.side == core::Color::White ? 1 : -1);
            ASSERT_NEAR(engine, white, 2.0) << r.key << " " << core::to_fen(p);
            checked += std::abs(white) > 50 ? 1 : 0;
        }
        EXPECT_GT(checked, 100) << r.key;  // the random weights give real scores to compare
    }
}

// A region entry a position reads moves its score: raising it by 8 units (one hundredth) in
// both phases moves White's score by one per time it is read (White's reads count +1, Black's -1).
TEST(EvalFeaturesTest, PatternEntryChangesTheScore) {
    const auto pos = core::parse_fen(VariantId::International, "W:W31-50:B1-19");  // a man up
    ASSERT_TRUE(pos.ok());
    EvalFeatures f;
    eval_features(*pos, f);
    const auto info   = eval_layout(VariantId::International);
    std::size_t entry = 0;
    int net           = 0;
    for (std::size_t i = 0; i < f.count && net == 0; ++i) {
        if (f.entries[i].pair < info.first_region) {
            continue;
        }
        entry = f.entries[i].pair;
        for (std::size_t j = 0; j < f.count; ++j) {
            net += f.entries[j].pair == entry ? f.entries[j].coef : 0;
        }
    }
    ASSERT_NE(net, 0);
    const auto base = EvalWeights::builtin(VariantId::International).values();
    std::vector<std::int16_t> changed(base.begin(), base.end());
    changed[2 * entry]     = static_cast<std::int16_t>(changed[2 * entry] + 800);
    changed[2 * entry + 1] = static_cast<std::int16_t>(changed[2 * entry + 1] + 800);
    const auto w           = EvalWeights::from_values(VariantId::International, changed);
    ASSERT_TRUE(w.ok());
    ASSERT_GT(static_eval(*pos), 0);
    EXPECT_EQ(static_eval(*pos, &*w), static_eval(*pos) + 100 * net);
}

TEST(EvalLayoutTest, RegionsAndSizesPerFamily) {
    EXPECT_EQ(eval_layout(VariantId::International).regions, 16U);
    EXPECT_EQ(eval_layout(VariantId::American).regions, 9U);
    EXPECT_EQ(eval_layout(VariantId::Russian).regions, 9U);
    EXPECT_EQ(eval_layout(VariantId::Turkish).regions, 15U);
    EXPECT_EQ(eval_layout(VariantId::American).id, eval_layout(VariantId::Thai).id);
    EXPECT_NE(eval_layout(VariantId::American).id, eval_layout(VariantId::International).id);
    EXPECT_NE(eval_layout(VariantId::Turkish).id, eval_layout(VariantId::International).id);
    for (const core::RuleSet& r : core::all_variants()) {
        const auto info = eval_layout(r.id);
        EXPECT_EQ(info.weight_count,
                  2 * (info.terms + 2 * info.squares + info.regions * info.region_entries));
        EXPECT_EQ(info.first_region, info.terms + 2 * info.squares);
        EXPECT_LT(info.weight_count * 2, std::size_t{2} << 20) << r.key;  // < 2 MiB as a file
    }
}

}  // namespace
}  // namespace papan::engine
