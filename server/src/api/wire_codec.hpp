// The protocol's codec, writing side (docs/protocol.md, "WebSocket"): every server message,
// written straight into its string with JsonWriter (papan_wire), no document tree. An event is
// written from the session it made and the event itself: its delta holds the fields that kind of
// event changes, never a comparison of whole states. The reading side is protocol.hpp.
#pragma once

#include "game/message_writer.hpp"
#include "game/peer.hpp"

#include <string>

namespace papan::server {

class WireMessages final : public MessageWriter {
public:
    [[nodiscard]] std::string
    error(ErrorCode code, std::string_view message, Ref ref) const override;
    [[nodiscard]] std::string
    state(const GameSession& s, std::int64_t now_ms, Ref ref) const override;
    [[nodiscard]] std::string
    event(const GameSession& s, const GameEvent& e, std::int64_t now_ms) const override;
    [[nodiscard]] std::string
    resumed(const std::string& game, std::int64_t version, Ref ref) const override;
    [[nodiscard]] std::string presence(const std::string& game,
                                       const std::array<bool, 2>& present) const override;
    [[nodiscard]] std::string
    created(const GameRecord& rec, const std::string& invite, Ref ref) const override;
    [[nodiscard]] std::string seeking(const std::string& variant,
                                      const TimeControl& clock,
                                      std::int64_t wait_ms,
                                      Ref ref) const override;
    [[nodiscard]] std::string
    paired(const std::string& game, bool computer, Level level) const override;
    [[nodiscard]] std::string seek_cancelled(bool cancelled, Ref ref) const override;

    // {"type":"welcome","player":{"id","name","account"},"secret"?,"ref"?}
    [[nodiscard]] static std::string
    welcome(const Identity& who, const std::string& secret, Ref ref);
    // The answer to a message whose handling threw: no internal text reaches the client.
    [[nodiscard]] static std::string internal_error();
    [[nodiscard]] static std::string error_text(ErrorCode code, std::string_view message, Ref ref);
};

}  // namespace papan::server
