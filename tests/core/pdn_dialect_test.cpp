// What other programs write and the PDN reader accepts (docs/pdn.md "Dialects", "Recovery"):
// "-" as a result, compact moves, an ambiguous capture settled by looking ahead, lenient tags
// and setups, junk behind tags, resynchronisation after broken games, the Result tag agreeing
// with the terminator, and the faithful round trip. Each case has a small file of its own in
// tests/data/pdn, written for these tests.
#include "pdn_test_util.hpp"

#include <papan/core/notation/fen.hpp>
#include <papan/core/notation/move_text.hpp>
#include <papan/core/notation/pdn.hpp>

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace papan::core {
namespace {

using test::data_entries;
using test::detecting;
using test::has_note;
using test::read_pdn_data;

std::vector<PdnGame> good_games(const std::vector<PdnEntry>& entries) {
    std::vector<PdnGame> games;
    for (const PdnEntry& e : entries) {
        EXPECT_TRUE(e.ok()) << e.error;
        games.push_back(e.game);
    }
    return games;
}

TEST(PdnDialect, DashIsAnUnknownResultAndEndsTheGame) {
    EXPECT_EQ(parse_pdn_result("-"), PdnResult::Unknown);
    const auto entries = data_entries("dash-result.pdn");
    ASSERT_EQ(entries.size(), 2U);
    for (const PdnEntry& e : entries) {
        EXPECT_TRUE(e.ok()) << e.error;
        EXPECT_EQ(e.game.result, "-");
        EXPECT_TRUE(e.notes.empty());  // tag and terminator agree
    }
    EXPECT_EQ(entries[0].game.moves.size(), 8U);
    EXPECT_EQ(entries[1].game.moves.size(), 6U);
    // Kept as read, written canonically as "*".
    const std::string as_read = write_pdn_game(entries[0].game, {PdnWriteStyle::AsRead});
    EXPECT_NE(as_read.find("[Result \"-\"]"), std::string::npos) << as_read;
    EXPECT_EQ(as_read.substr(as_read.size() - 3), " -\n") << as_read;
    const std::string canonical = write_pdn_game(entries[0].game);
    EXPECT_NE(canonical.find("[Result \"*\"]"), std::string::npos) << canonical;
    EXPECT_EQ(canonical.substr(canonical.size() - 3), " *\n") << canonical;
}

TEST(PdnDialect, CompactMovesReadWhenOneReadingIsLegal) {
    const auto entries = data_entries("compact-moves.pdn");
    ASSERT_EQ(entries.size(), 2U);
    const auto games = good_games(entries);
    ASSERT_EQ(games.size(), 2U);
    EXPECT_EQ(games[0].moves.size(), 12U);
    EXPECT_EQ(move_text(games[0].position_before(0), games[0].moves[0]), "32-27");
    EXPECT_EQ(move_text(games[0].position_before(4), games[0].moves[4]), "30x19");
    EXPECT_EQ(games[1].moves.size(), 12U);
    EXPECT_EQ(move_text(games[1].position_before(3), games[1].moves[3]), "b6:d4");
    // "3228" also splits as 3-2-28, 3-22-8 and 32-2-8: only 32-28 is legal.
    PdnReadOptions o;
    const auto g = read_pdn("1. 3228 1923 *", o);
    ASSERT_TRUE(g.ok()) << g.error();
    EXPECT_EQ(move_text(g->front().position_before(0), g->front().moves[0]), "32-28");
    // Digits with no legal reading are still an error, naming the text.
    const auto bad = read_pdn("1. 3223 *", o);
    ASSERT_FALSE(bad.ok());
    EXPECT_NE(bad.error().find("'3223'"), std::string::npos) << bad.error();
}

TEST(PdnDialect, AnAmbiguousCaptureIsSettledByWhatFollows) {
    const auto entries = data_entries("ambiguous-capture.pdn");
    ASSERT_EQ(entries.size(), 2U);
    const PdnEntry& settled = entries[0];
    ASSERT_TRUE(settled.ok()) << settled.error;
    ASSERT_EQ(settled.game.moves.size(), 4U);
    EXPECT_EQ(captured_squares(VariantId::American, settled.game.moves[0]),
              (std::vector<int>{7, 15}));
    EXPECT_TRUE(has_note(settled,
                         "'2x18' fits 2 legal moves; only 2x11x18 (taking 7, 15) keeps "
                         "the rest of the game legal"));
    // Game 2 ends after the capture: both choices keep it legal, so it stays an error.
    const PdnEntry& open = entries[1];
    EXPECT_FALSE(open.ok());
    EXPECT_EQ(open.error_kind, PdnErrorKind::AmbiguousMove);
    EXPECT_EQ(open.error_move, 1);
    EXPECT_NE(open.error.find("game 2, move 1 (black): ambiguous move '2x18'"), std::string::npos)
        << open.error;
    // The full path names one capture without looking ahead.
    const auto full = read_pdn("[GameType \"21\"]\n[FEN \"B:W6,7,14,15,30:B2,12\"]\n1. 2x9x18 *",
                               VariantId::American);
    ASSERT_TRUE(full.ok()) << full.error();
    EXPECT_EQ(captured_squares(VariantId::American, full->front().moves[0]),
              (std::vector<int>{6, 14}));
}

TEST(PdnDialect, TagNamesAndValuesAreReadLeniently) {
    const auto entries = data_entries("lenient-tags.pdn");
    ASSERT_EQ(entries.size(), 1U);
    ASSERT_TRUE(entries[0].ok()) << entries[0].error;
    const PdnGame& g = entries[0].game;
    ASSERT_NE(g.tag("Event"), nullptr);
    EXPECT_EQ(*g.tag("Event"), "The Open");  // unquoted
    ASSERT_NE(g.tag("White Team"), nullptr);
    EXPECT_EQ(*g.tag("White Team"), "North");
    ASSERT_NE(g.tag("Black-Team"), nullptr);
    ASSERT_NE(g.tag("1stBoard"), nullptr);
    ASSERT_NE(g.tag("Événement"), nullptr);
    EXPECT_EQ(*g.tag("Événement"), "Coupe");
    ASSERT_NE(g.tag("Annotator"), nullptr);
    EXPECT_EQ(*g.tag("Annotator"), "J. \"Jim\" Doe");  // unescaped quotes inside
    EXPECT_EQ(g.moves.size(), 6U);
    // As read they come back; canonically only identifier names stay.
    const std::string as_read = write_pdn_game(g, {PdnWriteStyle::AsRead});
    EXPECT_NE(as_read.find("[White Team \"North\"]"), std::string::npos) << as_read;
    EXPECT_NE(as_read.find("[Annotator \"J. \\\"Jim\\\" Doe\"]"), std::string::npos) << as_read;
    const auto back = read_pdn(as_read, detecting());
    ASSERT_TRUE(back.ok()) << back.error();
    EXPECT_EQ(back->front().tags, g.tags);
    const std::string canonical = write_pdn_game(g);
    EXPECT_NE(canonical.find("[WhiteTeam \"North\"]"), std::string::npos) << canonical;
}

TEST(PdnDialect, AManOnItsPromotionRowNeedsTheLenientSetup) {
    auto strict = data_entries("problem-setup.pdn");
    ASSERT_EQ(strict.size(), 1U);
    EXPECT_FALSE(strict[0].ok());
    EXPECT_EQ(strict[0].error_kind, PdnErrorKind::SetupPromotionRow);
    EXPECT_NE(strict[0].error.find("white man on 2 stands on its promotion row"), std::string::npos)
        << strict[0].error;

    const auto lenient = data_entries("problem-setup.pdn", detecting(true));
    ASSERT_EQ(lenient.size(), 1U);
    ASSERT_TRUE(lenient[0].ok()) << lenient[0].error;
    const PdnGame& g = lenient[0].game;
    EXPECT_EQ(to_fen(g.start), "W:WK2,18:B10,11");
    EXPECT_EQ(g.moves.size(), 3U);
    EXPECT_TRUE(has_note(lenient[0], "the man on 2 stands on its promotion row: read as a king"));
    // The same in a setup inside the move text, and in FEN itself.
    FenReadOptions crown;
    crown.crown_men_on_promotion_row = true;
    const auto info                  = parse_fen_info(VariantId::American, "W:W2,18:B10,11", crown);
    ASSERT_TRUE(info.ok()) << info.error();
    EXPECT_EQ(info->crowned, (std::vector<int>{2}));
    EXPECT_FALSE(parse_fen(VariantId::American, "W:W2,18:B10,11").ok());
}

TEST(PdnRecovery, JunkBehindTagsIsSkippedNotAGameOfItsOwn) {
    const auto entries = data_entries("junk-after-tags.pdn");
    ASSERT_EQ(entries.size(), 3U);
    const std::vector<std::size_t> plies = {20, 24, 10};
    for (std::size_t i = 0; i < entries.size(); ++i) {
        EXPECT_TRUE(entries[i].ok()) << entries[i].error;
        EXPECT_EQ(entries[i].game.moves.size(), plies[i]);
        EXPECT_EQ(entries[i].game.tags.size(), 5U);
        EXPECT_TRUE(has_note(entries[i], "skipped '\\r' before the move text (and 4 more"))
            << entries[i].number;
    }
}

TEST(PdnRecovery, ABadGameInTheMiddleLeavesTheOthersWhole) {
    const auto entries = data_entries("bad-game-in-middle.pdn");
    ASSERT_EQ(entries.size(), 3U);
    EXPECT_TRUE(entries[0].ok()) << entries[0].error;
    EXPECT_FALSE(entries[1].ok());
    EXPECT_EQ(entries[1].error_kind, PdnErrorKind::Move);
    EXPECT_EQ(entries[1].error_move, 3);
    EXPECT_EQ(entries[1].error_line, 18);
    EXPECT_NE(entries[1].error.find("game 2, move 3 (black): illegal move '23x14'"),
              std::string::npos)
        << entries[1].error;
    EXPECT_TRUE(entries[2].ok()) << entries[2].error;
    EXPECT_EQ(entries[2].game.moves.size(), 24U);
}

TEST(PdnRecovery, ReadingResumesAtATagLineOrABlankLineBeforeMoveOne) {
    const auto entries = data_entries("recovery.pdn");
    ASSERT_EQ(entries.size(), 5U);
    EXPECT_TRUE(entries[0].ok()) << entries[0].error;
    EXPECT_EQ(entries[1].error_kind, PdnErrorKind::Syntax);
    EXPECT_NE(entries[1].error.find("game 2, line 10: unterminated comment '{'"), std::string::npos)
        << entries[1].error;
    EXPECT_TRUE(entries[2].ok()) << entries[2].error;
    EXPECT_EQ(*entries[2].game.tag("Event"), "Three");
    // Two games of move text only, with a blank line and "1." between them.
    EXPECT_TRUE(entries[3].ok()) << entries[3].error;
    EXPECT_EQ(entries[3].game.moves.size(), 8U);
    EXPECT_TRUE(entries[4].ok()) << entries[4].error;
    EXPECT_EQ(entries[4].game.moves.size(), 4U);

    // After a stray bracket the rest of that game is skipped up to a blank line and "1.".
    const auto skipped = read_pdn_entries("1. 32-28 } 19-23 2. 28x19\n\n1. 33-28 *", detecting());
    ASSERT_EQ(skipped.size(), 2U);
    EXPECT_EQ(skipped[0].error_kind, PdnErrorKind::Syntax);
    EXPECT_TRUE(skipped[1].ok()) << skipped[1].error;
    EXPECT_EQ(skipped[1].game.moves.size(), 1U);
}

TEST(PdnResultTag, TheResultTagAndTheTerminatorNeverDisagree) {
    const auto entries = data_entries("result-mismatch.pdn");
    ASSERT_EQ(entries.size(), 1U);
    ASSERT_TRUE(entries[0].ok()) << entries[0].error;
    const PdnGame& g = entries[0].game;
    EXPECT_EQ(g.result, "1-1");
    EXPECT_TRUE(has_note(entries[0], "the move text ends in * but the Result tag says 1-1"));
    for (const PdnWriteStyle style : {PdnWriteStyle::Canonical, PdnWriteStyle::AsRead}) {
        const std::string text = write_pdn_game(g, {style});
        EXPECT_NE(text.find("[Result \"1-1\"]"), std::string::npos) << text;
        EXPECT_EQ(text.substr(text.size() - 5), " 1-1\n") << text;
    }
    // A programmatic game whose tag says something else is written with one result.
    PdnGame p = make_pdn_game(VariantId::International);
    p.set_tag("Result", "2-0");
    p.result               = "*";
    const std::string text = write_pdn_game(p);
    EXPECT_NE(text.find("[Result \"2-0\"]"), std::string::npos) << text;
    EXPECT_EQ(text.substr(text.size() - 4), "2-0\n") << text;

    EXPECT_EQ(resolve_pdn_result(nullptr, "1-0"), "1-0");
    const std::string star = "*";
    EXPECT_EQ(resolve_pdn_result(&star, "0-1"), "0-1");  // known beats unknown
    const std::string draw = "1/2-1/2";
    EXPECT_EQ(resolve_pdn_result(&draw, "*"), "1/2-1/2");
    EXPECT_EQ(resolve_pdn_result(&draw, "1-0"), "1/2-1/2");  // both known: the tag
    const std::string two = "2-0";
    EXPECT_EQ(resolve_pdn_result(&two, "1-0"), "1-0");  // the same result in another style
}

TEST(PdnRoundTrip, AsReadKeepsVariationsMarksEmptyTagsAndTheGameTypeForm) {
    const std::string original = read_pdn_data("round-trip.pdn");
    const auto games           = read_pdn(original, detecting());
    ASSERT_TRUE(games.ok()) << games.error();
    ASSERT_EQ(games->size(), 1U);
    const PdnGame& g = games->front();
    ASSERT_EQ(g.variations.size(), 2U);
    EXPECT_EQ(g.variations[0].ply, 2U);
    EXPECT_EQ(g.variations[0].text, "1... 18-23 2. 28x19 14x23 {also fine} (2... 13x24)");
    EXPECT_EQ(g.variations[1].ply, 7U);
    ASSERT_GE(g.marks.size(), 6U);
    EXPECT_EQ(g.marks[0], "!");
    EXPECT_EQ(g.marks[3], "$1");
    EXPECT_EQ(g.marks[5], "?!");

    const std::string as_read = write_pdn_game(g, {PdnWriteStyle::AsRead});
    EXPECT_EQ(as_read.rfind("[Event \"Annotated\"]\n[Site \"\"]\n[White \"A\"]\n[Black \"B\"]\n"
                            "[Result \"1-1\"]\n[GameType \"20\"]\n[Annotator \"\"]\n\n",
                            0),
              0U)
        << as_read;
    EXPECT_NE(as_read.find("{Opening notes} 1. 33-28! 17-21 (1... 18-23 2. 28x19 14x23"),
              std::string::npos)
        << as_read;
    EXPECT_NE(as_read.find("18x27 $1 3. 31x22 20-24?! 4. 37-31 (4. 34-29 24x33 5. 39x28)"),
              std::string::npos)
        << as_read;
    const auto back = read_pdn(as_read, detecting());
    ASSERT_TRUE(back.ok()) << back.error();
    EXPECT_EQ(back->front().tags, g.tags);
    EXPECT_EQ(back->front().variations, g.variations);
    EXPECT_EQ(back->front().marks, g.marks);
    EXPECT_EQ(write_pdn_game(back->front(), {PdnWriteStyle::AsRead}), as_read);

    // Canonical: seven tags first, the long GameType, no empty tags; variations stay.
    const std::string canonical = write_pdn_game(g);
    EXPECT_NE(canonical.find("[Site \"?\"]"), std::string::npos) << canonical;
    EXPECT_NE(canonical.find("[GameType \"20,W,10,10,N2,0\"]"), std::string::npos) << canonical;
    EXPECT_EQ(canonical.find("Annotator"), std::string::npos) << canonical;
    EXPECT_NE(canonical.find("(4. 34-29 24x33 5. 39x28)"), std::string::npos) << canonical;
}

TEST(PdnRoundTrip, AsReadKeepsTheStartOfASetupBeforeTheFirstMove) {
    const auto games =
        read_pdn("/FEN \"W:W31-35:B16-20\"/ 1. 31-26 16-21 *", VariantId::International);
    ASSERT_TRUE(games.ok()) << games.error();
    const std::string text = write_pdn_game(games->front(), {PdnWriteStyle::AsRead});
    EXPECT_EQ(text, "/FEN \"W:W31,32,33,34,35:B16,17,18,19,20\"/ 1. 31-26 16-21 *\n");
    const auto back = read_pdn(text, VariantId::International);
    ASSERT_TRUE(back.ok()) << back.error();
    EXPECT_EQ(back->front().start, games->front().start);
}

}  // namespace
}  // namespace papan::core
