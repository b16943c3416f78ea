// Game: the history of one game (positions, moves, the counters of each ply) and playing and
// taking back moves. The draw rules live in game_draw_rules.cpp, the results and the endings
// without a move in game_results.cpp.
#include "game_internal.hpp"

#include <papan/core/notation/move_text.hpp>
#include <papan/core/notation/squares.hpp>

namespace papan::core {

using game_detail::EndgameMatch;
using game_detail::man_advanced;
using game_detail::match_endgame;
using game_detail::over_error;
using game_detail::progress_resets;

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
}  // namespace papan::core
