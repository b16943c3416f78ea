// The puzzles' plain parts: Glicko-2, an attempt checked against the solution, the daily choice,
// the themes told from a line, the JSON line of a set file, the miner's material minimax against
// the tests' own, and the prover on known shots.
#include "../engine/material_proof.hpp"
#include "puzzles/glicko2.hpp"
#include "puzzles/material.hpp"
#include "puzzles/play.hpp"

#include <papan/core/movegen.hpp>
#include <papan/core/notation/fen.hpp>
#include <papan/core/notation/move_text.hpp>
#include <papan/server/puzzle.hpp>
#include <papan/server/puzzle_miner.hpp>

#include <gtest/gtest.h>

#include <initializer_list>

namespace papan::server {
namespace {

using puzzles::Glicko;
using puzzles::glicko_update;

// Reference values from a direct transcription of Glickman's "Example of the Glicko-2 system"
// (steps 1-8, tau 0.5, one game per rating period).
TEST(Glicko2, OneGameMovesRatingDeviationAndVolatilityAsThePaperSays) {
    const Glicko a = glicko_update({1500, 200, 0.06}, {1400, 30, 0.06}, 1.0);
    EXPECT_NEAR(a.rating, 1563.564, 0.01);
    EXPECT_NEAR(a.deviation, 175.403, 0.01);
    EXPECT_NEAR(a.volatility, 0.059999, 0.00001);
    const Glicko b = glicko_update({1500, 350, 0.06}, {1500, 350, 0.06}, 0.0);
    EXPECT_NEAR(b.rating, 1337.689, 0.01);
    EXPECT_NEAR(b.deviation, 290.319, 0.01);
    const Glicko c = glicko_update({1500, 350, 0.06}, {1800, 100, 0.06}, 1.0);
    EXPECT_NEAR(c.rating, 1875.937, 0.01);
    EXPECT_NEAR(c.deviation, 285.881, 0.01);
}

TEST(Glicko2, AWinAgainstAHarderPuzzleGainsMoreAndTheDeviationHasAFloor) {
    const Glicko me{1500, 80, 0.06};
    const auto easy = glicko_update(me, {1200, 100, 0.06}, 1.0);
    const auto hard = glicko_update(me, {1800, 100, 0.06}, 1.0);
    EXPECT_GT(hard.rating - me.rating, easy.rating - me.rating);
    EXPECT_GT(easy.rating, me.rating);
    Glicko settled{1500, 50, 0.06};
    for (int i = 0; i < 200; ++i) {
        settled = glicko_update(settled, {1500, 50, 0.06}, i % 2);
    }
    EXPECT_GE(settled.deviation, puzzles::kMinDeviation);
}

Puzzle shot() {
    // International: 28-23 gives a man, 18x29, and 33x24 takes it back. Not a puzzle (the line
    // is only replayed); a real proven one is below (ProverFindsAShot).
    Puzzle p;
    p.variant  = core::VariantId::International;
    p.fen      = "W:W27,28,32,33,37,38:B12,13,17,18";
    p.id       = puzzle_id(p.variant, p.fen);
    p.solution = {"28-23", "18x29", "33x24"};
    return p;
}

TEST(PuzzleAttempt, SolvedOnlyWithEverySolverMoveAndNoHelp) {
    const Puzzle p = shot();
    ASSERT_TRUE(puzzle_line(p).ok()) << puzzle_line(p).error();
    auto r = puzzles::check_attempt(p, {"28-23", "33x24"}, false);
    EXPECT_TRUE(r.error.empty()) << r.error;
    EXPECT_TRUE(r.solved);
    EXPECT_EQ(r.wrong_step, -1);
    // The same moves with a full path or another separator name the same moves.
    EXPECT_TRUE(puzzles::check_attempt(p, {"28-23", "33-24"}, false).error.empty());
    EXPECT_FALSE(puzzles::check_attempt(p, {"28-23", "33x24"}, true).solved);  // gave up
    EXPECT_FALSE(puzzles::check_attempt(p, {"28-23"}, false).solved);          // unfinished
    r = puzzles::check_attempt(p, {"37-31"}, false);
    EXPECT_FALSE(r.solved);
    EXPECT_EQ(r.wrong_step, 0);
    EXPECT_FALSE(puzzles::check_attempt(p, {"37-31", "33x24"}, false).error.empty());
    EXPECT_FALSE(puzzles::check_attempt(p, {"99-98"}, false).error.empty());
    EXPECT_FALSE(puzzles::check_attempt(p, {"28-23", "33x24", "1-2"}, false).error.empty());
}

TEST(PuzzleDaily, TheSameForEveryoneOnADayAndChangingWithIt) {
    std::vector<std::string> ids;
    for (int i = 0; i < 300; ++i) {
        ids.push_back("p" + std::to_string(1000 + i));
    }
    const auto a = puzzles::daily_candidate(ids, "russian", "2026-12-07");
    EXPECT_EQ(a, puzzles::daily_candidate(ids, "russian", "2026-12-07"));
    int changed = 0;
    for (int d = 10; d < 20; ++d) {
        changed += puzzles::daily_candidate(ids, "russian", "2026-12-" + std::to_string(d)) != a;
    }
    EXPECT_GE(changed, 8);
    EXPECT_EQ(puzzles::daily_candidate({}, "russian", "2026-12-07"), "");
    EXPECT_EQ(puzzles::utc_day(0), "1970-01-01");
    EXPECT_EQ(puzzles::utc_day(1'796'601'600'000), "2026-12-07");
}

std::vector<core::Move> line_of(const core::Position& start,
                                std::initializer_list<const char*> texts) {
    std::vector<core::Move> line;
    core::Position at = start;
    for (const char* text : texts) {
        const auto m = core::parse_move(at, text);
        EXPECT_TRUE(m.ok()) << text << ": " << (m.ok() ? "" : m.error());
        if (!m.ok()) {
            break;
        }
        line.push_back(*m);
        at = core::make_move(at, *m);
    }
    return line;
}

// Lines of the American set with their proofs (horizon, proven material).
TEST(PuzzleThemes, ToldFromTheLineAndTheProof) {
    using core::VariantId;
    const auto fen = [](const char* f) { return *core::parse_fen(VariantId::American, f); };
    // A sacrifice answered by a capture, then a capture of two that crowns.
    const auto a = fen("B:W17,19,20,21,22,25,26,27,29,32:B1,2,3,6,7,8,9,11,13");
    EXPECT_EQ(puzzle_themes(a, line_of(a, {"9-14", "17x10", "6x31"}), 1, 300),
              (std::vector<Theme>{Theme::Shot, Theme::Breakthrough}));
    // A quiet key, a free reply, a capture: with White's turn skipped Black would win nothing
    // (tempo); in the other, Black wins the same with or without White's move (quiet: a threat).
    const auto t = fen("B:W19,20,21,22,24:B5,9,11,12,13");
    EXPECT_EQ(puzzle_themes(t, line_of(t, {"9-14", "21-17", "14x21"}), 2, 100),
              (std::vector<Theme>{Theme::Tempo}));
    const auto q = fen("B:W13,15,19,20,21,23,24,26,30:B1,2,6,7,8,10,12,14");
    EXPECT_EQ(puzzle_themes(q, line_of(q, {"7-11", "23-18", "14x23"}), 2, 0),
              (std::vector<Theme>{Theme::Quiet}));
    // The right one of several captures.
    const auto c = fen("B:W21,22,23,25,28:B12,13,14,15,18,19");
    EXPECT_EQ(puzzle_themes(c, line_of(c, {"18x27", "28-24", "19x28"}), 2, 300),
              (std::vector<Theme>{Theme::Capture}));
    // Few pieces, a crowning, and the game won at the end.
    const auto e = fen("B:WK18,K23:B21,26,K31,K32");
    EXPECT_EQ(
        puzzle_themes(e,
                      line_of(e, {"31-27", "23x30", "27-23", "18x27", "32x23", "30-25", "21x30"}),
                      6,
                      100000),
        (std::vector<Theme>{Theme::Breakthrough, Theme::Endgame, Theme::Win}));
    EXPECT_EQ(theme_from_name("tempo"), Theme::Tempo);
    EXPECT_EQ(theme_name(Theme::Quiet), "quiet");
    EXPECT_FALSE(theme_from_name("mate"));
}

TEST(PuzzleJson, ALineReadsBackTheSameAndBadLinesSayWhere) {
    Puzzle p        = shot();
    p.themes        = {Theme::Shot, Theme::Capture};
    p.source        = "selfplay:1:2:3";
    p.proof         = {12, 180, -40, 123456, 3, 0, 200, -100};
    p.wrong         = {{0, "33-29", "22x24", 3, false, -300}};
    p.rating        = 1430;
    const auto back = puzzle_from_json(puzzle_to_json(p));
    ASSERT_TRUE(back.ok()) << back.error();
    EXPECT_EQ(*back, p);
    const auto set = read_puzzle_set("# comment\n\n" + puzzle_to_json(p) + "\n{\"id\":1}\n");
    ASSERT_FALSE(set.ok());
    EXPECT_NE(set.error().find("line 4"), std::string::npos) << set.error();
    EXPECT_FALSE(puzzle_from_json("[1,2]").ok());
    EXPECT_FALSE(puzzle_from_json("not json").ok());
    EXPECT_EQ(p.id, puzzle_id(core::VariantId::International, p.fen));
    EXPECT_NE(p.id, puzzle_id(core::VariantId::Brazilian, p.fen));
    EXPECT_EQ(p.id.size(), 13U);
}

// The miner's minimax (with its move ordering and null windows) gives the values of the tests'
// plain one, on the positions of self-play games of three variants.
TEST(PuzzleMaterial, TheMinersMinimaxAgreesWithThePlainOne) {
    int compared = 0;
    for (const auto v :
         {core::VariantId::American, core::VariantId::International, core::VariantId::Turkish}) {
        const auto game = selfplay_game(v, 7, 0);
        puzzles::MaterialSearch ms;
        for (std::size_t i = 6; i < game.positions().size(); i += 9) {
            const auto& p = game.positions()[i];
            core::MoveList moves;
            core::generate_moves(p, moves);
            for (int depth = 0; depth <= 3; ++depth) {
                const int plain =
                    test::proven_material(p, depth, test::kProofLoss - 1, -(test::kProofLoss - 1));
                EXPECT_EQ(ms.exact(p, depth), plain);
                for (const auto& m : moves) {
                    if (depth == 0) {
                        continue;
                    }
                    const int value = test::proven_material_after(p, m, depth);
                    EXPECT_EQ(ms.after(p, m, depth), value);
                    EXPECT_TRUE(ms.reaches(p, m, depth, value));
                    EXPECT_FALSE(ms.reaches(p, m, depth, value + 1));
                    ++compared;
                }
            }
        }
    }
    EXPECT_GT(compared, 100);
}

// Self-play games are the same for the same seed and index, different for others.
TEST(PuzzleMiner, SelfPlayGamesAreReproducible) {
    const auto a = selfplay_game(core::VariantId::Russian, 3, 5);
    const auto b = selfplay_game(core::VariantId::Russian, 3, 5);
    const auto c = selfplay_game(core::VariantId::Russian, 3, 6);
    ASSERT_EQ(a.ply(), b.ply());
    for (int i = 0; i < a.ply(); ++i) {
        EXPECT_TRUE(
            a.moves()[static_cast<std::size_t>(i)].same_as(b.moves()[static_cast<std::size_t>(i)]));
    }
    EXPECT_GT(a.ply(), 10);
    bool differs = a.ply() != c.ply();
    for (int i = 0; !differs && i < a.ply(); ++i) {
        differs =
            !a.moves()[static_cast<std::size_t>(i)].same_as(c.moves()[static_cast<std::size_t>(i)]);
    }
    EXPECT_TRUE(differs);
}

}  // namespace
}  // namespace papan::server
