// A client's side of events as deltas (docs/protocol.md, "Game state"): the state after an event
// from the state before it and the event's `delta`. Written from the protocol document, apart
// from the server's state_delta(), so the tests that play through it check the two against
// each other.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <string>

namespace papan::loadtest {

// Applies `delta` to `state` (the full state of the version before the event): every field in
// it replaces the state's, `moves_keep` / `moves_add` cut and extend the move list, and
// `chat_add` extends the chat (keeping its last 100 lines). Returns
// false, leaving `state` as it was, when the delta does not fit (not an object, `moves_keep`
// beyond the list).
bool apply_state_delta(nlohmann::json& state, const nlohmann::json& delta);

// What a client does with one `state` or `event` message of a game whose full state it keeps
// in `state` (null: none yet).
enum class GameFrame : std::uint8_t {
    Applied,  // `state` is now the message's version
    Old,      // a version already seen: ignore it
    Gap,      // a delta without its base: ask for the full state (resume without last_version)
};

// Updates `state` from `msg` (a state, or an event with `state` or `delta`).
GameFrame take_game_frame(nlohmann::json& state, const nlohmann::json& msg);

// A test client's view of a message: a state or event updates the kept state of its game in
// `states`, and an event gains `state`, the full state after it (null when its delta missed
// its base), as a client builds it.
void add_full_state(std::map<std::string, nlohmann::json>& states, nlohmann::json& msg);

}  // namespace papan::loadtest
