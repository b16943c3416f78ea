// The draw rules of docs/rules.md "End of game": each automatic rule fires on exactly the ply it
// should and not one earlier, the move-left counters count down and restart as each rule says,
// and the American club and Russian official rule sets.
//
// Long quiet stretches are played by a walker that never repeats a position and never offers a
// capture (a depth-first search over the legal moves), so that only the rule under test can end
// the game.
#include "game_test_util.hpp"

#include <papan/core/game.hpp>
#include <papan/core/notation/fen.hpp>
#include <papan/core/notation/move_text.hpp>
#include <papan/core/notation/squares.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <memory>
#include <string>
#include <unordered_set>
#include <vector>

namespace papan::core {
namespace {

using game_test::play;
using game_test::setup;

std::optional<DrawCounter> counter(const Game& g, DrawRule r) {
    for (const DrawCounter& c : g.move_limits()) {
        if (c.rule == r) {
            return c;
        }
    }
    return std::nullopt;
}

// The counter's count, or -1 when the rule does not apply.
int count_of(const Game& g, DrawRule r) {
    const auto c = counter(g, r);
    return c ? c->count : -1;
}

int plies_left(const Game& g, DrawRule r) {
    const auto c = counter(g, r);
    return c ? c->plies_left : -1;
}

// Scores a candidate move: < 0 excludes it, higher is tried first.
using MoveScore = std::function<int(const Game&, const Move&)>;

bool is_king_move(const Game& g, const Move& m) {
    return has(g.position().kings, m.from);
}

int kings_only(const Game& g, const Move& m) {
    return is_king_move(g, m) ? 1 : -1;
}

int men_only(const Game& g, const Move& m) {
    return is_king_move(g, m) || m.promotes ? -1 : 1;
}

// Kings move; once `rule`'s counter reaches `from`, a man move (never a crowning) comes first.
MoveScore men_when(DrawRule rule, int from) {
    return [rule, from](const Game& g, const Move& m) {
        if (is_king_move(g, m)) {
            return 1;
        }
        return !m.promotes && count_of(g, rule) >= from ? 2 : -1;
    };
}

using Seen = std::unordered_set<std::uint64_t>;

// Quiet moves `score` accepts, best first, that reach a new position in which the opponent can
// move and cannot capture.
std::vector<Move> candidates(const Game& g, const Seen& seen, const MoveScore& score) {
    std::vector<std::pair<int, Move>> scored;
    const auto replies = std::make_unique<MoveList>();
    for (const Move& m : g.legal_moves()) {
        const int s = m.is_capture() ? -1 : score(g, m);
        if (s < 0) {
            continue;
        }
        const Position after = make_move(g.position(), m);
        if (seen.contains(after.key()) || has_capture(after)) {
            continue;
        }
        replies->clear();
        generate_moves(after, *replies, g.movegen_options());
        if (replies->empty()) {
            continue;
        }
        scored.emplace_back(s, m);
    }
    std::stable_sort(scored.begin(), scored.end(), [](const auto& a, const auto& b) {
        return a.first > b.first;
    });
    std::vector<Move> out;
    for (const auto& [s, m] : scored) {
        out.push_back(m);
    }
    return out;
}

// Depth-first: n more plies, after which a move `then` accepts must be available. A game that
// ends on the way is a failure (the state is left there for the message).
bool walk_rec(
    Game& g, int n, Seen& seen, const MoveScore& score, const MoveScore& then, bool& ended) {
    if (n == 0) {
        return !candidates(g, seen, then).empty();
    }
    for (const Move& m : candidates(g, seen, score)) {
        if (!g.play(m).ok()) {
            return false;
        }
        if (g.is_over()) {
            ended = true;
            return false;
        }
        const std::uint64_t key = g.position().key();
        seen.insert(key);
        if (walk_rec(g, n - 1, seen, score, then, ended)) {
            return true;
        }
        if (ended) {
            return false;
        }
        seen.erase(key);
        (void)g.undo();
    }
    return false;
}

// Plays n plies without repeating a position or offering a capture; the game must go on, and
// a move `then` (default: `score`) accepts must be left to play.
::testing::AssertionResult walk(Game& g,
                                int n,
                                const MoveScore& score               = kings_only,
                                const std::optional<MoveScore>& then = std::nullopt) {
    Seen seen;
    for (const Position& p : g.positions()) {
        seen.insert(p.key());
    }
    const int target = g.ply() + n;
    bool ended       = false;
    if (walk_rec(g, n, seen, score, then ? *then : score, ended)) {
        return ::testing::AssertionSuccess();
    }
    return ::testing::AssertionFailure()
           << "walk to ply " << target << " stopped at ply " << g.ply() << ": " << g.result_text()
           << (ended ? " (the game ended)" : " (no way on)") << " at " << to_fen(g.position());
}

// One ply of a move `score` accepts, after which the opponent has a king move to play.
::testing::AssertionResult step(Game& g, const MoveScore& score) {
    return walk(g, 1, score, kings_only);
}

// Plays one more such move and returns the result (the game may end).
GameResult finish(Game& g, const MoveScore& score = kings_only) {
    Seen seen;
    for (const Position& p : g.positions()) {
        seen.insert(p.key());
    }
    const auto moves = candidates(g, seen, score);
    EXPECT_FALSE(moves.empty()) << to_fen(g.position());
    if (moves.empty()) {
        return {};
    }
    const auto r = g.play(moves.front());
    EXPECT_TRUE(r.ok()) << r.error();
    return g.result();
}

// The side to move plays a quiet move that lets the opponent take exactly one piece, which it
// does; the game goes on.
::testing::AssertionResult blunder_and_capture(Game& g) {
    const std::vector<Move> moves(g.legal_moves().begin(), g.legal_moves().end());
    const auto replies = std::make_unique<MoveList>();
    for (const Move& m : moves) {
        if (m.is_capture()) {
            continue;
        }
        const Position after = make_move(g.position(), m);
        replies->clear();
        generate_moves(after, *replies, g.movegen_options());
        if (replies->empty() || !std::all_of(replies->begin(), replies->end(), [](const Move& r) {
                return r.capture_count() == 1;
            })) {
            continue;
        }
        const Move take = (*replies)[0];
        if (make_move(after, take).of(opposite(after.side)) == 0) {
            continue;
        }
        if (!g.play(m).ok() || !g.play(take).ok()) {
            return ::testing::AssertionFailure() << "could not play the blunder";
        }
        if (g.is_over()) {
            return ::testing::AssertionFailure() << g.result_text();
        }
        return ::testing::AssertionSuccess();
    }
    return ::testing::AssertionFailure() << "no blunder found";
}

void expect_draw(const Game& g, Reason reason, DrawRule rule) {
    EXPECT_EQ(g.result().outcome, Outcome::Draw) << g.result_text();
    EXPECT_EQ(g.result().reason, reason) << g.result_text();
    EXPECT_EQ(g.result().rule, rule) << g.result_text();
    EXPECT_TRUE(g.legal_moves().empty());
}

// --- Threefold repetition -----------------------------------------------------------------------

TEST(DrawRepetition, ThirdOccurrenceDrawsNotTheSecond) {
    Game g = setup(VariantId::American, "B:WK29,K31:BK3,K4");
    for (const char* m : {"4-8", "29-25", "8-4", "25-29"}) {
        play(g, m);
    }
    EXPECT_EQ(g.repetition_count(), 2);
    EXPECT_FALSE(g.is_over());
    for (const char* m : {"4-8", "29-25", "8-4"}) {
        play(g, m);
        EXPECT_FALSE(g.is_over()) << m;
    }
    EXPECT_EQ(g.repetition_count(), 2);  // the position after 8-4 was seen once before
    play(g, "25-29");
    EXPECT_EQ(g.repetition_count(), 3);
    expect_draw(g, Reason::Repetition, DrawRule::Repetition);
    EXPECT_EQ(g.result_text(), "Draw: threefold repetition");
    EXPECT_FALSE(g.claimable_draw().has_value());

    ASSERT_TRUE(g.undo().ok());
    EXPECT_FALSE(g.is_over());
    EXPECT_EQ(g.repetition_count(), 2);
}

TEST(DrawRepetition, SameSquaresWithTheOtherSideToMoveDoNotCount) {
    // A flying king goes round 47-42-38-47 (three moves) while Black shuttles (two moves): the
    // start squares come back with Black to move, then with White to move.
    Game g = setup(VariantId::International, "W:WK47,K45:BK1,K5");
    for (const char* m : {"47-42", "5-10", "42-38", "10-5", "38-47"}) {
        play(g, m);
    }
    EXPECT_EQ(g.repetition_count(), 1);  // same squares, other side to move
    for (const char* m : {"5-10", "47-42", "10-5", "42-38", "5-10", "38-47", "10-5"}) {
        play(g, m);
        EXPECT_FALSE(g.is_over()) << m;
    }
    EXPECT_EQ(g.ply(), 12);
    EXPECT_EQ(g.repetition_count(), 2);  // plies 0 and 12; ply 5 had Black to move
}

TEST(DrawRepetition, CaptureOrManMoveStartsAFreshWindow) {
    // After a man move the earlier positions cannot come back; the count restarts.
    Game g = setup(VariantId::Russian, "W:WKc1,h2:BKf8,a7");
    for (const char* m : {"c1-d2", "f8-e7", "d2-c1", "e7-f8"}) {
        play(g, m);
    }
    EXPECT_EQ(g.repetition_count(), 2);
    play(g, "h2-g3");
    EXPECT_EQ(g.repetition_count(), 1);
}

// --- American ---------------------------------------------------------------------------------

TEST(DrawAmerican, FortyMovesEachWithoutCaptureOrManMove) {
    Game g = setup(VariantId::American, "B:WK29,K31:BK2,K4");
    EXPECT_EQ(plies_left(g, DrawRule::NoProgress), 80);
    ASSERT_TRUE(walk(g, 10));
    const auto c = counter(g, DrawRule::NoProgress);
    ASSERT_TRUE(c.has_value());
    EXPECT_EQ(c->count, 10);
    EXPECT_EQ(c->limit, 80);
    EXPECT_EQ(c->plies_left, 70);
    EXPECT_EQ(c->moves_left, 35);
    EXPECT_EQ(c->key, "no_progress");
    EXPECT_EQ(c->text, "40 moves each with no capture and no man moved");
    ASSERT_TRUE(walk(g, 69));
    EXPECT_EQ(g.ply(), 79);
    EXPECT_FALSE(g.is_over());
    EXPECT_EQ(plies_left(g, DrawRule::NoProgress), 1);
    EXPECT_EQ(counter(g, DrawRule::NoProgress)->moves_left, 1);
    finish(g);
    expect_draw(g, Reason::NoProgress, DrawRule::NoProgress);
    EXPECT_EQ(g.ply(), 80);
    EXPECT_EQ(plies_left(g, DrawRule::NoProgress), 0);
    EXPECT_EQ(g.result_text(), "Draw: 40 moves each with no capture and no man moved");

    // Undo restores the counter and the game; the same last move draws again.
    const Move last = g.moves().back();
    ASSERT_TRUE(g.undo().ok());
    EXPECT_FALSE(g.is_over());
    EXPECT_EQ(count_of(g, DrawRule::NoProgress), 79);
    EXPECT_FALSE(g.legal_moves().empty());
    ASSERT_TRUE(g.play(last).ok());
    expect_draw(g, Reason::NoProgress, DrawRule::NoProgress);
}

TEST(DrawAmerican, ManMoveResetsTheCounter) {
    Game g = setup(VariantId::American, "B:WK30,K31,21:BK2,K3,12");
    ASSERT_TRUE(walk(g, 30, kings_only, men_only));
    EXPECT_EQ(count_of(g, DrawRule::NoProgress), 30);
    ASSERT_TRUE(step(g, men_only));
    EXPECT_EQ(count_of(g, DrawRule::NoProgress), 0);
    EXPECT_EQ(count_of(g, DrawRule::TotalMoves), 31);
    ASSERT_TRUE(walk(g, 79));
    EXPECT_FALSE(g.is_over());
    finish(g);
    expect_draw(g, Reason::NoProgress, DrawRule::NoProgress);
    EXPECT_EQ(g.ply(), 31 + 80);
}

TEST(DrawAmerican, CaptureResetsTheCounter) {
    Game g       = setup(VariantId::American, "B:WK22,K31:BK1,K13");
    int expected = 0;
    for (const char* m : {"1-6", "31-27", "6-10", "27-24", "13-17"}) {
        play(g, m);
        EXPECT_EQ(count_of(g, DrawRule::NoProgress), ++expected) << m;
    }
    play(g, "22x13");
    EXPECT_EQ(count_of(g, DrawRule::NoProgress), 0);
    EXPECT_EQ(plies_left(g, DrawRule::NoProgress), 80);
}

class DrawTotalMoves : public ::testing::TestWithParam<std::pair<DrawRuleSet, int>> {};

TEST_P(DrawTotalMoves, HardLimitOnMovesInAll) {
    const auto [set, limit] = GetParam();
    Game g       = setup(VariantId::American, "B:WK30,K31,21,28:BK2,K3,5,12", {.draw_rules = set});
    const auto c = counter(g, DrawRule::TotalMoves);
    ASSERT_TRUE(c.has_value());
    EXPECT_EQ(c->limit, limit);
    EXPECT_EQ(c->key, "move_limit");
    const MoveScore score = men_when(DrawRule::NoProgress, 60);
    ASSERT_TRUE(walk(g, limit - 1, score));
    EXPECT_EQ(plies_left(g, DrawRule::TotalMoves), 1);
    EXPECT_FALSE(g.is_over());
    finish(g, score);
    expect_draw(g, Reason::MoveLimit, DrawRule::TotalMoves);
    EXPECT_EQ(g.ply(), limit);
    EXPECT_EQ(g.result_text(),
              "Draw: " + std::to_string(limit) + " moves in all (" + std::to_string(limit / 2) +
                  " moves each)");
}

INSTANTIATE_TEST_SUITE_P(AmericanAndClub,
                         DrawTotalMoves,
                         ::testing::Values(std::pair{DrawRuleSet::Standard, 400},
                                           std::pair{DrawRuleSet::AmericanClub, 300}));

// --- International (FMJD) ----------------------------------------------------------------------

TEST(DrawInternational, TwentyFiveMovesEachOnlyKings) {
    Game g       = setup(VariantId::International, "W:WK46,K48,36:BK3,K5,15");
    const auto c = counter(g, DrawRule::NoProgress);
    ASSERT_TRUE(c.has_value());
    EXPECT_EQ(c->limit, 50);
    EXPECT_EQ(c->text, "25 moves each with only kings moved and no capture");
    EXPECT_FALSE(counter(g, DrawRule::InternationalKingVsThree).has_value());
    EXPECT_FALSE(counter(g, DrawRule::TotalMoves).has_value());

    ASSERT_TRUE(walk(g, 20, kings_only, men_only));
    EXPECT_EQ(count_of(g, DrawRule::NoProgress), 20);
    ASSERT_TRUE(step(g, men_only));  // White's man on 36
    EXPECT_EQ(count_of(g, DrawRule::NoProgress), 0);
    ASSERT_TRUE(walk(g, 49));
    EXPECT_EQ(plies_left(g, DrawRule::NoProgress), 1);
    finish(g);
    expect_draw(g, Reason::NoProgress, DrawRule::NoProgress);
    EXPECT_EQ(g.ply(), 21 + 50);
    EXPECT_EQ(g.result_text(), "Draw: 25 moves each with only kings moved and no capture");
}

TEST(DrawInternational, CaptureResetsTheKingsOnlyCounter) {
    Game g = setup(VariantId::International, "W:WK46,K48:BK3,K5,K25");
    ASSERT_TRUE(walk(g, 7));
    EXPECT_EQ(count_of(g, DrawRule::NoProgress), 7);
    ASSERT_TRUE(blunder_and_capture(g));
    EXPECT_EQ(count_of(g, DrawRule::NoProgress), 0);
}

TEST(DrawInternational, KingAgainstThreeDrawsAfterSixteenMovesEach) {
    Game g = setup(VariantId::International, "W:WK47:BK3,K5,16");
    EXPECT_EQ(count_of(g, DrawRule::InternationalKingVsThree), 0);
    EXPECT_EQ(plies_left(g, DrawRule::InternationalKingVsThree), 32);
    EXPECT_FALSE(counter(g, DrawRule::InternationalKingVsTwo).has_value());
    ASSERT_TRUE(walk(g, 31));
    EXPECT_EQ(count_of(g, DrawRule::InternationalKingVsThree), 31);
    EXPECT_EQ(plies_left(g, DrawRule::InternationalKingVsThree), 1);
    finish(g);
    expect_draw(g, Reason::EndgameRule, DrawRule::InternationalKingVsThree);
    EXPECT_EQ(g.ply(), 32);
    EXPECT_EQ(g.result_text(),
              "Draw: one king against three pieces including a king: 16 moves each");
}

TEST(DrawInternational, KingAgainstThreeMenIsNotTheRule) {
    const Game g = setup(VariantId::International, "W:WK47:B6,15,16");
    EXPECT_FALSE(counter(g, DrawRule::InternationalKingVsThree).has_value());
    EXPECT_FALSE(counter(g, DrawRule::InternationalKingVsTwo).has_value());
}

TEST(DrawInternational, CounterRestartsWhenTheBalanceChanges) {
    // 1 king vs 3 (two kings): after 6 plies the lone king takes a king: 1 vs 2, 5 moves each.
    Game g = setup(VariantId::International, "W:WK47:BK3,K5,16");
    ASSERT_TRUE(walk(g, 5));
    ASSERT_TRUE(blunder_and_capture(g));
    EXPECT_FALSE(counter(g, DrawRule::InternationalKingVsThree).has_value());
    EXPECT_EQ(count_of(g, DrawRule::InternationalKingVsTwo), 0);
    ASSERT_TRUE(walk(g, 9));
    EXPECT_EQ(plies_left(g, DrawRule::InternationalKingVsTwo), 1);
    finish(g);
    expect_draw(g, Reason::EndgameRule, DrawRule::InternationalKingVsTwo);
    EXPECT_EQ(g.ply(), 7 + 10);
}

TEST(DrawInternational, KingAgainstTwoAndKingAgainstKing) {
    Game g = setup(VariantId::International, "W:WK47:BK3,K5");
    EXPECT_EQ(plies_left(g, DrawRule::InternationalKingVsTwo), 10);
    ASSERT_TRUE(walk(g, 3));
    EXPECT_EQ(count_of(g, DrawRule::InternationalKingVsTwo), 3);
    ASSERT_TRUE(blunder_and_capture(g));  // Black gives a king away: king vs king
    EXPECT_EQ(count_of(g, DrawRule::InternationalKingVsTwo), 0);  // restarted
    ASSERT_TRUE(walk(g, 9));
    EXPECT_FALSE(g.is_over());
    finish(g);
    expect_draw(g, Reason::EndgameRule, DrawRule::InternationalKingVsTwo);
    EXPECT_EQ(g.ply(), 5 + 10);
}

// --- Turkish ----------------------------------------------------------------------------------

TEST(DrawTurkish, LoneKingAgainstLoneKing) {
    const Game apart = setup(VariantId::Turkish, "W:WKa1:BKh8");
    expect_draw(apart, Reason::EndgameRule, DrawRule::TurkishKingVsKing);
    EXPECT_EQ(apart.result_text(), "Draw: lone king against lone king");

    // The side to move can take the other king at once: no draw, and it wins.
    Game g = setup(VariantId::Turkish, "W:WKa1:BKa7");
    EXPECT_FALSE(g.is_over());
    play(g, "a1xa8");
    EXPECT_EQ(g.result().outcome, Outcome::WhiteWins);
    EXPECT_EQ(g.result().reason, Reason::NoPieces);
}

TEST(DrawTurkish, ArisingByCaptureUnlessTheKingCanBeTakenAtOnce) {
    // White takes the man on d3 and lands on d4 (no capture for Black: draw) or on d5 (the
    // black king on a5 can take it at once: play on, and Black wins).
    Game g     = setup(VariantId::Turkish, "W:WKd1:Bd3,Ka5");
    Game other = g;
    play(g, "d1xd4");
    expect_draw(g, Reason::EndgameRule, DrawRule::TurkishKingVsKing);
    play(other, "d1xd5");
    EXPECT_FALSE(other.is_over());
    play(other, "a5xe5");
    EXPECT_EQ(other.result().outcome, Outcome::BlackWins);
    EXPECT_EQ(other.result().reason, Reason::NoPieces);
}

TEST(DrawTurkish, TwentyFiveMovesEachSidewaysManMovesDoNotReset) {
    Game g       = setup(VariantId::Turkish, "W:WKd4,a2:BKe5,h7");
    const auto c = counter(g, DrawRule::NoProgress);
    ASSERT_TRUE(c.has_value());
    EXPECT_EQ(c->limit, 50);
    EXPECT_EQ(c->text, "25 moves each with no capture and no man advanced");
    const MoveScore sideways = [](const Game& gm, const Move& m) {
        return !is_king_move(gm, m) && m.from / 8 == m.to / 8 ? 1 : -1;
    };
    const MoveScore forward = [](const Game& gm, const Move& m) {
        return !is_king_move(gm, m) && (m.from / 8 != m.to / 8) ? 1 : -1;
    };
    ASSERT_TRUE(walk(g, 10, kings_only, sideways));
    EXPECT_EQ(count_of(g, DrawRule::NoProgress), 10);
    ASSERT_TRUE(step(g, sideways));  // White's man steps sideways: no reset
    EXPECT_EQ(count_of(g, DrawRule::NoProgress), 11);
    ASSERT_TRUE(walk(g, 1, kings_only, forward));
    EXPECT_EQ(count_of(g, DrawRule::NoProgress), 12);
    ASSERT_TRUE(step(g, forward));  // White's man steps forward: reset
    EXPECT_EQ(count_of(g, DrawRule::NoProgress), 0);
    ASSERT_TRUE(walk(g, 49));
    EXPECT_FALSE(g.is_over());
    finish(g);
    expect_draw(g, Reason::NoProgress, DrawRule::NoProgress);
    EXPECT_EQ(g.ply(), 13 + 50);
}

TEST(DrawTurkish, CaptureResetsTheCounter) {
    Game g = setup(VariantId::Turkish, "W:WKd4,a2:BKe5,Kg6,h7");
    ASSERT_TRUE(walk(g, 5));
    EXPECT_EQ(count_of(g, DrawRule::NoProgress), 5);
    ASSERT_TRUE(blunder_and_capture(g));
    EXPECT_EQ(count_of(g, DrawRule::NoProgress), 0);
}

// --- Other 8x8 variants -----------------------------------------------------------------------

TEST(DrawEightByEight, FortyMovesEachWithoutCaptureOrCrowning) {
    Game g       = setup(VariantId::Russian, "W:WKc1,Ke1,h2,a7:BKd8,Kf8");
    const auto c = counter(g, DrawRule::NoProgress);
    ASSERT_TRUE(c.has_value());
    EXPECT_EQ(c->limit, 80);
    EXPECT_EQ(c->text, "40 moves each with no capture and no crowning");
    const MoveScore crown = [](const Game&, const Move& m) { return m.promotes ? 1 : -1; };
    ASSERT_TRUE(walk(g, 20, kings_only, men_only));
    ASSERT_TRUE(step(g, men_only));  // h2-g3: a man move does not reset
    EXPECT_EQ(count_of(g, DrawRule::NoProgress), 21);
    ASSERT_TRUE(walk(g, 1, kings_only, crown));
    ASSERT_TRUE(step(g, crown));  // a7-b8 crowns: reset
    EXPECT_EQ(count_of(g, DrawRule::NoProgress), 0);
    ASSERT_TRUE(walk(g, 79));
    EXPECT_FALSE(g.is_over());
    finish(g);
    expect_draw(g, Reason::NoProgress, DrawRule::NoProgress);
    EXPECT_EQ(g.ply(), 23 + 80);
}

TEST(DrawEightByEight, EveryOtherVariantHasTheFortyMoveCounter) {
    for (const VariantId v : {VariantId::Brazilian,
                              VariantId::Russian,
                              VariantId::Pool,
                              VariantId::Spanish,
                              VariantId::Italian,
                              VariantId::Czech,
                              VariantId::Thai}) {
        const Game g(v);
        const auto limits = g.move_limits();
        ASSERT_EQ(limits.size(), 1U) << rules(v).key;
        EXPECT_EQ(limits[0].rule, DrawRule::NoProgress);
        EXPECT_EQ(limits[0].limit, 80);
        EXPECT_EQ(limits[0].text, "40 moves each with no capture and no crowning");
    }
}

TEST(DrawEightByEight, CaptureResetsTheCounter) {
    Game g = setup(VariantId::Brazilian, "W:WKc1,Ke1:BKd8,Kf8,Kh8");
    ASSERT_TRUE(walk(g, 4));
    EXPECT_EQ(count_of(g, DrawRule::NoProgress), 4);
    ASSERT_TRUE(blunder_and_capture(g));
    EXPECT_EQ(count_of(g, DrawRule::NoProgress), 0);
}

// --- Russian official rules (selectable) --------------------------------------------------------

constexpr GameOptions kRussianOfficial{.draw_rules = DrawRuleSet::RussianOfficial};

bool on_long_diagonal(int bit_index) {
    const auto sq = square_coord(VariantId::Russian, square_of_bit(VariantId::Russian, bit_index));
    return sq.file == sq.rank;
}

// King moves only; the lone king's moves end on the long diagonal (on) or off it (!on).
MoveScore lone_king_diagonal(bool on) {
    return [on](const Game& g, const Move& m) {
        const Position& p = g.position();
        if (!is_king_move(g, m)) {
            return -1;
        }
        if (popcount(p.of(p.side)) == 1) {
            return on_long_diagonal(m.to) == on ? 1 : -1;
        }
        return 1;
    };
}

TEST(DrawRussianOfficial, FifteenMovesEachOnlyKings) {
    Game g       = setup(VariantId::Russian, "W:WKc1,Ke1:BKd8,Kf8", kRussianOfficial);
    const auto c = counter(g, DrawRule::NoProgress);
    ASSERT_TRUE(c.has_value());
    EXPECT_EQ(c->limit, 30);
    EXPECT_EQ(c->text, "15 moves each with only kings moved and no capture");
    EXPECT_EQ(count_of(g, DrawRule::RussianKingsFourFive), 0);
    ASSERT_TRUE(walk(g, 29));
    EXPECT_FALSE(g.is_over());
    finish(g);
    expect_draw(g, Reason::NoProgress, DrawRule::NoProgress);
    EXPECT_EQ(g.ply(), 30);
}

TEST(DrawRussianOfficial, ThreeKingsMustTakeTheLoneKingByTheFifteenthMove) {
    // The lone king keeps off the long diagonal (that rule would draw sooner).
    const MoveScore off_diagonal = lone_king_diagonal(false);
    for (const auto& [fen, plies] :
         {std::pair{"W:WKc1,Ke1,Kg1:BKh4", 29}, std::pair{"B:WKc1,Ke1,Kg1:BKh4", 30}}) {
        Game g       = setup(VariantId::Russian, fen, kRussianOfficial);
        const auto c = counter(g, DrawRule::RussianThreeKings);
        ASSERT_TRUE(c.has_value()) << fen;
        EXPECT_EQ(c->limit, 15);
        EXPECT_EQ(c->plies_left, plies);
        ASSERT_TRUE(walk(g, plies - 1, off_diagonal)) << fen;
        EXPECT_EQ(count_of(g, DrawRule::RussianThreeKings), 14) << fen;
        EXPECT_EQ(plies_left(g, DrawRule::RussianThreeKings), 1) << fen;
        EXPECT_EQ(g.side_to_move(), Color::White);
        finish(g, off_diagonal);
        expect_draw(g, Reason::EndgameRule, DrawRule::RussianThreeKings);
        EXPECT_EQ(g.ply(), plies) << fen;
    }
}

TEST(DrawRussianOfficial, LoneKingHoldingTheLongDiagonal) {
    const MoveScore on_diagonal = lone_king_diagonal(true);
    Game g                      = setup(VariantId::Russian, "W:WKc1,Kh2,a3:BKd4", kRussianOfficial);
    EXPECT_EQ(plies_left(g, DrawRule::RussianLongDiagonal), 10);
    EXPECT_FALSE(counter(g, DrawRule::RussianThreeKings).has_value());
    EXPECT_FALSE(counter(g, DrawRule::RussianSmallEndgame).has_value());
    ASSERT_TRUE(walk(g, 9, on_diagonal));
    EXPECT_FALSE(g.is_over());
    finish(g, on_diagonal);
    expect_draw(g, Reason::EndgameRule, DrawRule::RussianLongDiagonal);
    EXPECT_EQ(g.ply(), 10);
}

TEST(DrawRussianOfficial, LeavingTheLongDiagonalStopsTheCount) {
    // The lone king steps off the diagonal, White moves, the lone king comes back.
    const MoveScore off_and_back = [](const Game& gm, const Move& m) {
        const Position& p = gm.position();
        if (!is_king_move(gm, m)) {
            return -1;
        }
        if (popcount(p.of(p.side)) == 1) {
            return on_long_diagonal(m.to) != on_long_diagonal(m.from) ? 1 : -1;
        }
        return 1;
    };
    Game g = setup(VariantId::Russian, "W:WKc1,Kh2,a3:BKd4", kRussianOfficial);
    ASSERT_TRUE(walk(g, 3, lone_king_diagonal(true), off_and_back));  // White, Black, White
    EXPECT_EQ(count_of(g, DrawRule::RussianLongDiagonal), 3);
    ASSERT_TRUE(walk(g, 3, off_and_back));
    EXPECT_EQ(count_of(g, DrawRule::RussianLongDiagonal), 0);  // back on it: a fresh count
    const Move back  = g.moves()[5];
    const Move white = g.moves()[4];
    ASSERT_TRUE(g.undo().ok());
    ASSERT_TRUE(g.undo().ok());
    EXPECT_FALSE(counter(g, DrawRule::RussianLongDiagonal).has_value());  // off the diagonal
    ASSERT_TRUE(g.play(white).ok());
    EXPECT_FALSE(counter(g, DrawRule::RussianLongDiagonal).has_value());
    ASSERT_TRUE(g.play(back).ok());
    EXPECT_EQ(count_of(g, DrawRule::RussianLongDiagonal), 0);
}

TEST(DrawRussianOfficial, TwoKingsKingAndManOrKingAgainstLoneKing) {
    for (const char* fen : {"W:WKc1,Ke1:BKh4", "W:WKc1,h2:BKf8", "W:WKc1:BKh4"}) {
        Game g       = setup(VariantId::Russian, fen, kRussianOfficial);
        const auto c = counter(g, DrawRule::RussianSmallEndgame);
        ASSERT_TRUE(c.has_value()) << fen;
        EXPECT_EQ(c->limit, 10);
        ASSERT_TRUE(walk(g, 9)) << fen;
        EXPECT_EQ(plies_left(g, DrawRule::RussianSmallEndgame), 1) << fen;
        finish(g);
        expect_draw(g, Reason::EndgameRule, DrawRule::RussianSmallEndgame);
        EXPECT_EQ(g.ply(), 10) << fen;
    }
    // Two men are not the rule.
    const Game men = setup(VariantId::Russian, "W:Wa3,h2:BKf8", kRussianOfficial);
    EXPECT_FALSE(counter(men, DrawRule::RussianSmallEndgame).has_value());
}

TEST(DrawRussianOfficial, BothSidesWithKingsFourOrFivePiecesThirtyMovesEach) {
    Game g       = setup(VariantId::Russian, "W:WKc1,h2:BKf8,a7", kRussianOfficial);
    const auto c = counter(g, DrawRule::RussianKingsFourFive);
    ASSERT_TRUE(c.has_value());
    EXPECT_EQ(c->limit, 60);
    EXPECT_FALSE(counter(g, DrawRule::RussianKingsSixSeven).has_value());
    // Man moves keep the kings-only counter from firing and do not reset this one.
    const MoveScore score = men_when(DrawRule::NoProgress, 20);
    ASSERT_TRUE(walk(g, 59, score));
    EXPECT_EQ(count_of(g, DrawRule::RussianKingsFourFive), 59);
    EXPECT_LT(count_of(g, DrawRule::NoProgress), 30);
    finish(g, score);
    expect_draw(g, Reason::NoProgress, DrawRule::RussianKingsFourFive);
    EXPECT_EQ(g.ply(), 60);
}

TEST(DrawRussianOfficial, BothSidesWithKingsSixOrSevenPiecesSixtyMovesEach) {
    Game g = setup(VariantId::Russian, "W:WKc1,h2,a3:BKf8,a7,h6", kRussianOfficial);
    EXPECT_EQ(plies_left(g, DrawRule::RussianKingsSixSeven), 120);
    EXPECT_FALSE(counter(g, DrawRule::RussianKingsFourFive).has_value());
    const MoveScore score = men_when(DrawRule::NoProgress, 20);
    ASSERT_TRUE(walk(g, 119, score));
    EXPECT_FALSE(g.is_over());
    finish(g, score);
    expect_draw(g, Reason::NoProgress, DrawRule::RussianKingsSixSeven);
    EXPECT_EQ(g.ply(), 120);
}

TEST(DrawRussianOfficial, CrowningRestartsTheKingsCount) {
    Game g                = setup(VariantId::Russian, "W:WKc1,a7,h2:BKf8,h6", kRussianOfficial);
    const MoveScore crown = [](const Game&, const Move& m) { return m.promotes ? 1 : -1; };
    ASSERT_TRUE(walk(g, 6, kings_only, crown));
    EXPECT_EQ(count_of(g, DrawRule::RussianKingsFourFive), 6);
    ASSERT_TRUE(step(g, crown));  // a7-b8
    EXPECT_EQ(count_of(g, DrawRule::RussianKingsFourFive), 0);
    ASSERT_TRUE(walk(g, 1, kings_only, men_only));
    ASSERT_TRUE(step(g, men_only));  // White's man on h2: no reset
    EXPECT_EQ(count_of(g, DrawRule::RussianKingsFourFive), 2);
}

TEST(DrawRussianOfficial, StandardRussianKeepsTheEightByEightCounter) {
    const Game g      = setup(VariantId::Russian, "W:WKc1,Ke1,Kg1:BKh4");
    const auto limits = g.move_limits();
    ASSERT_EQ(limits.size(), 1U);
    EXPECT_EQ(limits[0].rule, DrawRule::NoProgress);
    EXPECT_EQ(limits[0].limit, 80);
}

// --- American club rules ----------------------------------------------------------------------

constexpr GameOptions kClub{.draw_rules = DrawRuleSet::AmericanClub};

TEST(DrawAmericanClub, RepetitionIsClaimedNotAutomatic) {
    Game g = setup(VariantId::American, "B:WK29,K31:BK3,K4", kClub);
    for (const char* m : {"4-8", "29-25", "8-4", "25-29", "4-8", "29-25", "8-4"}) {
        play(g, m);
    }
    EXPECT_FALSE(g.claimable_draw().has_value());
    const auto early = g.claim_draw();
    ASSERT_FALSE(early.ok());
    EXPECT_FALSE(g.is_over());
    play(g, "25-29");
    EXPECT_EQ(g.repetition_count(), 3);
    EXPECT_FALSE(g.is_over());  // not automatic
    EXPECT_EQ(g.claimable_draw(), Reason::Repetition);
    EXPECT_FALSE(g.claim_draw(Color::White).ok());  // not White's turn
    EXPECT_FALSE(g.is_over());
    const auto r = g.claim_draw(Color::Black);
    ASSERT_TRUE(r.ok()) << r.error();
    expect_draw(g, Reason::Repetition, DrawRule::Repetition);
    EXPECT_TRUE(g.result().claimed);
    EXPECT_EQ(g.result_text(), "Draw: threefold repetition (claimed)");
    EXPECT_FALSE(g.claim_draw().ok());  // over
}

TEST(DrawAmericanClub, PlayMayGoOnPastARepetition) {
    Game g = setup(VariantId::American, "B:WK29,K31:BK3,K4", kClub);
    for (const char* m : {"4-8", "29-25", "8-4", "25-29", "4-8", "29-25", "8-4", "25-29"}) {
        play(g, m);
    }
    EXPECT_EQ(g.claimable_draw(), Reason::Repetition);
    play(g, "3-7");
    EXPECT_FALSE(g.claimable_draw().has_value());  // the claim is gone once play goes on
    EXPECT_FALSE(g.is_over());
}

TEST(DrawAmericanClub, InsufficientMaterialIsClaimable) {
    Game g = setup(VariantId::American, "W:WK22:B5", kClub);
    EXPECT_FALSE(g.is_over());
    EXPECT_EQ(g.claimable_draw(), Reason::InsufficientMaterial);
    const auto r = g.claim_draw();
    ASSERT_TRUE(r.ok()) << r.error();
    expect_draw(g, Reason::InsufficientMaterial, DrawRule::InsufficientMaterial);
    EXPECT_TRUE(g.result().claimed);

    Game kk = setup(VariantId::American, "B:WK22:BK5", kClub);
    EXPECT_EQ(kk.claimable_draw(), Reason::InsufficientMaterial);
    EXPECT_TRUE(kk.claim_draw(Color::Black).ok());

    const Game two = setup(VariantId::American, "W:WK22,K30:B5", kClub);
    EXPECT_FALSE(two.claimable_draw().has_value());
    // Standard American rules have nothing to claim.
    Game standard = setup(VariantId::American, "W:WK22:B5");
    EXPECT_FALSE(standard.claimable_draw().has_value());
    EXPECT_FALSE(standard.claim_draw().ok());
    EXPECT_FALSE(standard.is_over());
}

TEST(DrawAmericanClub, TimeoutIsADrawWhenTheOpponentCannotWin) {
    // Black has a single man; White has kings: White's flag is a draw, Black's a loss.
    Game g           = setup(VariantId::American, "W:WK22,K30:B5", kClub);
    Game black_flags = g;
    const auto r     = g.flag(Color::White);
    ASSERT_TRUE(r.ok()) << r.error();
    EXPECT_EQ(r->outcome, Outcome::Draw);
    EXPECT_EQ(r->reason, Reason::TimeoutOpponentCannotWin);
    EXPECT_EQ(g.result_text(), "Draw: time ran out but the opponent cannot win");
    EXPECT_EQ(black_flags.flag(Color::Black)->outcome, Outcome::WhiteWins);

    // Without a king the flagged side loses even against one piece.
    Game men = setup(VariantId::American, "W:W22,30:B5", kClub);
    EXPECT_EQ(men.flag(Color::White)->outcome, Outcome::BlackWins);
}

TEST(DrawAmericanClub, TimeoutWhileADrawCanBeClaimed) {
    Game g = setup(VariantId::American, "B:WK29,K31:BK3,K4", kClub);
    for (const char* m : {"4-8", "29-25", "8-4", "25-29", "4-8", "29-25", "8-4", "25-29"}) {
        play(g, m);
    }
    Game before_third = g;
    ASSERT_TRUE(before_third.undo().ok());
    EXPECT_EQ(before_third.flag(Color::White)->outcome, Outcome::BlackWins);

    const auto r = g.flag(Color::Black);
    ASSERT_TRUE(r.ok()) << r.error();
    EXPECT_EQ(r->outcome, Outcome::Draw);
    EXPECT_EQ(r->reason, Reason::TimeoutWithDrawClaimable);

    Game lone = setup(VariantId::American, "W:WK22:B5", kClub);
    EXPECT_EQ(lone.flag(Color::White)->reason, Reason::TimeoutWithDrawClaimable);
}

TEST(DrawAmericanClub, FortyPairsOfKingOnlyMoves) {
    Game g       = setup(VariantId::American, "B:WK29,K31,21:BK2,K4,12", kClub);
    const auto c = counter(g, DrawRule::NoProgress);
    ASSERT_TRUE(c.has_value());
    EXPECT_EQ(c->limit, 80);
    EXPECT_EQ(c->text, "40 moves each with only kings moved and no capture");
    ASSERT_TRUE(walk(g, 79));
    EXPECT_FALSE(g.is_over());
    finish(g);
    expect_draw(g, Reason::NoProgress, DrawRule::NoProgress);
    EXPECT_EQ(g.ply(), 80);
    EXPECT_FALSE(g.result().claimed);
}

}  // namespace
}  // namespace papan::core
