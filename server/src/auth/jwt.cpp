#include "auth/jwt.hpp"

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/param_build.h>
#include <sodium.h>
#include <vector>

namespace papan::server::auth {

using Json = nlohmann::json;

std::string base64url_encode(std::string_view bytes) {
    const auto variant = sodium_base64_VARIANT_URLSAFE_NO_PADDING;
    std::string out(sodium_base64_ENCODED_LEN(bytes.size(), variant), '\0');
    sodium_bin2base64(out.data(),
                      out.size(),
                      reinterpret_cast<const unsigned char*>(bytes.data()),
                      bytes.size(),
                      variant);
    out.resize(out.size() - 1);  // the terminating NUL
    return out;
}

std::optional<std::string> base64url_decode(std::string_view text) {
    std::string out(text.size() * 3 / 4 + 3, '\0');
    std::size_t len = 0;
    const char* end = nullptr;
    const int rc    = sodium_base642bin(reinterpret_cast<unsigned char*>(out.data()),
                                     out.size(),
                                     text.data(),
                                     text.size(),
                                     nullptr,
                                     &len,
                                     &end,
                                     sodium_base64_VARIANT_URLSAFE_NO_PADDING);
    if (rc != 0 || end != text.data() + text.size()) {
        return std::nullopt;
    }
    out.resize(len);
    return out;
}

std::optional<Jwt> parse_jwt(std::string_view token) {
    if (token.size() > kMaxJwtBytes) {
        return std::nullopt;
    }
    const auto first = token.find('.');
    if (first == std::string_view::npos) {
        return std::nullopt;
    }
    const auto second = token.find('.', first + 1);
    if (second == std::string_view::npos || token.find('.', second + 1) != std::string_view::npos) {
        return std::nullopt;
    }
    const auto header = base64url_decode(token.substr(0, first));
    const auto claims = base64url_decode(token.substr(first + 1, second - first - 1));
    const auto sig    = base64url_decode(token.substr(second + 1));
    if (!header || !claims || !sig) {
        return std::nullopt;
    }
    Jwt out;
    out.header = Json::parse(*header, nullptr, false);
    out.claims = Json::parse(*claims, nullptr, false);
    if (!out.header.is_object() || !out.claims.is_object()) {
        return std::nullopt;
    }
    out.signing_input = std::string(token.substr(0, second));
    out.signature     = *sig;
    return out;
}

namespace {

struct BnFree {
    void operator()(BIGNUM* b) const { BN_free(b); }
};

using Bn = std::unique_ptr<BIGNUM, BnFree>;

Bn bignum(const std::string& big_endian) {
    return Bn(BN_bin2bn(reinterpret_cast<const unsigned char*>(big_endian.data()),
                        static_cast<int>(big_endian.size()),
                        nullptr));
}

std::string string_member(const Json& j, const char* key) {
    const auto it = j.find(key);
    return it != j.end() && it->is_string() ? it->get<std::string>() : std::string{};
}

}  // namespace

PublicKey rsa_key_from_jwk(const Json& jwk) {
    if (!jwk.is_object() || string_member(jwk, "kty") != "RSA") {
        return nullptr;
    }
    const auto n = base64url_decode(string_member(jwk, "n"));
    const auto e = base64url_decode(string_member(jwk, "e"));
    if (!n || !e || n->size() < 256 || n->size() > 1024 || e->empty() || e->size() > 8) {
        return nullptr;
    }
    const Bn bn_n = bignum(*n);
    const Bn bn_e = bignum(*e);
    if (!bn_n || !bn_e) {
        return nullptr;
    }
    OSSL_PARAM_BLD* bld = OSSL_PARAM_BLD_new();
    if (bld == nullptr) {
        return nullptr;
    }
    OSSL_PARAM* params = nullptr;
    if (OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_N, bn_n.get()) == 1 &&
        OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_E, bn_e.get()) == 1) {
        params = OSSL_PARAM_BLD_to_param(bld);
    }
    OSSL_PARAM_BLD_free(bld);
    if (params == nullptr) {
        return nullptr;
    }
    EVP_PKEY* key     = nullptr;
    EVP_PKEY_CTX* ctx = EVP_PKEY_CTX_new_from_name(nullptr, "RSA", nullptr);
    const bool ok     = ctx != nullptr && EVP_PKEY_fromdata_init(ctx) == 1 &&
                    EVP_PKEY_fromdata(ctx, &key, EVP_PKEY_PUBLIC_KEY, params) == 1;
    EVP_PKEY_CTX_free(ctx);
    OSSL_PARAM_free(params);
    if (!ok) {
        EVP_PKEY_free(key);
        return nullptr;
    }
    return PublicKey(key, EVP_PKEY_free);
}

