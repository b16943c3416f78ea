// Game: construction and options, playing and taking back moves, wins on the board and the
// non-move endings. The draw rules are in game_draw_test.cpp.
#include "game_test_util.hpp"

#include <papan/core/game.hpp>
#include <papan/core/notation/fen.hpp>
#include <papan/core/notation/move_text.hpp>

#include <gtest/gtest.h>

#include <string>

namespace papan::core {
namespace {

using game_test::play;
using game_test::setup;

TEST(Game, StartsFromTheVariantStartPosition) {
    const Game g(VariantId::International);
    EXPECT_EQ(g.variant(), VariantId::International);
    EXPECT_EQ(g.position(), start_position(VariantId::International));
    EXPECT_EQ(g.start_position(), g.position());
    EXPECT_EQ(g.ply(), 0);
    EXPECT_EQ(g.side_to_move(), Color::White);
    EXPECT_EQ(g.legal_moves().size(), 9U);
    EXPECT_FALSE(g.is_over());
    EXPECT_EQ(g.result(), GameResult{});
    EXPECT_EQ(g.result_text(), "game in progress");
    EXPECT_EQ(g.repetition_count(), 1);
    EXPECT_EQ(g.positions().size(), 1U);
    EXPECT_TRUE(g.moves().empty());

    const Game a(VariantId::American);
    EXPECT_EQ(a.side_to_move(), Color::Black);  // Black moves first in checkers
    EXPECT_EQ(a.legal_moves().size(), 7U);
}

TEST(Game, CreateValidatesOptions) {
    EXPECT_TRUE(Game::create(VariantId::American, {.forced_capture = false}).ok());
    EXPECT_TRUE(Game::create(VariantId::Russian, {.forced_capture = false}).ok());
    EXPECT_TRUE(Game::create(VariantId::Thai, {.forced_capture = false}).ok());

    const auto intl = Game::create(VariantId::International, {.forced_capture = false});
    ASSERT_FALSE(intl.ok());
    EXPECT_NE(intl.error().find("International draughts"), std::string::npos) << intl.error();
    EXPECT_NE(intl.error().find("no-forced-capture"), std::string::npos) << intl.error();
    EXPECT_FALSE(Game::create(VariantId::Turkish, {.forced_capture = false}).ok());

    EXPECT_TRUE(Game::create(VariantId::American, {.draw_rules = DrawRuleSet::AmericanClub}).ok());
    EXPECT_TRUE(
        Game::create(VariantId::Russian, {.draw_rules = DrawRuleSet::RussianOfficial}).ok());
    const auto club = Game::create(VariantId::Pool, {.draw_rules = DrawRuleSet::AmericanClub});
    ASSERT_FALSE(club.ok());
    EXPECT_NE(club.error().find("American"), std::string::npos) << club.error();
    EXPECT_FALSE(
        Game::create(VariantId::American, {.draw_rules = DrawRuleSet::RussianOfficial}).ok());
    EXPECT_FALSE(
        Game::create(VariantId::Brazilian, {.draw_rules = DrawRuleSet::RussianOfficial}).ok());
    EXPECT_TRUE(validate_game_options(VariantId::Czech, {}) == std::nullopt);
    EXPECT_TRUE(validate_game_options(VariantId::Turkish, {.forced_capture = false}).has_value());
}

TEST(Game, ConstructorFallsBackToDefaultsForInvalidOptions) {
    const Game g(VariantId::International,
                 {.forced_capture = false, .draw_rules = DrawRuleSet::AmericanClub});
    EXPECT_EQ(g.options(), GameOptions{});
}

TEST(Game, CreateRejectsAnInconsistentSetup) {
    Position p = start_position(VariantId::American);
    p.pieces[1] |= p.pieces[0];  // overlapping colours
    EXPECT_FALSE(Game::create(p).ok());
}

TEST(Game, PlaysMovesAndKeepsHistory) {
    Game g(VariantId::American);
    play(g, "11-15");
    play(g, "24-19");
    EXPECT_EQ(g.ply(), 2);
    EXPECT_EQ(g.moves().size(), 2U);
    EXPECT_EQ(g.positions().size(), 3U);
    EXPECT_EQ(g.positions()[0], start_position(VariantId::American));
    EXPECT_EQ(g.positions()[1], make_move(g.positions()[0], g.moves()[0]));
    EXPECT_EQ(g.position(), make_move(g.positions()[1], g.moves()[1]));
    EXPECT_EQ(g.side_to_move(), Color::Black);
    // Capture is forced: 15x24 is the only move.
    ASSERT_EQ(g.legal_moves().size(), 1U);
    EXPECT_TRUE(g.legal_moves()[0].is_capture());
    const auto r = g.play(g.legal_moves()[0]);
    ASSERT_TRUE(r.ok()) << r.error();
    EXPECT_EQ(*r, GameResult{});
}

TEST(Game, RejectsIllegalMovesWithoutChangingAnything) {
    Game g(VariantId::American);
    play(g, "11-15");
    play(g, "24-19");
    const Game before = g;

    const auto quiet = g.play("9-13");  // a capture is available: quiet moves are illegal
    EXPECT_FALSE(quiet.ok());
    const auto garbage = g.play("hello");
    EXPECT_FALSE(garbage.ok());
    Move m{};
    m.from         = 3;
    m.to           = 60;
    const auto bad = g.play(m);
    ASSERT_FALSE(bad.ok());
    EXPECT_NE(bad.error().find("not legal"), std::string::npos) << bad.error();
    Move wrong = g.legal_moves()[0];
    wrong.captured ^= bit(wrong.to);  // right squares, wrong captured set
    EXPECT_FALSE(g.play(wrong).ok());

    EXPECT_EQ(g.ply(), before.ply());
    EXPECT_EQ(g.position(), before.position());
    EXPECT_EQ(g.result(), before.result());
    EXPECT_EQ(g.legal_moves().size(), before.legal_moves().size());
    EXPECT_EQ(g.move_limits().size(), before.move_limits().size());
    EXPECT_EQ(g.move_limits()[0].count, before.move_limits()[0].count);
}

TEST(Game, NoForcedCaptureHouseRuleAllowsQuietMoves) {
    Game forced(VariantId::American);
    Game relaxed(VariantId::American, {.forced_capture = false});
    for (Game* g : {&forced, &relaxed}) {
        play(*g, "11-15");
        play(*g, "24-19");
    }
    EXPECT_EQ(forced.legal_moves().size(), 1U);
    EXPECT_GT(relaxed.legal_moves().size(), 1U);
    EXPECT_FALSE(forced.play("9-13").ok());
    play(relaxed, "9-13");
    EXPECT_EQ(relaxed.ply(), 3);
    EXPECT_FALSE(relaxed.options().forced_capture);
    EXPECT_FALSE(relaxed.movegen_options().forced_capture);
}

TEST(Game, UndoRestoresThePreviousState) {
    Game g(VariantId::American);
    EXPECT_FALSE(g.undo().ok());  // nothing to take back
    play(g, "11-15");
    const Game after_one = g;
    play(g, "24-19");
    const auto r = g.undo();
    ASSERT_TRUE(r.ok()) << r.error();
    EXPECT_EQ(g.ply(), 1);
    EXPECT_EQ(g.position(), after_one.position());
    EXPECT_EQ(g.legal_moves().size(), after_one.legal_moves().size());
    EXPECT_EQ(g.move_limits()[1].count, 1);  // the total-moves counter
    ASSERT_TRUE(g.undo().ok());
    EXPECT_EQ(g.position(), start_position(VariantId::American));
    EXPECT_EQ(g.move_limits()[1].count, 0);
}

TEST(Game, CopiesAreIndependent) {
    Game a(VariantId::International);
    play(a, "32-28");
    Game b = a;
    play(b, "19-23");
    EXPECT_EQ(a.ply(), 1);
    EXPECT_EQ(b.ply(), 2);
    EXPECT_NE(a.position(), b.position());
    EXPECT_EQ(a.legal_moves().size(), Game(a).legal_moves().size());
}

TEST(GameResult, WinWhenTheOpponentHasNoPiecesLeft) {
    Game g = setup(VariantId::American, "W:WK22:BK17");
    play(g, "22x13");
    EXPECT_TRUE(g.is_over());
    EXPECT_EQ(g.result().outcome, Outcome::WhiteWins);
    EXPECT_EQ(g.result().reason, Reason::NoPieces);
    EXPECT_EQ(winner(g.result().outcome), Color::White);
    EXPECT_EQ(g.result_text(), "White wins: Black has no pieces left");
    EXPECT_TRUE(g.legal_moves().empty());
    EXPECT_FALSE(g.play("13-9").ok());
}

TEST(GameResult, WinWhenTheOpponentIsBlocked) {
    // Black's man on 12 can neither step to 16 nor jump it (19 is taken).
    Game g = setup(VariantId::American, "W:W16,19,29:B12");
    EXPECT_FALSE(g.is_over());
    play(g, "29-25");
    EXPECT_EQ(g.result().outcome, Outcome::WhiteWins);
    EXPECT_EQ(g.result().reason, Reason::NoMoves);
    EXPECT_EQ(g.result_text(), "White wins: Black has no legal move (blocked)");

    // The same position set up with Black to move is over at once.
    const Game blocked = setup(VariantId::American, "B:W16,19:B12");
    EXPECT_EQ(blocked.result().outcome, Outcome::WhiteWins);
    EXPECT_EQ(blocked.result().reason, Reason::NoMoves);
    const Game empty = setup(VariantId::International, "W:W:B20");
    EXPECT_EQ(empty.result().outcome, Outcome::BlackWins);
    EXPECT_EQ(empty.result().reason, Reason::NoPieces);
}

TEST(GameResult, UndoAfterTheEndRestoresTheGame) {
    Game g = setup(VariantId::American, "W:WK22:BK17");
    play(g, "22x13");
    ASSERT_TRUE(g.is_over());
    ASSERT_TRUE(g.undo().ok());
    EXPECT_FALSE(g.is_over());
    EXPECT_EQ(g.legal_moves().size(), 1U);
    play(g, "22x13");
    EXPECT_EQ(g.result().reason, Reason::NoPieces);
}

TEST(GameResult, Resignation) {
    Game g(VariantId::International);
    play(g, "32-28");
    const auto r = g.resign(Color::Black);
    ASSERT_TRUE(r.ok()) << r.error();
    EXPECT_EQ(r->outcome, Outcome::WhiteWins);
    EXPECT_EQ(r->reason, Reason::Resignation);
    EXPECT_EQ(g.result_text(), "White wins: Black resigned");
    EXPECT_TRUE(g.legal_moves().empty());
    EXPECT_FALSE(g.play("19-23").ok());
    EXPECT_FALSE(g.resign(Color::White).ok());
    EXPECT_FALSE(g.agree_draw().ok());
    EXPECT_FALSE(g.flag(Color::White).ok());
    EXPECT_FALSE(g.claim_draw().ok());
    EXPECT_EQ(g.result().reason, Reason::Resignation);  // failed calls changed nothing

    // Undo takes back the last ply and the resignation with it.
    ASSERT_TRUE(g.undo().ok());
    EXPECT_FALSE(g.is_over());
    EXPECT_EQ(g.ply(), 0);
    EXPECT_EQ(g.legal_moves().size(), 9U);
}

TEST(GameResult, AgreementAndTimeout) {
    Game g(VariantId::Brazilian);
    const auto d = g.agree_draw();
    ASSERT_TRUE(d.ok()) << d.error();
    EXPECT_EQ(d->outcome, Outcome::Draw);
    EXPECT_EQ(d->reason, Reason::Agreement);
    EXPECT_EQ(g.result_text(), "Draw: draw by agreement");

    Game t(VariantId::Turkish);
    const auto f = t.flag(Color::White);
    ASSERT_TRUE(f.ok()) << f.error();
    EXPECT_EQ(f->outcome, Outcome::BlackWins);
    EXPECT_EQ(f->reason, Reason::Timeout);
    EXPECT_EQ(t.result_text(), "Black wins: White ran out of time");

    // In standard American rules a flag loses even against a lone piece.
    Game a = setup(VariantId::American, "W:WK22,K30:B5");
    EXPECT_EQ(a.flag(Color::White)->outcome, Outcome::BlackWins);
}

TEST(GameResult, TextsForEveryReason) {
    EXPECT_EQ(reason_text(Reason::Repetition), "threefold repetition");
    EXPECT_EQ(reason_text(Reason::NoMoves), "no legal move (blocked)");
    EXPECT_EQ(outcome_text(Outcome::Draw), "Draw");
    EXPECT_EQ(draw_rule_key(DrawRule::TotalMoves), "move_limit");
    for (int r = 0; r <= static_cast<int>(Reason::TimeoutOpponentCannotWin); ++r) {
        EXPECT_FALSE(reason_text(static_cast<Reason>(r)).empty()) << r;
    }
    for (int r = 0; r <= static_cast<int>(DrawRule::InsufficientMaterial); ++r) {
        EXPECT_FALSE(draw_rule_key(static_cast<DrawRule>(r)).empty()) << r;
    }
    EXPECT_FALSE(winner(Outcome::Draw).has_value());
    EXPECT_EQ(winner(Outcome::BlackWins), Color::Black);
}

}  // namespace
}  // namespace papan::core
