#include "game/state_delta.hpp"

#include <algorithm>
#include <cstddef>

namespace papan::server {

using Json = nlohmann::json;

namespace {

// The lines of `after`'s chat that `before`'s has not: the chat only grows at its end (and loses
// its oldest lines past the state's cap), so after = before[k:] + new for the least such k.
Json chat_added(const Json& was, const Json& now) {
    for (std::size_t k = 0; k <= was.size(); ++k) {
        const std::size_t overlap = was.size() - k;
        if (overlap > now.size()) {
            continue;
        }
        bool same = true;
        for (std::size_t i = 0; i < overlap && same; ++i) {
            same = was[k + i] == now[i];
        }
        if (same) {
            Json add = Json::array();
            for (std::size_t i = overlap; i < now.size(); ++i) {
                add.push_back(now[i]);
            }
            return add;
        }
    }
    return now;  // not reached: k = was.size() always fits
}

const Json& moves_of(const Json& state) {
    static const Json none = Json::array();
    const auto it          = state.find("moves");
    return it != state.end() && it->is_array() ? *it : none;
}

}  // namespace

Json state_delta(const Json& before, const Json& after) {
    Json delta = Json::object();
    for (const auto& [key, value] : after.items()) {
        if (key == "moves") {
            continue;
        }
        if (key == "chat" && value.is_array()) {
            const auto old = before.find(key);
            if (old == before.end() || !old->is_array()) {
                delta[key] = value;
            } else if (*old != value) {
                delta["chat_add"] = chat_added(*old, value);
            }
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
