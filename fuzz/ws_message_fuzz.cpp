// libFuzzer target: the server's WebSocket message decoder, server::decode_client_message
// (server/src/api/protocol.cpp), the pure function that turns a client's text frame into a
// ClientMessage or a ProtocolError. The whole input is the frame's text. Decoding must never
// throw or crash; a decoded message must respect the field limits the decoder promises.
#include "fuzz_check.hpp"

#include <papan/server/protocol.hpp>

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <variant>
#include <vector>

namespace papan::fuzz::ws_message_fuzz {

using namespace papan::server;

namespace {

constexpr Checker check{"fuzz_ws_message"};

bool small_squares(const std::vector<int>& list) {
    if (list.size() > 64) {
        return false;
    }
    for (const int n : list) {
        if (n < 0 || n > 999) {
            return false;
        }
    }
    return true;
}

}  // namespace

// One input; returns 0. A finding aborts.
int one_input(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    const auto decoded = decode_client_message(text);

    if (const auto* err = std::get_if<ProtocolError>(&decoded)) {
        check(!err->code.empty(), "an error without a code");
        check(!err->message.empty(), "an error without a message");
        return 0;
    }
    const auto& m = std::get<ClientMessage>(decoded);
    check(message_type_from_name(message_type_name(m.type)) == m.type, "type name round trip");
    check(m.name.size() <= 64 && m.secret.size() <= 128 && m.token.size() <= 128 &&
              m.game.size() <= 64 && m.text.size() <= 200 && m.fen.size() <= 400 &&
              m.invite.size() <= 128 && m.mode.size() <= 32 && m.variant.size() <= 32 &&
              m.level.size() <= 32 && m.color.size() <= 32 && m.draw_rules.size() <= 32,
          "a string field over its limit");
    check(small_squares(m.path) && small_squares(m.captures), "a square list out of range");
    for (const auto& n : {m.ply, m.from, m.to}) {
        check(!n || (*n >= 0 && *n <= 1'000'000), "a small integer out of range");
    }
    if (m.clock) {
        check(m.clock->kind == TimeKind::ByoYomi || m.clock->kind == TimeKind::Fischer,
              "a clock of no kind");
        check(m.clock->main_ms >= 0 && m.clock->main_ms <= 86'400'000, "main time out of range");
        check(m.clock->periods >= 0 && m.clock->periods <= 10, "periods out of range");
        check(!m.no_clock, "both a clock and no clock");
    }
    return 0;
}

}  // namespace papan::fuzz::ws_message_fuzz

PAPAN_FUZZ_ENTRY(papan::fuzz::ws_message_fuzz::one_input)
