#include <papan/loadtest/state_delta.hpp>

#include <cstddef>

namespace papan::loadtest {

using Json = nlohmann::json;

bool apply_state_delta(Json& state, const Json& delta) {
    if (!state.is_object() || !delta.is_object()) {
        return false;
    }
    const bool cuts = delta.contains("moves_keep");
    if (cuts != delta.contains("moves_add")) {
        return false;
    }
    if (cuts) {
        const Json& keep = delta["moves_keep"];
        const Json& add  = delta["moves_add"];
        const Json& was  = state.contains("moves") ? state["moves"] : Json::array();
        if (!keep.is_number_unsigned() || !add.is_array() || !was.is_array() ||
            keep.get<std::size_t>() > was.size()) {
            return false;
        }
    }
    if (delta.contains("chat_add") &&
        (!delta["chat_add"].is_array() || !state.contains("chat") || !state["chat"].is_array())) {
        return false;
    }
    for (const auto& [key, value] : delta.items()) {
        if (key != "moves_keep" && key != "moves_add" && key != "chat_add") {
            state[key] = value;
        }
    }
    if (delta.contains("chat_add")) {
        Json& chat = state["chat"];
        for (const auto& l : delta["chat_add"]) {
            chat.push_back(l);
        }
        constexpr std::size_t kChatKept = 100;
        if (chat.size() > kChatKept) {
            chat.erase(chat.begin(),
                       chat.begin() + static_cast<std::ptrdiff_t>(chat.size() - kChatKept));
        }
    }
    if (cuts) {
        Json& moves = state["moves"];
        if (!moves.is_array()) {
            moves = Json::array();
        }
        const auto keep = delta["moves_keep"].get<std::size_t>();
        moves.erase(moves.begin() + static_cast<std::ptrdiff_t>(keep), moves.end());
        for (const auto& m : delta["moves_add"]) {
            moves.push_back(m);
        }
    }
    return true;
}

GameFrame take_game_frame(Json& state, const Json& msg) {
    const std::int64_t version = msg.value("version", std::int64_t{-1});
    const bool known        = state.is_object() && state.value("id", "") == msg.value("game", "");
    const std::int64_t have = known ? state.value("version", std::int64_t{-1}) : -1;
    if (msg.contains("state") && msg["state"].is_object()) {
        if (known && version < have) {
            return GameFrame::Old;
        }
        state = msg["state"];
        return GameFrame::Applied;
    }
    if (known && version <= have) {
        return GameFrame::Old;
    }
    if (!known || version != have + 1 || !msg.contains("delta")) {
        return GameFrame::Gap;
    }
    // In place: apply_state_delta checks the whole delta before it changes anything, so a
    // delta that does not fit leaves the state as it was (no copy of the state per event).
    if (!apply_state_delta(state, msg["delta"])) {
        return GameFrame::Gap;
    }
    return GameFrame::Applied;
}

void add_full_state(std::map<std::string, Json>& states, Json& msg) {
    const std::string type = msg.value("type", "");
    if (type != "event" && type != "state") {
        return;
    }
    Json& state      = states[msg.value("game", "")];
    const auto frame = take_game_frame(state, msg);
    if (type == "event") {
        msg["state"] = frame == GameFrame::Gap ? Json(nullptr) : state;
    }
}

}  // namespace papan::loadtest
