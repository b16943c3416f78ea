// Local stand-ins of the outside services the server signs players in with, started by the tests
// on a free loopback port and spoken to over real HTTP: an OpenID Connect provider (discovery,
// JWK Set, token endpoint with PKCE; RSA keys made at test time) and Telegram's Bot API (every
// call recorded). Plus what a test needs to make their tokens: RS256 signing, Telegram's launch
// data hash computed by its documented algorithm with OpenSSL's HMAC.
#pragma once

#include <nlohmann/json.hpp>

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <openssl/types.h>
#include <string>
#include <utility>
#include <vector>

namespace papan::test {

using Json = nlohmann::json;

struct StandInRequest {
    std::string method;
    std::string target;  // path and query
    std::string body;
    std::map<std::string, std::string> headers;  // lowercase names

    [[nodiscard]] std::string path() const { return target.substr(0, target.find('?')); }

    // A query parameter (or form field of the body), percent-decoded.
    [[nodiscard]] std::string param(const std::string& key) const;
    [[nodiscard]] std::string form(const std::string& key) const;
};

struct StandInResponse {
    unsigned status          = 200;
    std::string content_type = "application/json";
    std::string body;
    std::vector<std::pair<std::string, std::string>> headers;
};

// An HTTP/1.1 server on 127.0.0.1 (one request per connection) on its own thread.
class StandInServer {
public:
    using Handler = std::function<StandInResponse(const StandInRequest&)>;

    explicit StandInServer(Handler handler);
    ~StandInServer();
    StandInServer(const StandInServer&)            = delete;
    StandInServer& operator=(const StandInServer&) = delete;

    [[nodiscard]] unsigned short port() const { return port_; }

    [[nodiscard]] std::string url() const { return "http://127.0.0.1:" + std::to_string(port_); }

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
    unsigned short port_ = 0;
};

// An RSA key pair (2048 bits) made at test time, with its JWK.
class RsaKey {
public:
    explicit RsaKey(std::string kid);
    ~RsaKey();
    RsaKey(const RsaKey&)            = delete;
    RsaKey& operator=(const RsaKey&) = delete;

    [[nodiscard]] const std::string& kid() const { return kid_; }

    [[nodiscard]] Json jwk() const;  // the public key: kty, n, e, kid, alg, use
    // A compact JWS of `claims` with RS256 under this key; `header_extra` merged into the header.
    [[nodiscard]] std::string sign(const Json& claims,
                                   const Json& header_extra = Json::object()) const;

private:
    std::string kid_;
    EVP_PKEY* key_ = nullptr;
};

[[nodiscard]] std::string b64url(const std::string& bytes);

// What the provider puts into the next ID token it issues; each field left as is is correct.
struct TokenPlan {
    std::string kid{};                // "": the current key's
    bool wrong_key = false;           // signed by a key not in the JWK Set, under the named kid
    std::string audience{};           // "": the client id
    std::string issuer{};             // "": the provider's
    std::int64_t exp_offset_s = 600;  // exp = now + this
    std::int64_t iat_offset_s = 0;
    std::string nonce{};  // "": the one of the authorization request
    std::string alg = "RS256";
};

// A local OpenID Connect provider.
class OidcStandIn {
public:
    OidcStandIn(std::string client_id, std::string client_secret);

    [[nodiscard]] std::string issuer() const { return server_.url(); }

    // The user the next authorization approves.
    void set_user(std::string sub, std::string name);
    // What the next ID token looks like (reset after it was issued).
    void plan_next(TokenPlan plan);
    // A new signing key (the old one leaves the JWK Set): the provider's key rotation.
    void rotate_key();
    // The browser at the authorization endpoint: checks the request like the provider would and
    // approves it, returning the URL the browser is sent to (redirect_uri?code=..&state=..).
    [[nodiscard]] std::string approve(const std::string& authorization_url);
    // The ID tokens issued so far (a replay test hands an old one out again).
    [[nodiscard]] std::vector<std::string> issued() const;
    void replay_next(std::string id_token);

    int jwks_fetches = 0;
    int token_calls  = 0;
    std::string last_auth_header;  // of the token endpoint

private:
    StandInResponse handle(const StandInRequest& r);

    struct Grant {
        std::string sub;
        std::string name;
        std::string nonce;
        std::string challenge;
        std::string redirect_uri;
    };

    std::string client_id_;
    std::string client_secret_;
    mutable std::mutex mutex_;
    std::unique_ptr<RsaKey> key_;
    std::unique_ptr<RsaKey> stray_key_;
    std::string sub_  = "1001";
    std::string name_ = "Ada Lovelace";
    TokenPlan plan_;
    std::string replay_;
    std::map<std::string, Grant> codes_;
    std::vector<std::string> issued_;
    int key_serial_ = 0;
    StandInServer server_;  // last: its thread sees the members ready
};

// Telegram's Bot API: every call recorded; getMe and savePreparedInlineMessage answered.
class BotApiStandIn {
public:
    BotApiStandIn();

    [[nodiscard]] std::string url() const { return server_.url(); }

    // The calls of a method so far (their JSON bodies), waiting up to `timeout_ms` for `at_least`.
    [[nodiscard]] std::vector<Json>
    calls(const std::string& method, std::size_t at_least = 0, int timeout_ms = 10'000) const;
    std::string token_seen;  // the token of the last call's path

private:
    StandInResponse handle(const StandInRequest& r);

    mutable std::mutex mutex_;
    std::vector<std::pair<std::string, Json>> calls_;
    StandInServer server_;
};

// Launch data of a Telegram Mini App as Telegram signs it for `bot_token`: the fields
// (url-encoded) and `hash`, computed as Telegram's documentation says, independently of the server.
[[nodiscard]] std::string
telegram_init_data(const std::vector<std::pair<std::string, std::string>>& fields,
                   const std::string& bot_token);
[[nodiscard]] std::string url_encode(const std::string& s);

}  // namespace papan::test
