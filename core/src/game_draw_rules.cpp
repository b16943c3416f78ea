// Game's draw rules (docs/rules.md, "Draw rules and game results"): a closed set of hooks
// switched on DrawRuleSet / NoProgressRule / EndgameDrawRule and DrawRule; each rule is a counter
// slot (see Game::Slot) configured per variant and rule set, updated after every ply (game.cpp)
// and evaluated here, with the "N moves left" counters and the rules' texts.
#include "game_internal.hpp"

#include <papan/core/geometry.hpp>

#include <algorithm>

namespace papan::core {

namespace game_detail {

namespace {

// The long diagonal a1-h8 of the 8x8 diagonal board (a1 dark: Russian draughts).
constexpr Bitboard make_long_diagonal() {
    const Geometry& g = kDiagonal8;
    Bitboard m        = 0;
    for (int s = 0; s < g.squares; ++s) {
        const auto i = static_cast<std::size_t>(s);
        if (g.file_of[i] == g.rank_of[i]) {
            m |= bit(g.bit_of[i]);
        }
    }
    return m;
}

constexpr Bitboard kLongDiagonal8 = make_long_diagonal();
static_assert(popcount(kLongDiagonal8) == 8);

// Rank (0 = White's home row) of a bit.
int rank_of_bit(const Position& p, int b) noexcept {
    const Geometry& g = p.rules().board();
    const int plain   = g.plain_of[static_cast<std::size_t>(b)];
    return g.rank_of[static_cast<std::size_t>(plain)];
}

bool is_man_move(const Position& before, const Move& m) noexcept {
    return !has(before.kings, m.from);
}

}  // namespace

int count(Bitboard b) noexcept {
    return popcount(b);
}

bool lone_king(const Position& p, Color c) noexcept {
    return count(p.of(c)) == 1 && count(p.kings_of(c)) == 1;
}

bool man_advanced(const Position& before, const Move& m) noexcept {
    return is_man_move(before, m) && rank_of_bit(before, m.from) != rank_of_bit(before, m.to);
}

bool progress_resets(NoProgressRule rule, const Position& before, const Move& m) noexcept {
    switch (rule) {
    case NoProgressRule::None:
        return false;
    case NoProgressRule::NoCaptureNoManMove:
    case NoProgressRule::KingsOnlyNoCapture:
        return m.is_capture() || is_man_move(before, m);
    case NoProgressRule::NoCaptureNoManAdvance:
        // Turkish: a man's sideways step does not reset the counter (docs/rules.md).
        return m.is_capture() || man_advanced(before, m);
    case NoProgressRule::NoCaptureNoCrowning:
        return m.is_capture() || m.promotes;
    }
    return true;
}

EndgameMatch match_endgame(DrawRule rule, const Position& p) noexcept {
    for (const Color lone : {Color::White, Color::Black}) {
        const Color o    = opposite(lone);
        const int pieces = count(p.of(o));
        const int kings  = count(p.kings_of(o));
        bool ok          = false;
        switch (rule) {
        case DrawRule::InternationalKingVsThree:
            ok = lone_king(p, lone) && pieces == 3 && kings >= 1;
            break;
        case DrawRule::InternationalKingVsTwo:
        case DrawRule::RussianSmallEndgame:
            ok = lone_king(p, lone) && pieces >= 1 && pieces <= 2 && kings >= 1;
            break;
        case DrawRule::RussianThreeKings:
            ok = lone_king(p, lone) && kings >= 3;
            break;
        case DrawRule::RussianLongDiagonal:
            ok = lone_king(p, lone) && pieces == 3 && kings >= 1 &&
                 (p.kings_of(lone) & kLongDiagonal8) != 0;
            break;
        case DrawRule::RussianKingsFourFive:
        case DrawRule::RussianKingsSixSeven: {
            const int total = count(p.occupied());
            const bool both = p.kings_of(Color::White) != 0 && p.kings_of(Color::Black) != 0;
            const bool size = rule == DrawRule::RussianKingsFourFive ? (total == 4 || total == 5)
                                                                     : (total == 6 || total == 7);
            return EndgameMatch{both && size, Color::White};
        }
        case DrawRule::None:
        case DrawRule::Repetition:
        case DrawRule::NoProgress:
        case DrawRule::TotalMoves:
        case DrawRule::TurkishKingVsKing:
        case DrawRule::InsufficientMaterial:
            return {};
        }
        if (ok) {
            return EndgameMatch{true, o};
        }
    }
    return {};
}

bool turkish_kings_draw(const Position& p) {
    return lone_king(p, Color::White) && lone_king(p, Color::Black) && !has_capture(p);
}

bool insufficient_material(const Position& p) noexcept {
    return (lone_king(p, Color::White) && count(p.of(Color::Black)) == 1) ||
           (lone_king(p, Color::Black) && count(p.of(Color::White)) == 1);
}

}  // namespace game_detail

using game_detail::count;
using game_detail::draw_by;
using game_detail::EndgameMatch;
using game_detail::match_endgame;
using game_detail::turkish_kings_draw;
using game_detail::win_for;

void Game::add_slot(const Slot& s) {
    if (slot_count_ < slots_.size()) {
        slots_[slot_count_++] = s;
    }
}

void Game::configure(VariantId v) {
    const RuleSet& r = core::rules(v);
    slot_count_      = 0;
    switch (options_.draw_rules) {
    case DrawRuleSet::Standard:
        switch (r.draw.endgame) {
        case EndgameDrawRule::None:
            break;
        case EndgameDrawRule::International:
            // FMJD: 16 more moves each against three pieces, 5 more moves each against two.
            add_slot(Slot{.rule  = DrawRule::InternationalKingVsThree,
                          .kind  = SlotKind::Endgame,
                          .limit = 2 * 16});
            add_slot(Slot{.rule  = DrawRule::InternationalKingVsTwo,
                          .kind  = SlotKind::Endgame,
                          .limit = 2 * 5});
            break;
        case EndgameDrawRule::Turkish:
            turkish_kings_rule_ = true;
            break;
        }
        if (r.draw.no_progress != NoProgressRule::None && r.draw.no_progress_moves > 0) {
            add_slot(Slot{.rule     = DrawRule::NoProgress,
                          .kind     = SlotKind::NoProgress,
                          .progress = r.draw.no_progress,
                          .limit    = 2 * r.draw.no_progress_moves});
        }
        if (r.draw.total_move_limit > 0) {
            add_slot(Slot{.rule  = DrawRule::TotalMoves,
                          .kind  = SlotKind::TotalPlies,
                          .limit = r.draw.total_move_limit});
        }
        break;
    case DrawRuleSet::AmericanClub:
        // ACF club play (docs/rules.md): repetition and insufficient material are claimed;
        // 40 pairs of king-only moves and 300 moves (plies) in all draw automatically.
        repetition_automatic_   = false;
        insufficient_claimable_ = true;
        add_slot(Slot{.rule     = DrawRule::NoProgress,
                      .kind     = SlotKind::NoProgress,
                      .progress = NoProgressRule::KingsOnlyNoCapture,
                      .limit    = 2 * 40});
        add_slot(Slot{.rule = DrawRule::TotalMoves, .kind = SlotKind::TotalPlies, .limit = 300});
        break;
    case DrawRuleSet::RussianOfficial:
        add_slot(Slot{.rule           = DrawRule::RussianThreeKings,
                      .kind           = SlotKind::Endgame,
                      .limit          = 15,
                      .stronger_moves = true});
        add_slot(
            Slot{.rule = DrawRule::RussianLongDiagonal, .kind = SlotKind::Endgame, .limit = 2 * 5});
        add_slot(
            Slot{.rule = DrawRule::RussianSmallEndgame, .kind = SlotKind::Endgame, .limit = 2 * 5});
        add_slot(Slot{.rule              = DrawRule::RussianKingsFourFive,
                      .kind              = SlotKind::Endgame,
                      .limit             = 2 * 30,
                      .reset_on_crowning = true});
        add_slot(Slot{.rule              = DrawRule::RussianKingsSixSeven,
                      .kind              = SlotKind::Endgame,
                      .limit             = 2 * 60,
                      .reset_on_crowning = true});
        add_slot(Slot{.rule     = DrawRule::NoProgress,
                      .kind     = SlotKind::NoProgress,
                      .progress = NoProgressRule::KingsOnlyNoCapture,
                      .limit    = 2 * 15});
        break;
    }
}

Game::PlyState Game::initial_state(const Position& pos) const {
    PlyState st;
    st.key = pos.key();
    st.counters.fill(-1);
    for (std::size_t i = 0; i < slot_count_; ++i) {
        const Slot& s = slots_[i];
        switch (s.kind) {
        case SlotKind::NoProgress:
        case SlotKind::TotalPlies:
            st.counters[i] = 0;
            break;
        case SlotKind::Endgame:
            st.counters[i] = match_endgame(s.rule, pos).active ? 0 : -1;
            break;
        }
    }
    return st;
}

// The automatic result of `pos` (legal_ must hold its legal moves). A win on the board comes
// before a draw rule that fires on the same ply.
GameResult Game::evaluate(const Position& pos, const PlyState& st) const {
    const Color us = pos.side;
    if (pos.of(us) == 0) {
        return win_for(opposite(us), Reason::NoPieces);
    }
    if (legal_.empty()) {
        return win_for(opposite(us), Reason::NoMoves);
    }
    if (repetition_automatic_ && st.repetitions >= 3) {
        return draw_by(Reason::Repetition, DrawRule::Repetition);
    }
    if (turkish_kings_rule_ && turkish_kings_draw(pos)) {
        return draw_by(Reason::EndgameRule, DrawRule::TurkishKingVsKing);
    }
    for (std::size_t i = 0; i < slot_count_; ++i) {
        const Slot& s = slots_[i];
        const int c   = st.counters[i];
        if (c < 0 || c < s.limit) {
            continue;
        }
        switch (s.kind) {
        case SlotKind::NoProgress:
            return draw_by(Reason::NoProgress, s.rule);
        case SlotKind::TotalPlies:
            return draw_by(Reason::MoveLimit, s.rule);
        case SlotKind::Endgame:
            return draw_by(s.rule == DrawRule::RussianKingsFourFive ||
                                   s.rule == DrawRule::RussianKingsSixSeven
                               ? Reason::NoProgress
                               : Reason::EndgameRule,
                           s.rule);
        }
    }
    return GameResult{};
}

std::vector<DrawCounter> Game::move_limits() const {
    std::vector<DrawCounter> out;
    const PlyState& st = states_.back();
    const Position& p  = position();
    for (std::size_t i = 0; i < slot_count_; ++i) {
        const Slot& s = slots_[i];
        const int c   = st.counters[i];
        if (c < 0) {
            continue;
        }
        DrawCounter d;
        d.rule         = s.rule;
        d.key          = draw_rule_key(s.rule);
        d.text         = draw_rule_text(s.rule);
        d.count        = c;
        d.limit        = s.limit;
        d.progress     = s.progress;
        const int left = std::max(0, s.limit - c);
        if (s.stronger_moves) {
            const Color strong = match_endgame(s.rule, p).strong;
            d.plies_left       = left == 0 ? 0 : (p.side == strong ? 2 * left - 1 : 2 * left);
        } else {
            d.plies_left = left;
        }
        d.moves_left = (d.plies_left + 1) / 2;
        out.push_back(std::move(d));
    }
    return out;
}

std::string Game::draw_rule_text(DrawRule r) const {
    const Slot* slot = nullptr;
    for (std::size_t i = 0; i < slot_count_; ++i) {
        if (slots_[i].rule == r) {
            slot = &slots_[i];
        }
    }
    const int limit = slot != nullptr ? slot->limit : 0;
    const auto each = [&](int plies) { return std::to_string(plies / 2) + " moves each"; };
    switch (r) {
    case DrawRule::None:
        return "";
    case DrawRule::Repetition:
        return "threefold repetition";
    case DrawRule::NoProgress: {
        const NoProgressRule p = slot != nullptr ? slot->progress : NoProgressRule::None;
        switch (p) {
        case NoProgressRule::NoCaptureNoManMove:
            return each(limit) + " with no capture and no man moved";
        case NoProgressRule::KingsOnlyNoCapture:
            return each(limit) + " with only kings moved and no capture";
        case NoProgressRule::NoCaptureNoManAdvance:
            return each(limit) + " with no capture and no man advanced";
        case NoProgressRule::NoCaptureNoCrowning:
            return each(limit) + " with no capture and no crowning";
        case NoProgressRule::None:
            break;
        }
        return "no-progress rule";
    }
    case DrawRule::TotalMoves:
        return std::to_string(limit) + " moves in all (" + each(limit) + ")";
    case DrawRule::InternationalKingVsThree:
        return "one king against three pieces including a king: " + each(limit);
    case DrawRule::InternationalKingVsTwo:
        return "one king against at most two pieces including a king: " + each(limit);
    case DrawRule::TurkishKingVsKing:
        return "lone king against lone king";
    case DrawRule::RussianThreeKings:
        return "three or more kings against a lone king not taken by the stronger side's " +
               std::to_string(limit) + "th move";
    case DrawRule::RussianLongDiagonal:
        return "three pieces including a king against a lone king on the long diagonal: " +
               each(limit);
    case DrawRule::RussianSmallEndgame:
        return "two kings, king and man, or king against a lone king: " + each(limit);
    case DrawRule::RussianKingsFourFive:
        return "both sides with kings, 4-5 pieces, no capture or crowning: " + each(limit);
    case DrawRule::RussianKingsSixSeven:
        return "both sides with kings, 6-7 pieces, no capture or crowning: " + each(limit);
    case DrawRule::InsufficientMaterial:
        return "insufficient material (one piece against a lone king)";
    }
    return "";
}

}  // namespace papan::core
