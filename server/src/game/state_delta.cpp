#include "game/state_delta.hpp"

#include <algorithm>
#include <cstddef>

namespace papan::server {

using Json = nlohmann::json;

namespace {

const Json& moves_of(const Json& state) {
    static const Json none = Json::array();
    const auto it          = state.find("moves");
    return it != state.end() && it->is_array() ? *it : none;
}

}  // namespace

Json state_delta(const Json& before, const Json& after) {
    Json delta = Json::object();
    for (const auto& [key, value] : after.items()) {
        if (key == "moves" || key == "chat") {
            continue;
        }
        const auto old = before.find(key);
        if (old == before.end() || *old != value || (key == "clock" && !value.is_null())) {
            delta[key] = value;
        }
    }
    const Json& was          = moves_of(before);
    const Json& now          = moves_of(after);
    std::size_t keep         = 0;
    const std::size_t common = std::min(was.size(), now.size());
    while (keep < common && was[keep] == now[keep]) {
        ++keep;
    }
    if (keep != was.size() || keep != now.size()) {
        Json add = Json::array();
        for (std::size_t i = keep; i < now.size(); ++i) {
            add.push_back(now[i]);
        }
        delta["moves_keep"] = keep;
        delta["moves_add"]  = std::move(add);
    }
    return delta;
}

}  // namespace papan::server
