// The reconnection policy of `--reconnect` (pure functions): how long to wait before the next
// attempt, which server node to try, and what became of the move in flight at a drop.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace papan::loadtest {

// Reconnection: the wait before attempt `attempt` (0, 1, ...): 100 ms doubling to at most 1 s.
[[nodiscard]] std::int64_t backoff_ms(int attempt);
// The URL (index into the list) of player `player` (0 or 1) of game slot `slot`: the players of
// the slots go round robin over the list, so with two URLs the two players of a friend game are
// on different nodes.
[[nodiscard]] std::size_t initial_url(int slot, int player, std::size_t url_count);
// The URL a reconnection tries next: the one after `current`.
[[nodiscard]] std::size_t next_url(std::size_t current, std::size_t url_count);

// What became of the move in flight when a connection dropped, judged from the game's state as
// the server gives it after the resume.
enum class InFlight {
    NotStored,   // the server's ply is still the move's ply: send it again
    Stored,      // the server has the move at its ply: stored, its ack was not seen
    Different,   // the server has another move at that ply
    RolledBack,  // the server is behind the move's ply: acknowledged moves are missing
};
[[nodiscard]] InFlight classify_in_flight(int pending_ply,
                                          const std::string& sent_text,
                                          int server_ply,
                                          const std::vector<std::string>& server_moves);
[[nodiscard]] std::string in_flight_name(InFlight f);

}  // namespace papan::loadtest
