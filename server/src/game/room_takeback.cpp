// Room: takebacks between people (docs/protocol.md, "Takebacks"): in friend and random games
// that are not rated, a player asks to take back their last move (and the reply since, if the
// opponent has answered it); the opponent accepts or declines. One request at a time; a move or
// the end of the game answers it. The request is not stored: a restart forgets it.
#include "game/game_json.hpp"
#include "game/room.hpp"

namespace papan::server {

using Json = nlohmann::json;

int Room::takeback_plies(core::Color by) const {
    // `by` to move: the opponent has answered, so its reply goes too. Moves alternate, so the
    // ply before the reply is by's; a game whose only move is the opponent's has none of by's.
    const int plies = game_.side_to_move() == by ? 2 : 1;
    return game_.ply() >= plies ? plies : 0;
}

void Room::on_takeback(const ClientMessage& m, core::Color me, const std::shared_ptr<Peer>& peer) {
    const bool between_people = (rec_.mode == GameMode::Friend || rec_.mode == GameMode::Random) &&
                                !is_computer(core::Color::White) &&
                                !is_computer(core::Color::Black);
    if (!between_people || rec_.rated) {
        send_error(peer,
                   "takeback_not_allowed",
                   "takebacks are for unrated friend and random games between people",
                   m.id);
        return;
    }
    if (rec_.status != GameStatus::Playing || game_.is_over()) {
        send_error(peer,
                   rec_.status == GameStatus::Waiting ? "not_started" : "game_over",
                   rec_.status == GameStatus::Waiting
                       ? "the game has not started: waiting for the opponent"
                       : "the game is over: " + rec_.result_text,
                   m.id);
        return;
    }
    const Origin origin{peer, m.id};
    if (m.type == MessageType::TakebackOffer) {
        if (takeback_offer_ == me) {
            send_error(peer, "already_offered", "you have already asked to take back", m.id);
            return;
        }
        if (takeback_offer_) {
            send_error(peer, "already_offered", "your opponent's takeback request waits", m.id);
            return;
        }
        if (takeback_plies(me) == 0) {
            send_error(peer, "nothing_to_undo", "you have no move to take back", m.id);
            return;
        }
        begin_change();
        takeback_offer_ = me;
        commit(
            Json{{"kind", "takeback_offer"}, {"by", color_key(me)}}, [](Store&) {}, origin);
        return;
    }
    if (!takeback_offer_ || *takeback_offer_ == me) {
        send_error(peer, "no_takeback_offer", "there is no takeback request to answer", m.id);
        return;
    }
    const core::Color asker = *takeback_offer_;
    if (m.type == MessageType::TakebackDecline) {
        begin_change();
        takeback_offer_ = std::nullopt;
        commit(
            Json{{"kind", "takeback_decline"}, {"by", color_key(me)}}, [](Store&) {}, origin);
        return;
    }
    const int plies = takeback_plies(asker);
    begin_change();
    takeback_offer_ = std::nullopt;
    const auto now  = svc_.clock.now_ms();
    if (clock_running()) {
        // The clocks keep the time spent: the side thinking until now (the accepter, or the
        // asker when the opponent had answered) is charged for it, as by a move.
        auto& pc = clock_of(game_.side_to_move());
        pc       = clock_after_move(tc_, pc, now - turn_started_ms_).value_or(PlayerClock{});
    }
    turn_started_ms_ = now;  // the asker's clock runs from the acceptance
    take_back(plies, Json{{"kind", "undo"}, {"plies", plies}, {"by", color_key(me)}}, origin);
}

}  // namespace papan::server
