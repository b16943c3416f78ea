// The relying party of OpenID Connect's authorization code flow (OpenID Connect Core 1.0, section
// 3.1; Discovery 1.0; RFC 7636 PKCE): the provider's metadata from its
// /.well-known/openid-configuration, the authorization request (state, nonce, S256 code
// challenge), the code redeemed at the token endpoint, and the ID token checked (Core 3.1.3.7):
// RS256 signature by a key of the provider's JWK Set (cached; fetched again when a token names a
// key it does not hold), iss, aud/azp, exp, iat and nonce. docs/security.md, "Sign-in".
#pragma once

#include "auth/jwt.hpp"
#include "outbound/http_client.hpp"

#include <papan/server/clock.hpp>

#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <variant>

namespace papan::server::auth {

struct OidcSettings {
    std::string issuer;  // exactly as the provider names itself, e.g. https://accounts.google.com
    std::string client_id;
    std::string client_secret;
    std::string scopes = "openid profile";
};

struct ProviderMetadata {
    std::string issuer;
    std::string authorization_endpoint;
    std::string token_endpoint;
    std::string jwks_uri;
    bool secret_in_body = false;  // client_secret_post (only when the provider offers no basic)
};

// What a checked ID token says about the person.
struct IdClaims {
    std::string issuer;   // the configured issuer (Google's short form normalised to it)
    std::string subject;  // "sub": stable for the person at this issuer
    std::string name;     // "name", "given_name" or "" (a nickname suggestion only)
};

enum class IdTokenError : std::uint8_t {
    Malformed,      // not a JWT, or claims of the wrong types
    BadAlgorithm,   // "alg" is not RS256 ("none", HS256, ...)
    UnknownKey,     // no key of the provider's JWK Set has its "kid", even after a refresh
    BadSignature,   // the signature does not verify
    WrongIssuer,    // "iss" is not the provider
    WrongAudience,  // "aud" does not hold our client id, or "azp" names another client
    Expired,        // "exp" has passed
    BadIssueTime,   // "iat" missing, in the future or too old
    NonceMismatch,  // "nonce" is not the one of this sign-in (a replayed token)
    NoSubject,      // "sub" missing, empty or longer than 255
};

[[nodiscard]] std::string_view id_token_error_name(IdTokenError e) noexcept;

// The provider could not be reached or answered nonsense (503 to the player: try again later).
class ProviderUnavailable : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// The provider refused the code (an error answer of the token endpoint).
class CodeRefused : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

inline constexpr std::int64_t kClockLeewayMs = 60'000;   // exp and iat: clocks differ a little
inline constexpr std::int64_t kMaxTokenAgeMs = 600'000;  // an ID token issued longer ago: refused
inline constexpr std::int64_t kMetadataTtlMs = 3'600'000;
inline constexpr std::int64_t kKeysRefetchMs =
    1'000;  // an unknown kid refetches at most this often

// The PKCE pair (RFC 7636): a verifier of 32 random bytes (43 characters) and its S256 challenge.
struct Pkce {
    std::string verifier;
    std::string challenge;
};

[[nodiscard]] Pkce make_pkce();
[[nodiscard]] std::string s256_challenge(std::string_view verifier);

// Thread-safe: the metadata and keys are cached under a mutex; fetches happen outside it.
class OidcClient {
public:
    OidcClient(OidcSettings settings, Fetcher fetch, const Clock& clock);

    [[nodiscard]] const OidcSettings& settings() const noexcept { return settings_; }

    // The provider's metadata (discovery, cached kMetadataTtlMs). Throws ProviderUnavailable.
    [[nodiscard]] ProviderMetadata metadata();

    [[nodiscard]] std::string authorization_url(const ProviderMetadata& m,
                                                std::string_view redirect_uri,
                                                std::string_view state,
                                                std::string_view nonce,
                                                std::string_view code_challenge) const;

    // The ID token the token endpoint gives for the code. Throws ProviderUnavailable, CodeRefused.
    [[nodiscard]] std::string redeem_code(const ProviderMetadata& m,
                                          std::string_view code,
                                          std::string_view code_verifier,
                                          std::string_view redirect_uri);

    // Core 3.1.3.7. Throws ProviderUnavailable when the keys cannot be fetched.
    [[nodiscard]] std::variant<IdClaims, IdTokenError> validate(std::string_view id_token,
                                                                std::string_view nonce);

private:
    [[nodiscard]] PublicKey key_for(const std::string& kid);
    void fetch_keys(const std::string& jwks_uri);
    [[nodiscard]] bool issuer_matches(const std::string& iss) const;

    OidcSettings settings_;
    Fetcher fetch_;
    const Clock& clock_;
    std::mutex mutex_;
    std::optional<ProviderMetadata> metadata_;
    std::int64_t metadata_at_ms_ = 0;
    std::map<std::string, PublicKey> keys_;
    std::int64_t keys_at_ms_ = -1;  // -1: never fetched
};

}  // namespace papan::server::auth
