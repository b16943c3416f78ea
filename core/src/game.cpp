// Game: history, results and the draw rules of rules.md "End of game". The draw rules are a
// closed set of hooks switched on DrawRuleSet / NoProgressRule / EndgameDrawRule and DrawRule;
// each one is a counter slot (see Game::Slot) updated after every ply.
#include <papan/core/game.hpp>
#include <papan/core/geometry.hpp>
#include <papan/core/notation/move_text.hpp>
#include <papan/core/notation/squares.hpp>

#include <algorithm>

namespace papan::core {

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

int count(Bitboard b) noexcept {
    return popcount(b);
}

bool lone_king(const Position& p, Color c) noexcept {
    return count(p.of(c)) == 1 && count(p.kings_of(c)) == 1;
}

// Rank (0 = White's home row) of a bit.
int rank_of_bit(const Position& p, int b) noexcept {
    const Geometry& g = p.rules().board();
    const int plain   = g.plain_of[static_cast<std::size_t>(b)];
    return g.rank_of[static_cast<std::size_t>(plain)];
}

bool is_man_move(const Position& before, const Move& m) noexcept {
    return !has(before.kings, m.from);
}

// A man moved to another rank: forward (men never step back without capturing).
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

struct EndgameMatch {
    bool active  = false;
    Color strong = Color::White;  // the side playing against the lone king
};

// Whether an endgame rule's material holds in p.
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

// AmericanClub: one side has a lone king, the other a single piece (man or king).
bool insufficient_material(const Position& p) noexcept {
    return (lone_king(p, Color::White) && count(p.of(Color::Black)) == 1) ||
           (lone_king(p, Color::Black) && count(p.of(Color::White)) == 1);
}

GameResult win_for(Color c, Reason r) noexcept {
    return GameResult{
        c == Color::White ? Outcome::WhiteWins : Outcome::BlackWins, r, DrawRule::None, false};
}

GameResult draw_by(Reason r, DrawRule rule, bool claimed = false) noexcept {
    return GameResult{Outcome::Draw, r, rule, claimed};
}

std::string over_error(const Game& g) {
    return "the game is over (" + g.result_text() + ")";
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Free functions

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
            return Error{"the club draw rules (seed 003) are for American checkers only, not " +
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

// ---------------------------------------------------------------------------------------------
// Construction

Game::Game(VariantId v, GameOptions options) : Game(core::start_position(v), options) {}

Game::Game(const Position& start, GameOptions options) : options_(options) {
    if (validate_game_options(start.variant, options_)) {
        options_ = GameOptions{};
    }
    configure(start.variant);
    positions_.push_back(start);
    states_.push_back(initial_state(start));
    refresh_legal();
    states_.back().result = evaluate(start, states_.back());
    result_               = states_.back().result;
    if (result_.over()) {
        legal_.clear();
    }
}

Expected<Game> Game::create(VariantId v, GameOptions options) {
    if (auto err = validate_game_options(v, options)) {
        return *err;
    }
    return Game(v, options);
}

Expected<Game> Game::create(const Position& start, GameOptions options) {
    if (static_cast<unsigned>(start.variant) >= static_cast<unsigned>(kVariantCount)) {
        return Error{"unknown variant"};
    }
    if (!start.is_consistent()) {
        return Error{"the set-up position is not consistent (overlapping pieces, pieces off the "
                     "board or a man on its promotion row)"};
    }
    if (auto err = validate_game_options(start.variant, options)) {
        return *err;
    }
    return Game(start, options);
}

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
        // Seed 003: repetition and insufficient material are claimed; 40 pairs of king-only
        // moves and 300 moves (plies) in all draw automatically.
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

void Game::refresh_legal() {
    legal_.clear();
    generate_moves(position(), legal_, movegen_options());
}

// ---------------------------------------------------------------------------------------------
// Moves

std::optional<Move> Game::find_legal(const Move& m) const noexcept {
    for (const Move& l : legal_) {
        if (l.same_as(m)) {
            return l;
        }
    }
    return std::nullopt;
}

Expected<GameResult> Game::play(const Move& m) {
    if (is_over()) {
        return Error{over_error(*this)};
    }
    const auto found = find_legal(m);
    if (!found) {
        const Bitboard all = rules().board().all;
        std::string what   = "the move";
        if (m.from < 64 && m.to < 64 && has(all, m.from) && has(all, m.to)) {
            what += ' ';
            what += square_text(variant(), square_of_bit(variant(), m.from));
            what += m.is_capture() ? 'x' : '-';
            what += square_text(variant(), square_of_bit(variant(), m.to));
        }
        return Error{what + " is not legal in this position"};
    }
    const Move mv          = *found;
    const Position before  = positions_.back();
    const PlyState& prev   = states_.back();
    const Position after   = make_move(before, mv);
    const std::size_t next = positions_.size();  // index of the new position

    PlyState st;
    st.key        = after.key();
    st.reversible = (mv.is_capture() || man_advanced(before, mv)) ? 0 : prev.reversible + 1;
    st.counters.fill(-1);
    // Only positions since the last irreversible move can repeat; same side to move = every
    // second ply.
    for (std::size_t back = 2; back <= static_cast<std::size_t>(st.reversible) && back <= next;
         back += 2) {
        const std::size_t i = next - back;
        if (states_[i].key == st.key && positions_[i] == after) {
            ++st.repetitions;
        }
    }
    for (std::size_t i = 0; i < slot_count_; ++i) {
        const Slot& s = slots_[i];
        const int c   = prev.counters[i];
        switch (s.kind) {
        case SlotKind::TotalPlies:
            st.counters[i] = c + 1;
            break;
        case SlotKind::NoProgress:
            st.counters[i] = progress_resets(s.progress, before, mv) ? 0 : c + 1;
            break;
        case SlotKind::Endgame: {
            const EndgameMatch e = match_endgame(s.rule, after);
            if (!e.active) {
                st.counters[i] = -1;
            } else if (c < 0 || mv.is_capture() || (s.reset_on_crowning && mv.promotes)) {
                st.counters[i] = 0;  // the balance arose (or changed) with this move
            } else if (s.stronger_moves) {
                st.counters[i] = before.side == e.strong ? c + 1 : c;
            } else {
                st.counters[i] = c + 1;
            }
            break;
        }
        }
    }

    positions_.push_back(after);
    moves_.push_back(mv);
    refresh_legal();
    st.result = evaluate(after, st);
    states_.push_back(st);
    result_ = st.result;
    if (result_.over()) {
        legal_.clear();
    }
    return result_;
}

Expected<GameResult> Game::play(std::string_view move_text) {
    if (is_over()) {
        return Error{over_error(*this)};
    }
    auto m = parse_move(position(), move_text, movegen_options());
    if (!m) {
        return Error{m.error()};
    }
    return play(*m);
}

Expected<GameResult> Game::undo() {
    if (moves_.empty()) {
        return Error{"no move to take back"};
    }
    positions_.pop_back();
    moves_.pop_back();
    states_.pop_back();
    result_ = states_.back().result;
    refresh_legal();
    if (result_.over()) {
        legal_.clear();
    }
    return result_;
}

// ---------------------------------------------------------------------------------------------
// Results and endings

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

// ---------------------------------------------------------------------------------------------
// Counters

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
