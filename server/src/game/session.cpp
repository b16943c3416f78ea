// GameSession: building one from its record, what it shows, and the changes every command ends
// in (a move played, plies taken back, an ending). The commands themselves are in
// session_commands.cpp.
#include "game/session.hpp"

#include <papan/core/notation/fen.hpp>
#include <papan/core/notation/move_text.hpp>
#include <papan/core/rules/registry.hpp>

#include <stdexcept>

namespace papan::server {

namespace {

std::size_t at(core::Color c) {
    return static_cast<std::size_t>(core::index(c));
}

}  // namespace

core::Expected<GameSession> GameSession::from_record(GameRecord rec, std::int64_t now_ms) {
    const auto v = core::variant_from_key(rec.variant);
    if (!v) {
        return core::Error{"unknown variant '" + rec.variant + "'"};
    }
    auto pos = core::parse_fen(*v, rec.start_fen);
    if (!pos) {
        return core::Error{"bad start position: " + pos.error()};
    }
    core::GameOptions opts;
    opts.forced_capture = rec.forced_capture;
    opts.draw_rules     = rec.draw_rules;
    auto created        = core::Game::create(*pos, opts);
    if (!created) {
        return core::Error{created.error()};
    }
    GameSession s(std::move(created).value());
    for (const auto& m : rec.moves) {
        if (auto r = s.game.play(m.text); !r) {
            return core::Error{"game " + rec.id + ": stored move " + std::to_string(m.ply) + " '" +
                               m.text + "' does not replay: " + r.error()};
        }
        s.move_times.push_back(m.at_ms);
    }
    // Endings that are not a move are recorded by outcome and reason.
    auto& g = s.game;
    if (rec.status == GameStatus::Over && !g.is_over()) {
        const auto loser =
            rec.outcome == core::Outcome::WhiteWins ? core::Color::Black : core::Color::White;
        switch (rec.reason) {
        case EndReason::Resignation:
            (void)g.resign(loser);
            break;
        case EndReason::Agreement:
            (void)g.agree_draw();
            break;
        case EndReason::Timeout:
        case EndReason::TimeoutWithDrawClaimable:
        case EndReason::TimeoutOpponentCannotWin:
            // The flagged side: the loser, or for a timeout draw the side that was to move.
            (void)g.flag(rec.outcome == core::Outcome::Draw ? g.side_to_move() : loser);
            break;
        case EndReason::Repetition:
        case EndReason::InsufficientMaterial:
            (void)g.claim_draw();
            break;
        case EndReason::None:
        case EndReason::NoPieces:
        case EndReason::NoMoves:
        case EndReason::NoProgress:
        case EndReason::MoveLimit:
        case EndReason::EndgameRule:
        case EndReason::Aborted:
        case EndReason::Abandoned:
        case EndReason::Imported:
            break;
        }
    }
    s.clock = GameClock::fresh(rec.time_control, now_ms);  // a new game's turn starts now
    if (rec.time_control.enabled() && rec.clocks) {
        s.clock.state = *rec.clocks;
    }
    s.chat = ChatLog(rec.chat);
    if (rec.status == GameStatus::Over) {
        Ratings r{};
        int found = 0;
        for (const auto c : {core::Color::White, core::Color::Black}) {
            const auto& seat = rec.seats[at(c)];
            for (const auto& change : rec.rating_changes) {
                if (seat.user_id && change.user_id == *seat.user_id) {
                    r[at(c)] = RatingMove{change.rating - change.change, change.rating};
                    ++found;
                    break;
                }
            }
        }
        if (found == 2) {
            s.ratings = r;
        }
    }
    rec.moves.clear();
    rec.chat.clear();
    rec.rating_changes.clear();
    s.header = std::move(rec);
    return s;
}

// ---- what it shows ---------------------------------------------------------------------------

bool GameSession::is_computer(core::Color c) const noexcept {
    return header.seats[at(c)].computer;
}

bool GameSession::owns(const Identity& who, core::Color c) const noexcept {
    return who.known() && header.seats[at(c)].player_id == who.player_id;
}

std::optional<core::Color> GameSession::owned_color(const Identity& who) const noexcept {
    if (owns(who, core::Color::White)) {
        return core::Color::White;
    }
    if (owns(who, core::Color::Black)) {
        return core::Color::Black;
    }
    return std::nullopt;
}

bool GameSession::playing() const noexcept {
    return header.status == GameStatus::Playing && !game.is_over();
}

bool GameSession::has_moved(core::Color c) const noexcept {
    const auto plies = game.moves().size();
    return plies >= 2 || (plies == 1 && game.start_position().side == c);
}

bool GameSession::first_moves_made() const noexcept {
    return game.moves().size() >= 2;
}

bool GameSession::clock_running() const noexcept {
    return clock.enabled() && playing() && first_moves_made();
}

bool GameSession::awaiting_first_move(const GameSettings& settings) const noexcept {
    return clock.enabled() && playing() && !first_moves_made() &&
           !is_computer(game.side_to_move()) && settings.first_move_timeout_ms > 0;
}

std::optional<std::int64_t> GameSession::clock_due_at(const GameSettings& settings) const {
    // Before both first moves no clock runs, but a person who never makes theirs would hold the
    // other forever: the game is aborted then. After them it is the flag of the side to move.
    if (awaiting_first_move(settings)) {
        return clock.state.turn_started_ms + settings.first_move_timeout_ms;
    }
    if (clock_running()) {
        return clock.state.turn_started_ms + clock.flag_due_ms(game.side_to_move());
    }
    return std::nullopt;
}

bool GameSession::computer_to_move() const noexcept {
    return playing() && is_computer(game.side_to_move());
}

bool GameSession::undo_mode() const noexcept {
    return header.mode == GameMode::Computer || header.mode == GameMode::Hotseat;
}

bool GameSession::over_for_good() const noexcept {
    if (!game.is_over()) {
        return false;
    }
    const auto reason = game.result().reason;
    return reason == core::Reason::Resignation || reason == core::Reason::Agreement;
}

int GameSession::undo_plies() const noexcept {
    if (!undo_mode() || over_for_good()) {
        return 0;
    }
    if (header.mode == GameMode::Hotseat) {
        return game.ply() >= 1 ? 1 : 0;
    }
    // The computer's reply (if it has moved) and the player's last move.
    const auto human = is_computer(core::Color::White) ? core::Color::Black : core::Color::White;
    const int plies  = game.side_to_move() == human ? 2 : 1;
    const auto first = game.start_position().side;
    if (game.ply() < plies || (game.ply() == plies && first != human)) {
        return 0;
    }
    return plies;
}

bool GameSession::between_people() const noexcept {
    return (header.mode == GameMode::Friend || header.mode == GameMode::Random) &&
           !is_computer(core::Color::White) && !is_computer(core::Color::Black);
}

bool GameSession::chat_allowed() const noexcept {
    return between_people();
}

GameRecord GameSession::record(std::int64_t now_ms) const {
    GameRecord r = header;
    r.clocks     = clock.state;
    r.updated_ms = now_ms;
    return r;
}

GameRecord GameSession::rematch_record() const {
    GameRecord next;
    next.variant        = header.variant;
    next.mode           = header.mode;
    next.level          = header.level;
    next.forced_capture = header.forced_capture;
    next.draw_rules     = header.draw_rules;
    next.start_fen      = header.start_fen;
    next.seats          = {header.seats[1], header.seats[0]};  // colours swap
    next.time_control   = header.time_control;
    next.status         = GameStatus::Playing;
    next.rated          = header.rated;
    next.rematch_of     = header.id;
    return next;
}

// ---- the changes -------------------------------------------------------------------------------

void GameSession::update_status() {
    if (game.is_over()) {
        const auto& r      = game.result();
        header.status      = GameStatus::Over;
        header.outcome     = r.outcome;
        header.reason      = static_cast<EndReason>(r.reason);
        header.result_text = game.result_text();
    } else if (header.status == GameStatus::Over) {
        header.status  = GameStatus::Playing;
        header.outcome = core::Outcome::Ongoing;
        header.reason  = EndReason::None;
        header.result_text.clear();
    }
}

Change GameSession::changed(GameEvent event, StoreWrite::Kind write, std::int64_t now_ms) {
    ++header.version;
    header.updated_ms = now_ms;
    Change c;
    c.event      = std::move(event);
    c.write.kind = write;
    return c;
}

Change GameSession::play(const core::Move& m, bool by_computer, std::int64_t now_ms) {
    const auto side    = game.side_to_move();
    const auto& before = game.position();
    if (clock_running() && !clock.charge(side, now_ms)) {  // a side's first move is not timed
        clock.flag(side);
    }
    std::string text       = core::move_text(before, m, game.legal_moves());
    const std::string full = core::move_text_full(before, m);
    if (auto r = game.play(m); !r) {
        throw std::logic_error("a checked move failed: " + r.error());
    }
    move_times.push_back(now_ms);
    clock.start_turn(now_ms);
    draw.clear();
    takeback.clear();  // a move answers a takeback request
    update_status();
    GameEvent e     = GameEvent::of(EventKind::Move);
    e.move          = game.moves().back();
    e.ply           = game.ply() - 1;
    e.mover         = side;
    e.text          = std::move(text);
    e.computer      = by_computer;
    Change c        = changed(std::move(e), StoreWrite::Kind::Move, now_ms);
    c.write.move    = MoveRecord{c.event.ply, full, now_ms};
    c.write.results = game.is_over();
    c.restart       = true;
    return c;
}

Change GameSession::take_back(int plies, GameEvent event, std::int64_t now_ms) {
    for (int i = 0; i < plies; ++i) {
        (void)game.undo();
        move_times.pop_back();
    }
    draw.clear();
    update_status();
    event.plies      = plies;
    Change c         = changed(std::move(event), StoreWrite::Kind::TakeBack, now_ms);
    c.write.from_ply = game.ply();
    c.restart        = true;
    return c;
}

Change GameSession::end(EventKind kind, core::Color by, std::int64_t now_ms) {
    // Precondition: `game` holds the ending. The side to move's time runs to now, unless no clock
    // ran yet (before both first moves) or it is its flag.
    if (clock.enabled() && first_moves_made() && kind != EventKind::Flag) {
        const auto side = game.side_to_move();
        if (!clock.charge(side, now_ms)) {
            clock.flag(side);
        }
        clock.start_turn(now_ms);
    }
    draw.clear();
    takeback.clear();
    update_status();
    Change c        = changed(GameEvent::of(kind, by), StoreWrite::Kind::Header, now_ms);
    c.write.results = true;
    return c;
}

Change GameSession::flag(core::Color side, std::int64_t now_ms) {
    clock.flag(side);
    (void)game.flag(side);
    return end(EventKind::Flag, side, now_ms);
}

Change GameSession::abort(std::int64_t now_ms) {
    // Aborted: nobody won, nothing is rated or rewarded, the clocks keep their full time.
    const auto side    = game.side_to_move();
    header.status      = GameStatus::Over;
    header.outcome     = core::Outcome::Ongoing;
    header.reason      = EndReason::Aborted;
    header.result_text = std::string("Aborted: ") +
                         (side == core::Color::White ? "White" : "Black") +
                         " made no first move in time";
    draw.clear();
    takeback.clear();
    return changed(GameEvent::of(EventKind::Abort, side), StoreWrite::Kind::Header, now_ms);
}

std::optional<Change> GameSession::clock_due(std::int64_t now_ms, const GameSettings& settings) {
    if (awaiting_first_move(settings)) {
        if (clock.elapsed(now_ms) >= settings.first_move_timeout_ms) {
            return abort(now_ms);
        }
        return std::nullopt;
    }
    if (clock_running() && clock.flagged(game.side_to_move(), now_ms)) {
        return flag(game.side_to_move(), now_ms);
    }
    return std::nullopt;
}

Change GameSession::computer_move(const core::Move& m, std::int64_t now_ms) {
    return play(m, true, now_ms);
}

Change GameSession::rematch_made(std::string new_game) {
    rematch.made(new_game);
    GameEvent e = GameEvent::of(EventKind::Rematch);
    e.game      = std::move(new_game);
    return changed(std::move(e), StoreWrite::Kind::None, header.updated_ms);
}

}  // namespace papan::server
