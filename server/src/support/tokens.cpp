#include <papan/server/tokens.hpp>

#include <array>
#include <sodium.h>
#include <stdexcept>
#include <vector>

namespace papan::server {

void init_crypto() {
    if (sodium_init() < 0) {
        throw std::runtime_error("libsodium could not be initialised");
    }
}

namespace {

std::string to_hex(const unsigned char* data, std::size_t n) {
    std::string out(n * 2 + 1, '\0');
    sodium_bin2hex(out.data(), out.size(), data, n);
    out.pop_back();
    return out;
}

}  // namespace

std::string random_hex(std::size_t bytes) {
    std::vector<unsigned char> buf(bytes);
    randombytes_buf(buf.data(), buf.size());
    return to_hex(buf.data(), buf.size());
}

std::string hash_secret(std::string_view secret) {
    std::array<unsigned char, crypto_generichash_BYTES> out{};
    crypto_generichash(out.data(),
                       out.size(),
                       reinterpret_cast<const unsigned char*>(secret.data()),
                       secret.size(),
                       nullptr,
                       0);
    return to_hex(out.data(), out.size());
}

std::string guest_player_id(std::string_view secret) {
    std::string id = "g";
    id += hash_secret(secret).substr(0, 32);
    return id;
}

std::string hash_password(std::string_view password) {
    std::array<char, crypto_pwhash_STRBYTES> out{};
    if (crypto_pwhash_str(out.data(),
                          password.data(),
                          password.size(),
                          crypto_pwhash_OPSLIMIT_INTERACTIVE,
                          crypto_pwhash_MEMLIMIT_INTERACTIVE) != 0) {
        throw std::runtime_error("password hashing ran out of memory");
    }
    return std::string(out.data());
}

bool verify_password(std::string_view stored_hash, std::string_view password) {
    const std::string h(stored_hash);
    return crypto_pwhash_str_verify(h.c_str(), password.data(), password.size()) == 0;
}

}  // namespace papan::server
