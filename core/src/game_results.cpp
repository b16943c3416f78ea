// Game's results and the endings without a move: the texts of outcomes, reasons and rules,
// option checks, resignation, agreement, timeouts and claimed draws (docs/rules.md).
#include "game_internal.hpp"

namespace papan::core {

namespace game_detail {

GameResult win_for(Color c, Reason r) noexcept {
    return GameResult{
        c == Color::White ? Outcome::WhiteWins : Outcome::BlackWins, r, DrawRule::None, false};
}

GameResult draw_by(Reason r, DrawRule rule, bool claimed) noexcept {
    return GameResult{Outcome::Draw, r, rule, claimed};
}

std::string over_error(const Game& g) {
    return "the game is over (" + g.result_text() + ")";
}

}  // namespace game_detail

using game_detail::count;
using game_detail::draw_by;
using game_detail::insufficient_material;
using game_detail::over_error;
using game_detail::win_for;

std::string_view outcome_text(Outcome o) noexcept {
    switch (o) {
    case Outcome::Ongoing:
        return "game in progress";
    case Outcome::WhiteWins:
        return "White wins";
    case Outcome::BlackWins:
        return "Black wins";
    case Outcome::Draw:
        return "Draw";
    }
    return "";
}

std::string_view reason_text(Reason r) noexcept {
    switch (r) {
    case Reason::None:
        return "game in progress";
    case Reason::NoPieces:
        return "no pieces left";
    case Reason::NoMoves:
        return "no legal move (blocked)";
    case Reason::Resignation:
        return "resignation";
    case Reason::Timeout:
        return "time ran out";
    case Reason::Agreement:
        return "draw by agreement";
    case Reason::Repetition:
        return "threefold repetition";
    case Reason::NoProgress:
        return "no-progress rule";
    case Reason::MoveLimit:
        return "move limit reached";
    case Reason::EndgameRule:
        return "endgame draw rule";
    case Reason::InsufficientMaterial:
        return "insufficient material to win";
    case Reason::TimeoutWithDrawClaimable:
        return "time ran out while a draw could be claimed";
    case Reason::TimeoutOpponentCannotWin:
        return "time ran out but the opponent cannot win";
    }
    return "";
}

std::string_view draw_rule_key(DrawRule r) noexcept {
    switch (r) {
    case DrawRule::None:
        return "none";
    case DrawRule::Repetition:
        return "repetition";
    case DrawRule::NoProgress:
        return "no_progress";
    case DrawRule::TotalMoves:
        return "move_limit";
    case DrawRule::InternationalKingVsThree:
        return "king_vs_three";
    case DrawRule::InternationalKingVsTwo:
        return "king_vs_two";
    case DrawRule::TurkishKingVsKing:
        return "king_vs_king";
    case DrawRule::RussianThreeKings:
        return "three_kings_vs_king";
    case DrawRule::RussianLongDiagonal:
        return "long_diagonal";
    case DrawRule::RussianSmallEndgame:
        return "small_endgame";
    case DrawRule::RussianKingsFourFive:
        return "kings_4_5_pieces";
    case DrawRule::RussianKingsSixSeven:
        return "kings_6_7_pieces";
    case DrawRule::InsufficientMaterial:
        return "insufficient_material";
    }
    return "";
}

std::optional<Color> winner(Outcome o) noexcept {
    switch (o) {
    case Outcome::WhiteWins:
        return Color::White;
    case Outcome::BlackWins:
        return Color::Black;
    case Outcome::Ongoing:
    case Outcome::Draw:
        return std::nullopt;
    }
    return std::nullopt;
}

std::optional<Error> validate_game_options(VariantId v, const GameOptions& options) {
    const RuleSet& r = core::rules(v);
    if (!options.forced_capture && !r.optional_capture_house_rule) {
        return Error{std::string(r.name) +
                     " does not offer the no-forced-capture house rule (8x8 diagonal variants "
                     "only)"};
    }
    switch (options.draw_rules) {
    case DrawRuleSet::Standard:
        break;
    case DrawRuleSet::AmericanClub:
        if (v != VariantId::American) {
            return Error{"the American club draw rules are for American checkers only, not " +
                         std::string(r.name)};
        }
        break;
    case DrawRuleSet::RussianOfficial:
        if (v != VariantId::Russian) {
            return Error{"the official Russian draw rules are for Russian draughts only, not " +
                         std::string(r.name)};
        }
        break;
    }
    return std::nullopt;
}

std::string Game::result_text() const {
    const GameResult& r = result_;
    if (!r.over()) {
        return std::string(outcome_text(r.outcome));
    }
    std::string s(outcome_text(r.outcome));
    s += ": ";
    const auto loser_name = [&]() -> std::string {
        const auto w = winner(r.outcome);
        return w && *w == Color::White ? "Black" : "White";
    };
    switch (r.reason) {
    case Reason::NoPieces:
        s += loser_name() + " has no pieces left";
        break;
    case Reason::NoMoves:
        s += loser_name() + " has no legal move (blocked)";
        break;
    case Reason::Resignation:
        s += loser_name() + " resigned";
        break;
    case Reason::Timeout:
        s += loser_name() + " ran out of time";
        break;
    case Reason::Repetition:
    case Reason::NoProgress:
    case Reason::MoveLimit:
    case Reason::EndgameRule:
    case Reason::InsufficientMaterial:
        s += r.rule != DrawRule::None ? draw_rule_text(r.rule) : std::string(reason_text(r.reason));
        if (r.claimed) {
            s += " (claimed)";
        }
        break;
    case Reason::None:
    case Reason::Agreement:
    case Reason::TimeoutWithDrawClaimable:
    case Reason::TimeoutOpponentCannotWin:
        s += reason_text(r.reason);
        break;
    }
    return s;
}

int Game::repetition_count() const noexcept {
    return states_.back().repetitions;
}

std::optional<Reason> Game::claimable_draw() const {
    if (is_over()) {
        return std::nullopt;
    }
    if (!repetition_automatic_ && repetition_count() >= 3) {
        return Reason::Repetition;
    }
    if (insufficient_claimable_ && insufficient_material(position())) {
        return Reason::InsufficientMaterial;
    }
    return std::nullopt;
}

Expected<GameResult> Game::end_game(const GameResult& r) {
    result_ = r;
    legal_.clear();
    return result_;
}

Expected<GameResult> Game::claim_draw() {
    return claim_draw(side_to_move());
}

Expected<GameResult> Game::claim_draw(Color by) {
    if (is_over()) {
        return Error{over_error(*this)};
    }
    if (by != side_to_move()) {
        return Error{"a draw can only be claimed on your own turn"};
    }
    const auto reason = claimable_draw();
    if (!reason) {
        if (options_.draw_rules != DrawRuleSet::AmericanClub) {
            return Error{
                "no draw can be claimed under these rules (draw rules apply automatically)"};
        }
        return Error{"no draw can be claimed: the position has not occurred three times and there "
                     "is material to win"};
    }
    const DrawRule rule =
        *reason == Reason::Repetition ? DrawRule::Repetition : DrawRule::InsufficientMaterial;
    return end_game(draw_by(*reason, rule, true));
}

Expected<GameResult> Game::resign(Color loser) {
    if (is_over()) {
        return Error{over_error(*this)};
    }
    return end_game(win_for(opposite(loser), Reason::Resignation));
}

Expected<GameResult> Game::agree_draw() {
    if (is_over()) {
        return Error{over_error(*this)};
    }
    return end_game(draw_by(Reason::Agreement, DrawRule::None));
}

Expected<GameResult> Game::flag(Color loser) {
    if (is_over()) {
        return Error{over_error(*this)};
    }
    if (options_.draw_rules == DrawRuleSet::AmericanClub) {
        if (const auto claim = claimable_draw()) {
            const DrawRule rule = *claim == Reason::Repetition ? DrawRule::Repetition
                                                               : DrawRule::InsufficientMaterial;
            return end_game(draw_by(Reason::TimeoutWithDrawClaimable, rule));
        }
        // The opponent cannot win: it has a single piece and the flagged side has a king.
        const Position& p = position();
        if (count(p.of(opposite(loser))) == 1 && p.kings_of(loser) != 0) {
            return end_game(draw_by(Reason::TimeoutOpponentCannotWin, DrawRule::None));
        }
    }
    return end_game(win_for(opposite(loser), Reason::Timeout));
}

}  // namespace papan::core
