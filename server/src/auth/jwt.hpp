// JSON Web Tokens as an OpenID Connect ID token uses them (RFC 7515 compact serialisation, RFC
// 7517 keys, RFC 7518 RS256): base64url, splitting a token into its header, claims and
// signature, RSA public keys from a JWK Set, and the RS256 check. The cryptography is OpenSSL's
// (EVP); nothing here trusts a token: that is the caller's checks on top of verify_rs256.
#pragma once

#include <nlohmann/json.hpp>

#include <map>
#include <memory>
#include <openssl/types.h>
#include <optional>
#include <string>
#include <string_view>

namespace papan::server::auth {

// base64url without padding (RFC 7515 section 2); decoding refuses padding, other alphabets and
// stray characters.
[[nodiscard]] std::string base64url_encode(std::string_view bytes);
[[nodiscard]] std::optional<std::string> base64url_decode(std::string_view text);

// A token in compact serialisation: BASE64URL(header) "." BASE64URL(claims) "." BASE64URL(sig).
struct Jwt {
    nlohmann::json header;      // an object
    nlohmann::json claims;      // an object
    std::string signing_input;  // the first two parts as sent, with the dot: what was signed
    std::string signature;      // decoded
};

inline constexpr std::size_t kMaxJwtBytes = 16 * 1024;

// nullopt for anything that is not three base64url parts of which the first two are JSON
// objects (or longer than kMaxJwtBytes).
[[nodiscard]] std::optional<Jwt> parse_jwt(std::string_view token);

using PublicKey = std::shared_ptr<EVP_PKEY>;

// The RSA public key of one JWK (kty "RSA", n and e base64url, a modulus of 2048 to 8192 bits);
// nullptr for anything else.
[[nodiscard]] PublicKey rsa_key_from_jwk(const nlohmann::json& jwk);

// The signing keys of a JWK Set ({"keys": [...]}) usable for RS256, by "kid" ("" for a key
// without one): RSA keys whose "use" is absent or "sig" and whose "alg" is absent or "RS256".
[[nodiscard]] std::map<std::string, PublicKey> rs256_keys(const nlohmann::json& jwks);

// RSASSA-PKCS1-v1_5 with SHA-256 over `signing_input`.
[[nodiscard]] bool
verify_rs256(EVP_PKEY* key, std::string_view signing_input, std::string_view signature);

// SHA-256 (PKCE's code challenge) and HMAC-SHA-256 (Telegram), as raw bytes.
[[nodiscard]] std::string sha256(std::string_view data);
[[nodiscard]] std::string hmac_sha256(std::string_view key, std::string_view data);
// Lowercase hex of bytes.
[[nodiscard]] std::string hex(std::string_view bytes);
// Equal contents, in time that does not depend on where they differ.
[[nodiscard]] bool constant_time_equal(std::string_view a, std::string_view b);

}  // namespace papan::server::auth
