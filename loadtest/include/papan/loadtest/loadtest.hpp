// The load tool: N concurrent games of random legal moves over real
// WebSockets (hot-seat: one connection plays both sides; friend: two players on two connections,
// possibly on two server nodes), ack latency per move, optional reconnection when the server
// drops the sockets (the fault tests kill it), and a check of every game against what the server
// stored (GET /api/games/{id}) for lost or duplicated moves.
#pragma once

#include <papan/loadtest/options.hpp>
#include <papan/loadtest/reconnection.hpp>
#include <papan/loadtest/report.hpp>
#include <papan/loadtest/statistics.hpp>
#include <papan/loadtest/store_check.hpp>

namespace papan::loadtest {

// Runs the load; throws std::runtime_error when the options or the URLs are unusable. SIGINT or
// SIGTERM during the run ends the play at once (as if --duration were over): the moves in flight
// drain, the store is checked and the report is returned as usual.
[[nodiscard]] Report run(const Options& options);

}  // namespace papan::loadtest
