// Services: what rooms, the lobby and the layers above them share (the handlers' context): the
// io_context rooms take their strands from, the injected clock and RNG seed, the store executor,
// the AI pool, the game layer's settings and the writer of its messages. Made by run_server
// (net/server.cpp); outlives every room and session.
#pragma once

#include "game/settings.hpp"
#include "support/asio_config.hpp"

#include <papan/server/clock.hpp>

#include <cstdint>

namespace papan::server {

class StoreExecutor;
class AiPool;
class Lobby;
class GamePlacement;
class MessageWriter;

struct Services {
    net::io_context& ioc;
    const Clock& clock;
    StoreExecutor& store;
    AiPool& ai;
    const GameSettings& settings;
    const MessageWriter& messages;
    std::uint64_t seed       = 0;
    Lobby* lobby             = nullptr;
    GamePlacement* placement = nullptr;  // several nodes (--bus); nullptr: this node is alone
};

}  // namespace papan::server
