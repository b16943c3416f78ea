// Variant detection for PDN games without a GameType tag (docs/pdn.md "Variant detection"):
// each rule that can settle a game (GameType, default, setup, moves, file, notation), the
// refusal when variants fit equally, and the report when none fits.
#include "pdn_test_util.hpp"

#include <papan/core/notation/pdn.hpp>
#include <papan/core/rules/registry.hpp>

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace papan::core {
namespace {

using test::data_entries;
using test::detecting;
using test::has_note;

PdnEntry only_entry(const std::string& text, const PdnReadOptions& options = detecting()) {
    auto entries = read_pdn_entries(text, options);
    EXPECT_EQ(entries.size(), 1U) << text;
    return entries.empty() ? PdnEntry{} : entries.front();
}

TEST(PdnDetect, GameTypeDecidesAndDefaultAppliesWithoutDetection) {
    const PdnEntry tagged = only_entry("[GameType \"21\"]\n1. 11-15 23-19 *");
    EXPECT_TRUE(tagged.ok()) << tagged.error;
    EXPECT_EQ(tagged.game.variant, VariantId::American);
    EXPECT_EQ(tagged.variant_basis, PdnVariantBasis::GameType);

    PdnReadOptions fixed;
    fixed.default_variant     = VariantId::Pool;
    const PdnEntry by_default = only_entry("1. 11-15 23-19 *", fixed);
    EXPECT_TRUE(by_default.ok()) << by_default.error;
    EXPECT_EQ(by_default.game.variant, VariantId::Pool);
    EXPECT_EQ(by_default.variant_basis, PdnVariantBasis::Default);
}

TEST(PdnDetect, TheMovesDecideWhenOneVariantAcceptsThemAll) {
    // Black moves first from the 8x8 start: American or Pool; 10-15 ... 19x10 and the later
    // captures are legal in American checkers only (men capture backward in Pool).
    const auto entries = data_entries("checkers-no-gametype.pdn");
    ASSERT_EQ(entries.size(), 4U);
    for (const PdnEntry& e : entries) {
        EXPECT_TRUE(e.ok()) << e.error;
        EXPECT_EQ(e.game.variant, VariantId::American) << e.number;
    }
    EXPECT_EQ(entries[1].variant_basis, PdnVariantBasis::Moves);
    EXPECT_EQ(entries[2].variant_basis, PdnVariantBasis::Moves);
    // Games 1 and 4 fit Pool checkers too: the file's other games settle them.
    EXPECT_EQ(entries[0].variant_basis, PdnVariantBasis::File);
    EXPECT_EQ(entries[3].variant_basis, PdnVariantBasis::File);
    EXPECT_EQ(entries[3].game.moves.size(), 4U);
}

TEST(PdnDetect, AlonePoolAndAmericanTieIsSettledByTheNotation) {
    // The same short game alone: no file to lean on; numeric squares are American notation
    // (Pool is written algebraically).
    const PdnEntry e = only_entry("1. 9-13 23-19 2. 10-15 19x10 *");
    EXPECT_TRUE(e.ok()) << e.error;
    EXPECT_EQ(e.game.variant, VariantId::American);
    EXPECT_EQ(e.variant_basis, PdnVariantBasis::Notation);
    // Written with algebraic squares, it is Pool checkers' notation.
    const PdnEntry pool = only_entry("1. b6-a5 e3-f4 2. d6-e5 f4xd6 *");
    EXPECT_TRUE(pool.ok()) << pool.error;
    EXPECT_EQ(pool.game.variant, VariantId::Pool);
    EXPECT_EQ(pool.variant_basis, PdnVariantBasis::Notation);
}

TEST(PdnDetect, TheCaptureSeparatorTellsRussianFromItsRelatives) {
    // A FEN of the Russian start with White to move also reads as Brazilian, Czech and Pool;
    // algebraic squares with ':' captures are Russian notation.
    const PdnEntry e = only_entry("[FEN \"W:W21-32:B1-12\"]\n1. c3-d4 f6-g5 2. d4-c5 b6:d4 *");
    EXPECT_TRUE(e.ok()) << e.error;
    EXPECT_EQ(e.game.variant, VariantId::Russian);
    EXPECT_EQ(e.variant_basis, PdnVariantBasis::Notation);
}

TEST(PdnDetect, TheSetupDecidesByBoardSize) {
    const auto entries = data_entries("setup-international.pdn");
    ASSERT_EQ(entries.size(), 1U);
    EXPECT_TRUE(entries[0].ok()) << entries[0].error;
    EXPECT_EQ(entries[0].game.variant, VariantId::International);
    EXPECT_EQ(entries[0].variant_basis, PdnVariantBasis::Setup);

    // Squares above 50: only Turkish has them.
    const PdnEntry turkish = only_entry("[FEN \"W:W20:B60\"]\n1. 20-28 *");
    EXPECT_TRUE(turkish.ok()) << turkish.error;
    EXPECT_EQ(turkish.game.variant, VariantId::Turkish);
    EXPECT_EQ(turkish.variant_basis, PdnVariantBasis::Setup);
}

TEST(PdnDetect, VariantsThatFitEquallyAreRefusedByName) {
    const auto entries = data_entries("variant-tie.pdn");
    ASSERT_EQ(entries.size(), 1U);
    const PdnEntry& e = entries[0];
    EXPECT_FALSE(e.ok());
    EXPECT_EQ(e.error_kind, PdnErrorKind::VariantTie);
    EXPECT_EQ(e.variant_basis, PdnVariantBasis::None);
    EXPECT_EQ(e.tied_variants,
              (std::vector<VariantId>{VariantId::American, VariantId::Italian, VariantId::Thai}));
    EXPECT_NE(e.error.find("game 1: no GameType tag, and the moves fit American checkers, "
                           "Italian draughts and Thai draughts equally"),
              std::string::npos)
        << e.error;
    // A default variant settles it.
    PdnReadOptions fixed;
    fixed.default_variant = VariantId::Italian;
    const auto read       = read_pdn_document(test::read_pdn_data("variant-tie.pdn"), fixed);
    ASSERT_EQ(read.entries.size(), 1U);
    EXPECT_TRUE(read.entries[0].ok()) << read.entries[0].error;
    EXPECT_EQ(read.entries[0].game.variant, VariantId::Italian);
}

TEST(PdnDetect, NoVariantFitsReportsTheOneThatReadFurthest) {
    // 11-15 23-19 are American; 19-23 is then illegal in every variant.
    const PdnEntry e = only_entry("1. 11-15 23-19 2. 8-11 19-23 *");
    EXPECT_FALSE(e.ok());
    EXPECT_EQ(e.error_kind, PdnErrorKind::NoVariant);
    EXPECT_EQ(e.error_move, 2);
    EXPECT_NE(e.error.find("game 1, move 2 (white): illegal move '19-23'"), std::string::npos)
        << e.error;
    EXPECT_NE(e.error.find("no variant accepts every move"), std::string::npos) << e.error;
    EXPECT_NE(e.error.find("American checkers read furthest"), std::string::npos) << e.error;
}

TEST(PdnDetect, AnUnknownGameTypeIsDetectedWithANote) {
    // PlayStrategy writes English checkers as 32 (the standard number is 21).
    const PdnEntry e = only_entry("[GameType \"32\"]\n1. 11-15 23-19 2. 8-11 22-17 *");
    EXPECT_TRUE(e.ok()) << e.error;
    EXPECT_EQ(e.game.variant, VariantId::American);
    EXPECT_TRUE(has_note(e, "unknown GameType \"32\": the variant was detected instead"));
    // Without detection it stays an error.
    PdnReadOptions fixed;
    const PdnEntry strict = only_entry("[GameType \"32\"]\n1. 11-15 *", fixed);
    EXPECT_EQ(strict.error_kind, PdnErrorKind::GameType);
    EXPECT_NE(strict.error.find("game 1, line 1: unknown GameType \"32\""), std::string::npos)
        << strict.error;
}

TEST(PdnDetect, RealRussianGamesWithoutGameType) {
    const auto entries = data_entries("russian.pdn");
    ASSERT_EQ(entries.size(), 3U);
    for (const PdnEntry& e : entries) {
        EXPECT_TRUE(e.ok()) << e.error;
        EXPECT_EQ(e.game.variant, VariantId::Russian);
    }
}

}  // namespace
}  // namespace papan::core
