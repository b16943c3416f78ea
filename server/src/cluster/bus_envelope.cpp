#include "cluster/bus_envelope.hpp"

#include <array>
#include <cstdlib>
#include <sodium.h>
#include <stdexcept>

namespace papan::server {

using Json = nlohmann::json;

namespace {

using Mac = std::array<unsigned char, crypto_auth_hmacsha256_BYTES>;

Mac mac_of(const std::string& key, std::string_view text) {
    Mac mac{};
    crypto_auth_hmacsha256(mac.data(),
                           reinterpret_cast<const unsigned char*>(text.data()),
                           text.size(),
                           reinterpret_cast<const unsigned char*>(key.data()));
    return mac;
}

}  // namespace

std::string cluster_secret(const std::string& option, std::string_view needed_by) {
    std::string secret = option;
    if (secret.empty()) {
        if (const char* env = std::getenv("PAPAN_CLUSTER_SECRET"); env != nullptr) {
            secret = env;
        }
    }
    if (secret.size() < 16) {
        throw std::runtime_error(std::string(needed_by) +
                                 " needs the nodes' shared secret (at least 16 characters): "
                                 "--cluster-secret or the environment variable "
                                 "PAPAN_CLUSTER_SECRET");
    }
    return secret;
}

BusSealer::BusSealer(std::string_view secret) : key_(crypto_auth_hmacsha256_KEYBYTES, '\0') {
    crypto_generichash(reinterpret_cast<unsigned char*>(key_.data()),
                       key_.size(),
                       reinterpret_cast<const unsigned char*>(secret.data()),
                       secret.size(),
                       nullptr,
                       0);
}

std::string BusSealer::seal(const Json& message) const {
    const std::string body = message.dump();
    const Mac mac          = mac_of(key_, body);
    std::string out(mac.size() * 2 + 1, '\0');
    sodium_bin2hex(out.data(), out.size(), mac.data(), mac.size());
    out.back() = '\n';
    out += body;
    return out;
}

std::variant<Json, BusSealer::Refused> BusSealer::open(std::string_view payload,
                                                       std::int64_t now_ms) const {
    constexpr std::size_t kHex = crypto_auth_hmacsha256_BYTES * 2;
    if (payload.size() <= kHex || payload[kHex] != '\n') {
        return Refused{"no MAC"};
    }
    Mac mac{};
    std::size_t len = 0;
    if (sodium_hex2bin(mac.data(), mac.size(), payload.data(), kHex, nullptr, &len, nullptr) != 0 ||
        len != mac.size()) {
        return Refused{"a malformed MAC"};
    }
    const std::string_view body = payload.substr(kHex + 1);
    if (crypto_auth_hmacsha256_verify(mac.data(),
                                      reinterpret_cast<const unsigned char*>(body.data()),
                                      body.size(),
                                      reinterpret_cast<const unsigned char*>(key_.data())) != 0) {
        return Refused{"a MAC that does not check (not sent by a node with the cluster secret)"};
    }
    Json j = Json::parse(body, nullptr, false);
    if (!j.is_object() || !j.contains("kind") || !j["kind"].is_string() || !j.contains("at") ||
        !j["at"].is_number_integer()) {
        return Refused{"not a bus message"};
    }
    if (std::llabs(now_ms - j["at"].get<std::int64_t>()) > kBusReplayWindowMs) {
        return Refused{"sent outside the replay window (a replay, or clocks far apart)"};
    }
    return j;
}

}  // namespace papan::server
