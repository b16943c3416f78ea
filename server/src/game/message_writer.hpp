// MessageWriter: the messages the game layer sends, as the protocol's codec writes them
// (api/wire_codec.cpp implements it; the composition root hands it to the game layer in its
// Services). The game layer decides what to say in typed values and never spells a message.
#pragma once

#include "game/events.hpp"

#include <papan/core/types.hpp>
#include <papan/server/game_kinds.hpp>
#include <papan/server/store.hpp>
#include <papan/server/time_control.hpp>

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace papan::server {

class GameSession;

class MessageWriter {
public:
    virtual ~MessageWriter() = default;

    // {"type":"error","code","message","ref"?}
    [[nodiscard]] virtual std::string
    error(ErrorCode code, std::string_view message, Ref ref) const = 0;
    // {"type":"state","game","version","state":{...},"ref"?}: the whole state at now_ms.
    [[nodiscard]] virtual std::string
    state(const GameSession& s, std::int64_t now_ms, Ref ref) const = 0;
    // {"type":"event","game","version","event":{...},"delta":{...}}: `e`, the change that made
    // `s` what it is (version s.version()), with the fields of the state it changed (a start
    // carries the whole "state" instead).
    [[nodiscard]] virtual std::string
    event(const GameSession& s, const GameEvent& e, std::int64_t now_ms) const = 0;
    // {"type":"resumed","game","version","ref"?}: nothing was missed.
    [[nodiscard]] virtual std::string
    resumed(const std::string& game, std::int64_t version, Ref ref) const = 0;
    // {"type":"presence","game","present":{"white","black"}}: whether each side's player is
    // connected (by colour index).
    [[nodiscard]] virtual std::string presence(const std::string& game,
                                               const std::array<bool, 2>& present) const = 0;
    // {"type":"created","game","mode","invite"?,"link"?,"expires_ms"?,"ref"?}
    [[nodiscard]] virtual std::string
    created(const GameRecord& rec, const std::string& invite, Ref ref) const = 0;
    // {"type":"seeking","variant","clock","wait_ms","ref"?}
    [[nodiscard]] virtual std::string seeking(const std::string& variant,
                                              const TimeControl& clock,
                                              std::int64_t wait_ms,
                                              Ref ref) const = 0;
    // {"type":"paired","game","computer","level"?}
    [[nodiscard]] virtual std::string
    paired(const std::string& game, bool computer, Level level) const = 0;
    // {"type":"seek_cancelled","cancelled","ref"?}
    [[nodiscard]] virtual std::string seek_cancelled(bool cancelled, Ref ref) const = 0;
};

}  // namespace papan::server
