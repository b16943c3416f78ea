// Room: who of the players is connected (docs/protocol.md, "Presence"). A side's player is
// present while a connection of theirs follows the game (a subscriber with their player id);
// the computer and an empty seat always are. In games between people the room looks every few
// seconds while the game is played, and when a player comes back; a change goes to every
// subscriber as {"type": "presence", "game", "present": {"white", "black"}}, so the one still
// there learns that the other has left while their clock runs, and when they are back. Not
// stored, not versioned: it is about connections, not the game.
#include "game/message_writer.hpp"
#include "game/room.hpp"

#include <chrono>

namespace papan::server {

namespace {

constexpr auto kPresenceCheck = std::chrono::seconds(3);

}  // namespace

std::array<bool, 2> Room::presence_now() const {
    std::array<bool, 2> out{true, true};
    for (int c = 0; c < 2; ++c) {
        const auto& seat = session_.header.seats[static_cast<std::size_t>(c)];
        if (seat.computer || seat.player_id.empty()) {
            continue;
        }
        bool connected = false;
        for (const auto& s : subscribers_) {
            connected = connected || (s.player_id == seat.player_id && !s.peer.expired());
        }
        out[static_cast<std::size_t>(c)] = connected;
    }
    return out;
}

void Room::check_presence() {
    if (closed_) {
        return;
    }
    const auto now = presence_now();
    if (now == present_) {
        return;
    }
    present_        = now;
    const auto text = std::make_shared<const std::string>(svc_.messages.presence(id_, present_));
    for (const auto& p : live_subscribers()) {
        p->send_game(text, id_);
    }
}

void Room::arm_presence() {
    const bool between_people = session_.header.mode != GameMode::Hotseat &&
                                !session_.is_computer(core::Color::White) &&
                                !session_.is_computer(core::Color::Black);
    if (closed_ || session_.header.status != GameStatus::Playing || !between_people) {
        presence_timer_.cancel();
        return;
    }
    presence_timer_.expires_after(kPresenceCheck);
    std::weak_ptr<Room> weak = shared_from_this();
    presence_timer_.async_wait([weak](const boost::system::error_code& ec) {
        if (ec) {
            return;
        }
        if (auto self = weak.lock()) {
            self->check_presence();
            self->arm_presence();
        }
    });
}

}  // namespace papan::server
