// Services: what rooms, the lobby and handlers share (the handlers' context): the
// io_context rooms take their strands from, the injected clock and RNG seed, the store
// executor, the AI pool and the options. Owned by run_server; outlives every room and session.
#pragma once

#include "support/asio_config.hpp"

#include <papan/server/clock.hpp>
#include <papan/server/server.hpp>

#include <cstdint>

namespace papan::server {

class StoreExecutor;
class AiPool;
class Lobby;
class GamePlacement;

struct Services {
    net::io_context& ioc;
    const Clock& clock;
    StoreExecutor& store;
    AiPool& ai;
    const ServerOptions& options;
    std::uint64_t seed       = 0;
    Lobby* lobby             = nullptr;
    GamePlacement* placement = nullptr;  // several nodes (--bus); nullptr: this node is alone
};

}  // namespace papan::server
