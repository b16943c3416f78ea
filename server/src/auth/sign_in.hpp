// What the OpenID Connect and Telegram sign-ins share (store thread): the records of a sign-in
// under way, kept by the hash of their secret (the state of an authorization request, a ticket),
// and accounts made by a sign-in from outside: no password, the outside identity linked in the
// same transaction.
#pragma once

#include <papan/server/store.hpp>

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace papan::server::auth {

inline constexpr std::int64_t kRequestTtlMs = 10 * 60 * 1000;  // an authorization request
inline constexpr std::int64_t kTicketTtlMs  = 10 * 60 * 1000;  // a ticket waiting for its finish

// Keeps `payload` (with "kind" and "expires_ms" added) under hash_secret(secret).
void put_pending(Store& s,
                 std::string_view kind,
                 const std::string& secret,
                 nlohmann::json payload,
                 std::int64_t now_ms,
                 std::int64_t ttl_ms);

// The record of that secret and kind, removed; nullopt when unknown, expired or of another kind.
[[nodiscard]] std::optional<nlohmann::json>
take_pending(Store& s, std::string_view kind, const std::string& secret, std::int64_t now_ms);

// Puts a taken record back until its own expiry (a ticket that did not finish yet).
void put_back(Store& s,
              const std::string& secret,
              const nlohmann::json& record,
              std::int64_t now_ms);

// A username for a new account from a hint (a Telegram username, a person's name): its ASCII
// letters, digits, '_' and '-', at most 24; `fallback` when fewer than 3 are left.
[[nodiscard]] std::string username_from(std::string_view hint, std::string_view fallback);

// A new account without a password, the identity linked, in one transaction; nullopt when the
// name is taken. Throws when the identity belongs to another user already (a race with another
// sign-in of the same person: the caller looks it up again).
[[nodiscard]] std::optional<UserRecord> create_linked_user(Store& s,
                                                           const std::string& username,
                                                           const std::string& issuer,
                                                           const std::string& subject,
                                                           std::int64_t now_ms);

// The same with the first free name of `name`, `name` and a number (a few tries).
[[nodiscard]] std::optional<UserRecord> create_linked_user_any_name(Store& s,
                                                                    const std::string& name,
                                                                    const std::string& issuer,
                                                                    const std::string& subject,
                                                                    std::int64_t now_ms);

// The value of a cookie in a Cookie header ("" when absent).
[[nodiscard]] std::string cookie_value(std::string_view header, std::string_view name);

}  // namespace papan::server::auth
