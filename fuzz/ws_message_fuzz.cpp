// libFuzzer target: the server's WebSocket message decoder, server::decode_client_message
// (server/src/api/protocol.cpp), the function that turns a client's text frame into a typed
// request or a ProtocolError, and the bus form a game's request travels in between nodes
// (server/src/cluster/bus_requests.cpp). The whole input is the frame's text. Decoding must never
// throw or crash; a decoded request must respect the limits the decoder promises, and a game's
// request must come back from its bus form unchanged.
#include "cluster/bus_requests.hpp"
#include "fuzz_check.hpp"

#include <papan/server/protocol.hpp>
#include <papan/server/wire/names.hpp>

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

void check_error(const ProtocolError& err) {
    check(!wire::name(err.code).empty(), "an error without a code");
    check(!err.message.empty(), "an error without a message");
}

void check_clock(const TimeControl& tc) {
    check(tc.kind == TimeKind::ByoYomi || tc.kind == TimeKind::Fischer, "a clock of no kind");
    check(tc.main_ms >= 0 && tc.main_ms <= 86'400'000, "main time out of range");
    check(tc.periods >= 0 && tc.periods <= 10, "periods out of range");
}

void check_game_request(const GameRequest& r) {
    check(!r.game.empty() && r.game.size() <= 64, "a game id out of its limits");
    if (const auto* c = std::get_if<GameCommand>(&r.what)) {
        const auto& m = c->move;
        check(small_squares(m.path) && small_squares(m.captures), "a square list out of range");
        for (const auto& n : {m.ply, m.from, m.to}) {
            check(!n || (*n >= 0 && *n <= 1'000'000), "a small integer out of range");
        }
        check(m.text.size() <= 200 && c->text.size() <= kMaxMessageBytes, "a text over its limit");
        check(c->kind == CommandKind::Chat || c->text.empty(), "a chat line on another command");
    }
    const auto back = request_from_json(request_json(r));
    check(back.has_value() && *back == r, "a game's request changed on its way through the bus");
}

}  // namespace

// One input; returns 0. A finding aborts.
int one_input(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    const auto decoded = decode_client_message(text);

    if (const auto* err = std::get_if<ProtocolError>(&decoded)) {
        check_error(*err);
        return 0;
    }
    const auto& m = std::get<ClientRequest>(decoded);
    check(message_type_from_name(message_type_name(m.type)) == m.type, "type name round trip");
    if (const auto* h = std::get_if<Hello>(&m.what)) {
        check(h->name.size() <= 64 && h->secret.size() <= 128 && h->token.size() <= 128,
              "a hello field over its limit");
    } else if (const auto* c = std::get_if<CreateRequest>(&m.what)) {
        check(c->mode == GameMode::Computer || c->mode == GameMode::Friend ||
                  c->mode == GameMode::Hotseat,
              "a create of a mode that cannot be created");
        check(c->level != Level::None, "a create without a level");
        check(c->fen.size() <= 400, "a FEN over its limit");
        if (c->clock && c->clock->kind != TimeKind::None) {
            check_clock(*c->clock);
        }
    } else if (const auto* s = std::get_if<SeekRequest>(&m.what)) {
        check_clock(s->clock);
    } else if (const auto* j = std::get_if<JoinInvite>(&m.what)) {
        check(!j->invite.empty() && j->invite.size() <= 128, "an invite out of its limits");
    } else if (const auto* g = std::get_if<GameRequest>(&m.what)) {
        check(g->ref == m.ref, "a game's request with another ref");
        check_game_request(*g);
    } else if (const auto* e = std::get_if<ProtocolError>(&m.what)) {
        check_error(*e);
    }
    return 0;
}

}  // namespace papan::fuzz::ws_message_fuzz

PAPAN_FUZZ_ENTRY(papan::fuzz::ws_message_fuzz::one_input)
