// Weight sets: the compiled-in set of every variant, weight files (round trip, every refusal),
// and the override reaching the search (EngineOptions::weights).
#include "eval_positions.hpp"

#include <papan/core/game.hpp>
#include <papan/core/notation/fen.hpp>
#include <papan/engine/engine.hpp>
#include <papan/engine/evaluation.hpp>
#include <papan/engine/weights.hpp>

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <unistd.h>

namespace papan::engine {
namespace {

using core::VariantId;

std::string temp_path(const std::string& name) {
    return (std::filesystem::temp_directory_path() /
            ("papan_eval_weights_" + std::to_string(::getpid()) + "_" + name))
        .string();
}

TEST(EvalWeightsTest, BuiltinSetOfEveryVariantLoads) {
    for (const core::RuleSet& r : core::all_variants()) {
        const EvalWeights& w = EvalWeights::builtin(r.id);
        EXPECT_EQ(w.variant(), r.id);
        // Every variant's learned set is embedded and fits its layout (not the hand-set start).
        const auto embedded = EvalWeights::builtin_is_embedded(r.id);
        EXPECT_TRUE(embedded.ok()) << r.key << ": " << embedded.error();
        const auto info = eval_layout(r.id);
        ASSERT_EQ(w.values().size(), info.weight_count) << r.key;
        // The unit: a man is worth 100 (the mean of the two phases; rounding), a king more.
        EXPECT_NEAR(w.values()[0] + w.values()[1], 200 * info.fine_units, 1) << r.key;
        EXPECT_GT(w.values()[2] + w.values()[3], w.values()[0] + w.values()[1]) << r.key;
        // As a file and back: the same numbers.
        const auto parsed = EvalWeights::parse(w.serialize());
        ASSERT_TRUE(parsed.ok()) << r.key << ": " << parsed.error();
        EXPECT_EQ(parsed->variant(), r.id);
        EXPECT_TRUE(std::equal(
            parsed->values().begin(), parsed->values().end(), w.values().begin(), w.values().end()))
            << r.key;
    }
}

// The compiled-in set is the weight file in the tree, byte for byte (the build embeds
// engine/weights/<variant>.bin).
TEST(EvalWeightsTest, BuiltinSetIsTheFileInTheTree) {
    for (const core::RuleSet& r : core::all_variants()) {
        const std::string path =
            std::string(PAPAN_SOURCE_DIR) + "/engine/weights/" + std::string(r.key) + ".bin";
        const auto file = load_weights(path);
        ASSERT_TRUE(file.ok()) << file.error();
        EXPECT_EQ((*file)->serialize(), EvalWeights::builtin(r.id).serialize()) << r.key;
    }
}

TEST(EvalWeightsTest, WrongSizeSetIsRefused) {
    const auto w = EvalWeights::from_values(VariantId::American, std::vector<std::int16_t>(10));
    ASSERT_FALSE(w.ok());
    EXPECT_NE(w.error().find("has 118252 weights, not 10"), std::string::npos) << w.error();
}

// Every check of the file format refuses a damaged file with its own message.
TEST(EvalWeightsTest, DamagedFilesAreRefusedWithTheReason) {
    const std::vector<unsigned char> good = EvalWeights::builtin(VariantId::Russian).serialize();
    ASSERT_TRUE(EvalWeights::parse(good).ok());
    const auto refused = [&](std::vector<unsigned char> bytes, const std::string& why) {
        const auto r = EvalWeights::parse(bytes);
        ASSERT_FALSE(r.ok()) << why;
        EXPECT_NE(r.error().find(why), std::string::npos) << r.error();
    };
    auto bytes = good;
    bytes[0]   = 'X';
    refused(bytes, "bad magic");
    bytes    = good;
    bytes[8] = 2;
    refused(bytes, "format version 2");
    bytes     = good;
    bytes[12] = 'z';  // "zussian"
    refused(bytes, "unknown variant 'zussian'");
    bytes = good;
    bytes[28] ^= 0x55;  // layout id
    refused(bytes, "another evaluation layout");
    bytes     = good;
    bytes[32] = 0;  // weight count
    bytes[33] = 0;
    refused(bytes, "the russian layout has 118252");
    bytes = good;
    bytes.resize(bytes.size() - 100);
    refused(bytes, "truncated");
    bytes = good;
    bytes.push_back(0);
    refused(bytes, "trailing data");
    bytes = good;
    bytes[1000] ^= 1;
    refused(bytes, "checksum mismatch");
    refused({}, "too short");
    // A Turkish file is not a Russian one: its layout id and size differ, yet it is a good file.
    const auto turkish = EvalWeights::parse(EvalWeights::builtin(VariantId::Turkish).serialize());
    ASSERT_TRUE(turkish.ok());
    EXPECT_EQ(turkish->variant(), VariantId::Turkish);
}

TEST(EvalWeightsTest, LoadWeightsReadsFilesAndNamesTheProblem) {
    const std::string path = temp_path("good.bin");
    const auto w           = test::random_weights(VariantId::International, 1, 100);
    ASSERT_TRUE(save_weights(path, w).ok());
    const auto loaded = load_weights(path);
    ASSERT_TRUE(loaded.ok()) << loaded.error();
    EXPECT_TRUE(std::equal((*loaded)->values().begin(),
                           (*loaded)->values().end(),
                           w.values().begin(),
                           w.values().end()));
    const auto missing = load_weights(temp_path("missing.bin"));
    ASSERT_FALSE(missing.ok());
    EXPECT_NE(missing.error().find("cannot open"), std::string::npos);
    std::filesystem::remove(path);
}

// Tempo worth a man per rank: a different evaluation, so a different search.
std::shared_ptr<const EvalWeights> tempo_heavy(VariantId v) {
    const auto base = EvalWeights::builtin(v).values();
    std::vector<std::int16_t> w(base.begin(), base.end());
    w[2 * 3] = w[2 * 3 + 1] = 800;  // Term::Tempo
    return std::make_shared<const EvalWeights>(
        std::move(EvalWeights::from_values(v, std::move(w))).value());
}

SearchResult search_with(const core::Game& g, std::shared_ptr<const EvalWeights> weights) {
    Engine eng(
        EngineOptions{.hash_mb = 4, .seed = 0, .weights = std::move(weights), .egdb_dir = {}});
    SearchLimits limits;
    limits.depth = 5;
    return eng.search(g, limits);
}

TEST(EvalWeightsTest, OverrideChangesTheSearch_OnlyForItsVariant) {
    const core::Game g(VariantId::International);
    const SearchResult plain = search_with(g, nullptr);
    const SearchResult heavy = search_with(g, tempo_heavy(VariantId::International));
    EXPECT_NE(plain.score, heavy.score);
    EXPECT_NE(plain.nodes, heavy.nodes);
    // Weights of another variant leave this game's evaluation alone.
    const SearchResult other = search_with(g, tempo_heavy(VariantId::Brazilian));
    EXPECT_EQ(plain.score, other.score);
    EXPECT_EQ(plain.nodes, other.nodes);
}

// The hand-set start keeps 705d7ff's back-row guard: without it the start lost to 705d7ff in
// Thai by 84 Elo (docs/engine.md). Same material; White's fifth man on its back-row corner (square
// 29) or advanced to the side-file square 28: the guard makes the first better, advancement
// alone the second.
TEST(EvalWeightsTest, HandSetStartGuardsTheBackRow) {
    const auto start = EvalWeights::from_values(VariantId::Thai, initial_weights(VariantId::Thai));
    ASSERT_TRUE(start) << start.error();
    const auto home     = core::parse_fen(VariantId::Thai, "W:W25,29-32:B1-5");
    const auto advanced = core::parse_fen(VariantId::Thai, "W:W25,28,30-32:B1-5");
    ASSERT_TRUE(home && advanced);
    EXPECT_GT(static_eval(*home, &*start), static_eval(*advanced, &*start));
}

}  // namespace
}  // namespace papan::engine
