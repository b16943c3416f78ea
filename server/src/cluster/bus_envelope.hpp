// The envelope of every message between nodes on the Redis bus (docs/operations.md, "Cluster
// trust"): one JSON object with its kind, the sending node and the time it was sent, sealed with
// an HMAC-SHA256 over the exact JSON text under the secret every node shares
// (--cluster-secret or PAPAN_CLUSTER_SECRET). On the wire: 64 hex digits of the MAC, a newline,
// the JSON. A message whose MAC does not check, that is not one JSON object, or that is older
// or newer than the replay window is refused (with the reason) and never acted on.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

namespace papan::server {

inline constexpr std::int64_t kBusReplayWindowMs = 30'000;

// The nodes' shared secret: `option` (--cluster-secret), else the environment variable
// PAPAN_CLUSTER_SECRET. Throws std::runtime_error, naming `needed_by`, when it has fewer than 16
// characters.
[[nodiscard]] std::string cluster_secret(const std::string& option, std::string_view needed_by);

class BusSealer {
public:
    // `secret`: any length; it is hashed to the HMAC key.
    explicit BusSealer(std::string_view secret);

    [[nodiscard]] std::string seal(const nlohmann::json& message) const;

    struct Refused {
        std::string reason;
    };

    // The message, parsed once; `now_ms` checks its "at" against the replay window.
    [[nodiscard]] std::variant<nlohmann::json, Refused> open(std::string_view payload,
                                                             std::int64_t now_ms) const;

private:
    std::string key_;  // 32 bytes
};

}  // namespace papan::server