std::map<std::string, PublicKey> rs256_keys(const Json& jwks) {
    std::map<std::string, PublicKey> out;
    if (!jwks.is_object() || !jwks.contains("keys") || !jwks["keys"].is_array()) {
        return out;
    }
    for (const auto& k : jwks["keys"]) {
        const std::string use = string_member(k, "use");
        const std::string alg = string_member(k, "alg");
        if ((!use.empty() && use != "sig") || (!alg.empty() && alg != "RS256")) {
            continue;
        }
        if (auto key = rsa_key_from_jwk(k)) {
            out.emplace(string_member(k, "kid"), std::move(key));
        }
    }
    return out;
}

bool verify_rs256(EVP_PKEY* key, std::string_view signing_input, std::string_view signature) {
    if (key == nullptr) {
        return false;
    }
    EVP_MD_CTX* ctx = EVP_MD_CTX_new();
    if (ctx == nullptr) {
        return false;
    }
    // EVP_PKEY_RSA with the default padding (PKCS #1 v1.5): exactly RS256.
    const bool ok = EVP_DigestVerifyInit(ctx, nullptr, EVP_sha256(), nullptr, key) == 1 &&
                    EVP_PKEY_get_base_id(key) == EVP_PKEY_RSA &&
                    EVP_DigestVerify(ctx,
                                     reinterpret_cast<const unsigned char*>(signature.data()),
                                     signature.size(),
                                     reinterpret_cast<const unsigned char*>(signing_input.data()),
                                     signing_input.size()) == 1;
    EVP_MD_CTX_free(ctx);
    return ok;
}

std::string sha256(std::string_view data) {
    std::string out(EVP_MAX_MD_SIZE, '\0');
    unsigned int len = 0;
    if (EVP_Digest(data.data(),
                   data.size(),
                   reinterpret_cast<unsigned char*>(out.data()),
                   &len,
                   EVP_sha256(),
                   nullptr) != 1) {
        throw std::runtime_error("SHA-256 failed");
    }
    out.resize(len);
    return out;
}

std::string hmac_sha256(std::string_view key, std::string_view data) {
    std::string out(EVP_MAX_MD_SIZE, '\0');
    unsigned int len = 0;
    if (HMAC(EVP_sha256(),
             key.data(),
             static_cast<int>(key.size()),
             reinterpret_cast<const unsigned char*>(data.data()),
             data.size(),
             reinterpret_cast<unsigned char*>(out.data()),
             &len) == nullptr) {
        throw std::runtime_error("HMAC-SHA-256 failed");
    }
    out.resize(len);
    return out;
}

std::string hex(std::string_view bytes) {
    static constexpr char kHex[] = "0123456789abcdef";
    std::string out;
    out.reserve(bytes.size() * 2);
    for (const char ch : bytes) {
        const auto c = static_cast<unsigned char>(ch);
        out += kHex[c >> 4];
        out += kHex[c & 15];
    }
    return out;
}

bool constant_time_equal(std::string_view a, std::string_view b) {
    return a.size() == b.size() && CRYPTO_memcmp(a.data(), b.data(), a.size()) == 0;
}

}  // namespace papan::server::auth
