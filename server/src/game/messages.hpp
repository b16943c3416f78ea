// Small builders for server messages shared by the lobby, rooms and handlers.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace papan::server {

// {"type":"error","code":...,"message":...,"ref":id?}
[[nodiscard]] inline std::string
error_text(std::string_view code, std::string_view message, std::optional<std::int64_t> ref) {
    nlohmann::json j{{"type", "error"}, {"code", code}, {"message", message}};
    if (ref) {
        j["ref"] = *ref;
    }
    return j.dump();
}

// The answer to a WebSocket message whose handling threw: no internal text reaches the client.
[[nodiscard]] inline std::string internal_error_text() {
    return error_text("internal", "the server could not handle that message", std::nullopt);
}

}  // namespace papan::server
