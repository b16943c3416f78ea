// The tool's view of the game a session plays, read from the server's `state` objects
// (docs/protocol.md, "Game state"): what it needs to pick and send the next move.
#pragma once

#include "asio_types.hpp"

#include <string>
#include <vector>

namespace papan::loadtest {

struct GameView {
    bool have_state = false;
    int ply         = 0;
    Json legal      = Json::array();  // the state's legal_moves
    std::vector<std::string> moves;   // by ply: the text of each move played
    bool over    = false;
    bool playing = false;
    std::string turn;  // "white" or "black"
    std::string white_id;
    std::string black_id;

    // Takes the fields of a state object (anything missing reads as empty).
    void apply(const Json& state);
};

// Whether player `id` holds a seat in the game of `state`.
[[nodiscard]] bool holds_seat(const Json& state, const std::string& id);

}  // namespace papan::loadtest
