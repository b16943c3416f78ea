#include "game_view.hpp"

namespace papan::loadtest {

void GameView::apply(const Json& st) {
    have_state = true;
    ply        = st.value("ply", 0);
    legal      = st.contains("legal_moves") && st["legal_moves"].is_array() ? st["legal_moves"]
                                                                            : Json::array();
    const std::string status = st.value("status", "");
    over     = (st.contains("result") && !st["result"].is_null()) || status == "over";
    playing  = status == "playing";
    turn     = st.value("turn", "");
    white_id = black_id = std::string{};
    if (st.contains("players") && st["players"].is_object()) {
        const Json& pl = st["players"];
        if (pl.contains("white") && pl["white"].is_object()) {
            white_id = pl["white"].value("id", "");
        }
        if (pl.contains("black") && pl["black"].is_object()) {
            black_id = pl["black"].value("id", "");
        }
    }
    moves.clear();
    if (st.contains("moves") && st["moves"].is_array()) {
        for (const auto& m : st["moves"]) {
            moves.push_back(m.is_object() ? m.value("text", "") : std::string{});
        }
    }
}

bool holds_seat(const Json& st, const std::string& id) {
    if (id.empty() || !st.contains("players") || !st["players"].is_object()) {
        return false;
    }
    for (const char* side : {"white", "black"}) {
        const auto it = st["players"].find(side);
        if (it != st["players"].end() && it->is_object() && it->value("id", "") == id) {
            return true;
        }
    }
    return false;
}

}  // namespace papan::loadtest
