// Secrets: random tokens from libsodium's CSPRNG (invite links, session tokens, guest secrets,
// game ids) and their one-way hashes (only hashes of secrets are stored), and Argon2id password
// hashes. Every function is thread-safe once init_crypto() has run.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace papan::server {

// Initialises libsodium; throws std::runtime_error when it cannot. Idempotent.
void init_crypto();

// `bytes` random bytes as lowercase hex (2 * bytes characters).
[[nodiscard]] std::string random_hex(std::size_t bytes);

// A token of 128 bits (32 hex characters).
[[nodiscard]] inline std::string random_token() {
    return random_hex(16);
}

// BLAKE2b-256 of the text, as hex: what the database keeps of a secret.
[[nodiscard]] std::string hash_secret(std::string_view secret);

// The public player id of a guest secret (first 128 bits of its hash, hex).
[[nodiscard]] std::string guest_player_id(std::string_view secret);

// Argon2id (crypto_pwhash_str, interactive limits). Throws std::runtime_error when out of memory.
[[nodiscard]] std::string hash_password(std::string_view password);
[[nodiscard]] bool verify_password(std::string_view stored_hash, std::string_view password);

}  // namespace papan::server
