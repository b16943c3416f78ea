// Peer: a connected client as the game layer sees it (no sockets here). send() is thread-safe
// and never blocks; a peer whose queue overflows is disconnected by the transport.
// Identity: who the peer is once it has said hello.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace papan::server {

struct Identity {
    std::string player_id;  // "u<id>" (account) or "g<hash>" (guest); empty before hello
    std::string name;
    std::optional<std::int64_t> user_id;
    // An account the operator's rule keeps out of rated games (--rated-requires oidc: not
    // signed in with the OpenID Connect provider).
    bool rating_barred = false;

    [[nodiscard]] bool known() const noexcept { return !player_id.empty(); }

    [[nodiscard]] bool may_rate() const noexcept { return user_id.has_value() && !rating_barred; }
};

// The player id of an account: "u" and its number.
[[nodiscard]] inline std::string account_player_id(std::int64_t user_id) {
    std::string id = "u";  // not "u" + to_string: GCC 12 warns falsely (-Wrestrict) on that
    id += std::to_string(user_id);
    return id;
}

// The account of a player id ("u<id>"); nullopt for a guest's or anything else.
[[nodiscard]] inline std::optional<std::int64_t> account_of(std::string_view player_id) {
    if (player_id.size() < 2 || player_id.size() > 19 || player_id.front() != 'u' ||
        player_id.find_first_not_of("0123456789", 1) != std::string_view::npos) {
        return std::nullopt;
    }
    return std::stoll(std::string(player_id.substr(1)));
}

class Peer {
public:
    virtual ~Peer()                                               = default;
    virtual void send(std::shared_ptr<const std::string> message) = 0;

    // A message about `game` (a room's state, event or error): a peer on another node learns
    // from it which games its player follows.
    virtual void send_game(std::shared_ptr<const std::string> message, const std::string& game) {
        (void)game;
        send(std::move(message));
    }

    void send_text(std::string message) {
        send(std::make_shared<const std::string>(std::move(message)));
    }
};

}  // namespace papan::server
