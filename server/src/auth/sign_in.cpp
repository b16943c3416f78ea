#include "auth/sign_in.hpp"

#include <papan/server/tokens.hpp>

#include <cctype>
#include <stdexcept>

namespace papan::server::auth {

using Json = nlohmann::json;

void put_pending(Store& s,
                 std::string_view kind,
                 const std::string& secret,
                 Json payload,
                 std::int64_t now_ms,
                 std::int64_t ttl_ms) {
    payload["kind"]       = kind;
    payload["expires_ms"] = now_ms + ttl_ms;
    s.put_auth_pending(hash_secret(secret), payload.dump(), now_ms + ttl_ms, now_ms);
}

std::optional<Json>
take_pending(Store& s, std::string_view kind, const std::string& secret, std::int64_t now_ms) {
    if (secret.empty() || secret.size() > 128) {
        return std::nullopt;
    }
    const auto stored = s.take_auth_pending(hash_secret(secret), now_ms);
    if (!stored) {
        return std::nullopt;
    }
    Json j = Json::parse(*stored, nullptr, false);
    if (!j.is_object() || !j.contains("kind") || j["kind"] != kind) {
        return std::nullopt;
    }
    return j;
}

void put_back(Store& s, const std::string& secret, const Json& record, std::int64_t now_ms) {
    const auto expires = record.value("expires_ms", std::int64_t{0});
    if (expires > now_ms) {
        s.put_auth_pending(hash_secret(secret), record.dump(), expires, now_ms);
    }
}

std::string username_from(std::string_view hint, std::string_view fallback) {
    std::string out;
    for (const char c : hint) {
        if (std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' || c == '-') {
            out += c;
        } else if (c == ' ' && !out.empty() && out.back() != '_') {
            out += '_';
        }
        if (out.size() == 24) {
            break;
        }
    }
    while (!out.empty() && out.back() == '_') {
        out.pop_back();
    }
    return out.size() >= 3 ? out : std::string(fallback.substr(0, 24));
}

std::optional<UserRecord> create_linked_user(Store& s,
                                             const std::string& username,
                                             const std::string& issuer,
                                             const std::string& subject,
                                             std::int64_t now_ms) {
    std::optional<UserRecord> out;
    s.transaction([&] {
        UserRecord u{0, username, "", now_ms};
        const auto id = s.create_user(u);
        if (!id) {
            return;
        }
        u.id = *id;
        if (!s.link_identity(ExternalIdentityRecord{issuer, subject, u.id, now_ms})) {
            // Rolls the new account back with the transaction.
            throw std::runtime_error("the identity was linked by another sign-in meanwhile");
        }
        out = u;
    });
    return out;
}

std::optional<UserRecord> create_linked_user_any_name(Store& s,
                                                      const std::string& name,
                                                      const std::string& issuer,
                                                      const std::string& subject,
                                                      std::int64_t now_ms) {
    for (int attempt = 0; attempt < 6; ++attempt) {
        std::string candidate = name;
        if (attempt > 0) {
            // name_2, name_3, then a random number: a short name first, and no endless loop.
            // (std::string and +=: "_" + a temporary trips GCC 12's -Wrestrict false positive.)
            std::string suffix(1, '_');
            suffix += attempt < 3 ? std::to_string(attempt + 1)
                                  : std::to_string(std::stoul(random_hex(2), nullptr, 16));
            candidate = name.substr(0, 24 - suffix.size()) + suffix;
        }
        if (auto u = create_linked_user(s, candidate, issuer, subject, now_ms)) {
            return u;
        }
    }
    return std::nullopt;
}

std::string cookie_value(std::string_view header, std::string_view name) {
    while (!header.empty()) {
        const auto semi       = header.find(';');
        std::string_view part = header.substr(0, semi);
        header = semi == std::string_view::npos ? std::string_view{} : header.substr(semi + 1);
        while (!part.empty() && part.front() == ' ') {
            part.remove_prefix(1);
        }
        const auto eq = part.find('=');
        if (eq != std::string_view::npos && part.substr(0, eq) == name) {
            return std::string(part.substr(eq + 1));
        }
    }
    return {};
}

}  // namespace papan::server::auth
