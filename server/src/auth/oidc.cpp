#include "auth/oidc.hpp"

#include <algorithm>
#include <cmath>
#include <sodium.h>

namespace papan::server::auth {

using Json = nlohmann::json;

namespace {

std::string string_member(const Json& j, const char* key) {
    const auto it = j.find(key);
    return it != j.end() && it->is_string() ? it->get<std::string>() : std::string{};
}

// A NumericDate claim in milliseconds; nullopt when absent or not a finite number.
std::optional<std::int64_t> date_ms(const Json& claims, const char* key) {
    const auto it = claims.find(key);
    if (it == claims.end() || !it->is_number()) {
        return std::nullopt;
    }
    const double s = it->get<double>();
    if (!std::isfinite(s) || s < 0 || s > 1e12) {
        return std::nullopt;
    }
    return static_cast<std::int64_t>(s * 1000);
}

std::string base64_standard(std::string_view bytes) {
    const auto variant = sodium_base64_VARIANT_ORIGINAL;
    std::string out(sodium_base64_ENCODED_LEN(bytes.size(), variant), '\0');
    sodium_bin2base64(out.data(),
                      out.size(),
                      reinterpret_cast<const unsigned char*>(bytes.data()),
                      bytes.size(),
                      variant);
    out.resize(out.size() - 1);
    return out;
}

Json fetch_json(const Fetcher& fetch, const std::string& url, const char* what) {
    OutboundResponse r;
    try {
        r = fetch(OutboundRequest{"GET", url, {}, {}, {}, std::chrono::seconds(10), 1 << 20});
    } catch (const OutboundError& e) {
        throw ProviderUnavailable(std::string(what) + ": " + e.what());
    }
    if (r.status != 200) {
        throw ProviderUnavailable(std::string(what) + ": HTTP " + std::to_string(r.status));
    }
    Json j = Json::parse(r.body, nullptr, false);
    if (!j.is_object()) {
        throw ProviderUnavailable(std::string(what) + ": not a JSON object");
    }
    return j;
}

bool audience_ok(const Json& claims, const std::string& client_id) {
    const auto aud = claims.find("aud");
    if (aud == claims.end()) {
        return false;
    }
    std::size_t audiences = 0;
    bool ours             = false;
    if (aud->is_string()) {
        audiences = 1;
        ours      = aud->get<std::string>() == client_id;
    } else if (aud->is_array()) {
        for (const auto& a : *aud) {
            if (!a.is_string()) {
                return false;
            }
            ++audiences;
            ours = ours || a.get<std::string>() == client_id;
        }
    }
    if (!ours) {
        return false;
    }
    // azp: when present it must be us; with several audiences it must be present (Core 1.0,
    // 3.1.3.7 items 4 and 5), or a token another client asked for could be used here.
    const auto azp = claims.find("azp");
    if (azp != claims.end()) {
        return azp->is_string() && azp->get<std::string>() == client_id;
    }
    return audiences == 1;
}

}  // namespace

std::string_view id_token_error_name(IdTokenError e) noexcept {
    switch (e) {
    case IdTokenError::Malformed:
        return "malformed";
    case IdTokenError::BadAlgorithm:
        return "bad_algorithm";
    case IdTokenError::UnknownKey:
        return "unknown_key";
    case IdTokenError::BadSignature:
        return "bad_signature";
    case IdTokenError::WrongIssuer:
        return "wrong_issuer";
    case IdTokenError::WrongAudience:
        return "wrong_audience";
    case IdTokenError::Expired:
        return "token_expired";
    case IdTokenError::BadIssueTime:
        return "bad_issue_time";
    case IdTokenError::NonceMismatch:
        return "nonce_mismatch";
    case IdTokenError::NoSubject:
        return "no_subject";
    }
    return "malformed";
}

std::string s256_challenge(std::string_view verifier) {
    return base64url_encode(sha256(verifier));
}

Pkce make_pkce() {
    std::string bytes(32, '\0');
    randombytes_buf(bytes.data(), bytes.size());
    Pkce p;
    p.verifier  = base64url_encode(bytes);
    p.challenge = s256_challenge(p.verifier);
    return p;
}

OidcClient::OidcClient(OidcSettings settings, Fetcher fetch, const Clock& clock)
    : settings_(std::move(settings))
    , fetch_(std::move(fetch))
    , clock_(clock) {}

ProviderMetadata OidcClient::metadata() {
    {
        std::lock_guard lock(mutex_);
        if (metadata_ && clock_.now_ms() - metadata_at_ms_ < kMetadataTtlMs) {
            return *metadata_;
        }
    }
    std::string base = settings_.issuer;
    while (!base.empty() && base.back() == '/') {
        base.pop_back();
    }
    const Json j = fetch_json(fetch_, base + "/.well-known/openid-configuration", "discovery");
    ProviderMetadata m;
    m.issuer                 = string_member(j, "issuer");
    m.authorization_endpoint = string_member(j, "authorization_endpoint");
    m.token_endpoint         = string_member(j, "token_endpoint");
    m.jwks_uri               = string_member(j, "jwks_uri");
    // Discovery 1.0, 4.3: the issuer in the document is exactly the one asked about.
    if (m.issuer != settings_.issuer) {
        throw ProviderUnavailable("discovery: the document names issuer '" + m.issuer +
                                  "', not the configured '" + settings_.issuer + "'");
    }
    if (m.authorization_endpoint.empty() || m.token_endpoint.empty() || m.jwks_uri.empty()) {
        throw ProviderUnavailable("discovery: an endpoint is missing");
    }
    if (const auto it = j.find("token_endpoint_auth_methods_supported");
        it != j.end() && it->is_array()) {
        const auto has = [&](const char* name) {
            return std::any_of(
                it->begin(), it->end(), [&](const Json& v) { return v.is_string() && v == name; });
        };
        m.secret_in_body = !has("client_secret_basic") && has("client_secret_post");
    }
    std::lock_guard lock(mutex_);
    metadata_       = m;
    metadata_at_ms_ = clock_.now_ms();
    return m;
}

std::string OidcClient::authorization_url(const ProviderMetadata& m,
                                          std::string_view redirect_uri,
                                          std::string_view state,
                                          std::string_view nonce,
                                          std::string_view code_challenge) const {
    const std::string query = form_encode({{"response_type", "code"},
                                           {"client_id", settings_.client_id},
                                           {"redirect_uri", std::string(redirect_uri)},
                                           {"scope", settings_.scopes},
                                           {"state", std::string(state)},
                                           {"nonce", std::string(nonce)},
                                           {"code_challenge", std::string(code_challenge)},
                                           {"code_challenge_method", "S256"}});
    const char sep          = m.authorization_endpoint.find('?') == std::string::npos ? '?' : '&';
    return m.authorization_endpoint + sep + query;
}

std::string OidcClient::redeem_code(const ProviderMetadata& m,
                                    std::string_view code,
                                    std::string_view code_verifier,
                                    std::string_view redirect_uri) {
    std::vector<std::pair<std::string, std::string>> form{
        {"grant_type", "authorization_code"},
        {"code", std::string(code)},
        {"redirect_uri", std::string(redirect_uri)},
        {"code_verifier", std::string(code_verifier)},
        {"client_id", settings_.client_id}};
    OutboundRequest req;
    req.method       = "POST";
    req.url          = m.token_endpoint;
    req.content_type = "application/x-www-form-urlencoded";
    if (!settings_.client_secret.empty()) {
        if (m.secret_in_body) {
            form.emplace_back("client_secret", settings_.client_secret);
        } else {
            // RFC 6749 2.3.1: both parts form-encoded before the Basic encoding.
            req.headers.emplace_back("Authorization",
                                     "Basic " +
                                         base64_standard(percent_encode(settings_.client_id) + ":" +
                                                         percent_encode(settings_.client_secret)));
        }
    }
    req.body = form_encode(form);
    OutboundResponse r;
    try {
        r = fetch_(req);
    } catch (const OutboundError& e) {
        throw ProviderUnavailable(std::string("token endpoint: ") + e.what());
    }
    const Json j = Json::parse(r.body, nullptr, false);
    if (r.status >= 400 && r.status < 500) {
        throw CodeRefused("token endpoint: HTTP " + std::to_string(r.status) + " " +
                          (j.is_object() ? string_member(j, "error") : std::string{}));
    }
    if (r.status != 200 || !j.is_object()) {
        throw ProviderUnavailable("token endpoint: HTTP " + std::to_string(r.status));
    }
    const std::string id_token = string_member(j, "id_token");
    if (id_token.empty()) {
        throw CodeRefused("token endpoint: no id_token in the answer");
    }
    return id_token;
}

void OidcClient::fetch_keys(const std::string& jwks_uri) {
    auto keys = rs256_keys(fetch_json(fetch_, jwks_uri, "jwks"));
    std::lock_guard lock(mutex_);
    keys_       = std::move(keys);
    keys_at_ms_ = clock_.now_ms();
}

PublicKey OidcClient::key_for(const std::string& kid) {
    const auto find = [&]() -> PublicKey {
        std::lock_guard lock(mutex_);
        if (const auto it = keys_.find(kid); it != keys_.end()) {
            return it->second;
        }
        if (kid.empty() && keys_.size() == 1) {
            return keys_.begin()->second;
        }
        return nullptr;
    };
    if (auto k = find()) {
        return k;
    }
    bool stale = false;
    {
        std::lock_guard lock(mutex_);
        stale = keys_at_ms_ < 0 || clock_.now_ms() - keys_at_ms_ >= kKeysRefetchMs;
    }
    if (!stale) {
        return nullptr;
    }
    // A key we do not hold: the provider may have rotated its keys. Fetch the set again.
    fetch_keys(metadata().jwks_uri);
    return find();
}

bool OidcClient::issuer_matches(const std::string& iss) const {
    if (iss == settings_.issuer) {
        return true;
    }
    // Google's ID tokens may name the issuer without its scheme (Google's OpenID Connect
    // documentation: "accounts.google.com or https://accounts.google.com").
    return settings_.issuer == "https://accounts.google.com" && iss == "accounts.google.com";
}

std::variant<IdClaims, IdTokenError> OidcClient::validate(std::string_view id_token,
                                                          std::string_view nonce) {
    const auto jwt = parse_jwt(id_token);
    if (!jwt) {
        return IdTokenError::Malformed;
    }
    if (string_member(jwt->header, "alg") != "RS256") {
        return IdTokenError::BadAlgorithm;
    }
    if (jwt->header.contains("kid") && !jwt->header["kid"].is_string()) {
        return IdTokenError::Malformed;
    }
    const PublicKey key = key_for(string_member(jwt->header, "kid"));
    if (!key) {
        return IdTokenError::UnknownKey;
    }
    if (!verify_rs256(key.get(), jwt->signing_input, jwt->signature)) {
        return IdTokenError::BadSignature;
    }
    const Json& c = jwt->claims;
    if (!issuer_matches(string_member(c, "iss"))) {
        return IdTokenError::WrongIssuer;
    }
    if (!audience_ok(c, settings_.client_id)) {
        return IdTokenError::WrongAudience;
    }
    const auto now = clock_.now_ms();
    const auto exp = date_ms(c, "exp");
    if (!exp) {
        return IdTokenError::Malformed;
    }
    if (now >= *exp + kClockLeewayMs) {
        return IdTokenError::Expired;
    }
    const auto iat = date_ms(c, "iat");
    if (!iat || *iat > now + kClockLeewayMs || *iat < now - kMaxTokenAgeMs) {
        return IdTokenError::BadIssueTime;
    }
    if (nonce.empty() || !constant_time_equal(string_member(c, "nonce"), nonce)) {
        return IdTokenError::NonceMismatch;
    }
    const std::string sub = string_member(c, "sub");
    if (sub.empty() || sub.size() > 255) {
        return IdTokenError::NoSubject;
    }
    IdClaims out;
    out.issuer  = settings_.issuer;
    out.subject = sub;
    out.name    = string_member(c, "name");
    if (out.name.empty()) {
        out.name = string_member(c, "given_name");
    }
    return out;
}

}  // namespace papan::server::auth
