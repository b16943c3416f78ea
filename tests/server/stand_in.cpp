#include "stand_in.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/string_body.hpp>
#include <boost/beast/http/write.hpp>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <ctime>
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rsa.h>
#include <random>
#include <stdexcept>
#include <thread>
#include <utility>

namespace papan::test {

namespace net   = boost::asio;
namespace beast = boost::beast;
namespace http  = beast::http;
using tcp       = net::ip::tcp;

namespace {

int hex_digit(char c) {
    if (c >= '0' && c <= '9') {
        return c - '0';
    }
    if (c >= 'a' && c <= 'f') {
        return c - 'a' + 10;
    }
    if (c >= 'A' && c <= 'F') {
        return c - 'A' + 10;
    }
    return -1;
}

std::string url_decode(const std::string& s) {
    std::string out;
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (s[i] == '+') {
            out += ' ';
        } else if (s[i] == '%' && i + 2 < s.size() && hex_digit(s[i + 1]) >= 0 &&
                   hex_digit(s[i + 2]) >= 0) {
            out += static_cast<char>(hex_digit(s[i + 1]) * 16 + hex_digit(s[i + 2]));
            i += 2;
        } else {
            out += s[i];
        }
    }
    return out;
}

std::string field_of(const std::string& query, const std::string& key) {
    std::size_t at = 0;
    while (at <= query.size()) {
        const auto amp = query.find('&', at);
        const std::string part =
            query.substr(at, amp == std::string::npos ? std::string::npos : amp - at);
        const auto eq = part.find('=');
        if (eq != std::string::npos && url_decode(part.substr(0, eq)) == key) {
            return url_decode(part.substr(eq + 1));
        }
        if (amp == std::string::npos) {
            break;
        }
        at = amp + 1;
    }
    return {};
}

std::string bytes_of(const unsigned char* p, std::size_t n) {
    return std::string(reinterpret_cast<const char*>(p), n);
}

std::string sha256(const std::string& data) {
    unsigned char out[EVP_MAX_MD_SIZE];
    unsigned int len = 0;
    EVP_Digest(data.data(), data.size(), out, &len, EVP_sha256(), nullptr);
    return bytes_of(out, len);
}

std::string hmac(const std::string& key, const std::string& data) {
    unsigned char out[EVP_MAX_MD_SIZE];
    unsigned int len = 0;
    HMAC(EVP_sha256(),
         key.data(),
         static_cast<int>(key.size()),
         reinterpret_cast<const unsigned char*>(data.data()),
         data.size(),
         out,
         &len);
    return bytes_of(out, len);
}

std::int64_t now_s() {
    return static_cast<std::int64_t>(std::time(nullptr));
}

StandInResponse json_answer(unsigned status, const Json& j) {
    return StandInResponse{status, "application/json", j.dump(), {}};
}

}  // namespace

std::string StandInRequest::param(const std::string& key) const {
    const auto q = target.find('?');
    return q == std::string::npos ? std::string{} : field_of(target.substr(q + 1), key);
}

std::string StandInRequest::form(const std::string& key) const {
    return field_of(body, key);
}

std::string url_encode(const std::string& s) {
    static constexpr char kHex[] = "0123456789ABCDEF";
    std::string out;
    for (const char ch : s) {
        const auto c = static_cast<unsigned char>(ch);
        if (std::isalnum(c) != 0 || c == '-' || c == '.' || c == '_' || c == '~') {
            out += ch;
        } else {
            out += '%';
            out += kHex[c >> 4];
            out += kHex[c & 15];
        }
    }
    return out;
}

std::string b64url(const std::string& bytes) {
    std::string out(4 * ((bytes.size() + 2) / 3) + 1, '\0');
    const int n = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                                  reinterpret_cast<const unsigned char*>(bytes.data()),
                                  static_cast<int>(bytes.size()));
    out.resize(static_cast<std::size_t>(n));
    while (!out.empty() && out.back() == '=') {
        out.pop_back();
    }
    std::replace(out.begin(), out.end(), '+', '-');
    std::replace(out.begin(), out.end(), '/', '_');
    return out;
}

// ---- the HTTP server ----

struct StandInServer::Impl {
    net::io_context ioc{1};
    tcp::acceptor acceptor{ioc};
    Handler handler;
    std::thread thread;

    net::awaitable<void> session(tcp::socket socket) {
        beast::tcp_stream stream(std::move(socket));
        stream.expires_after(std::chrono::seconds(10));
        beast::flat_buffer buffer;
        http::request<http::string_body> req;
        co_await http::async_read(stream, buffer, req, net::use_awaitable);
        StandInRequest r;
        r.method = std::string(req.method_string());
        r.target = std::string(req.target());
        r.body   = req.body();
        for (const auto& f : req) {
            std::string name(f.name_string());
            std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) {
                return static_cast<char>(std::tolower(c));
            });
            r.headers[name] = std::string(f.value());
        }
        StandInResponse a;
        try {
            a = handler(r);
        } catch (const std::exception& e) {
            a = StandInResponse{500, "text/plain", e.what(), {}};
        }
        http::response<http::string_body> res{static_cast<http::status>(a.status), 11};
        res.set(http::field::content_type, a.content_type);
        for (const auto& [k, v] : a.headers) {
            res.set(k, v);
        }
        res.body() = a.body;
        res.keep_alive(false);
        res.prepare_payload();
        co_await http::async_write(stream, res, net::use_awaitable);
        beast::error_code ec;
        stream.socket().shutdown(tcp::socket::shutdown_send, ec);
    }

    net::awaitable<void> accept_loop() {
        for (;;) {
            auto socket = co_await acceptor.async_accept(net::use_awaitable);
            net::co_spawn(ioc, session(std::move(socket)), net::detached);
        }
    }
};

StandInServer::StandInServer(Handler handler) : impl_(std::make_unique<Impl>()) {
    impl_->handler = std::move(handler);
    const tcp::endpoint ep(net::ip::make_address("127.0.0.1"), 0);
    impl_->acceptor.open(ep.protocol());
    impl_->acceptor.bind(ep);
    impl_->acceptor.listen();
    port_ = impl_->acceptor.local_endpoint().port();
    net::co_spawn(impl_->ioc, impl_->accept_loop(), net::detached);
    impl_->thread = std::thread([this] { impl_->ioc.run(); });
}

StandInServer::~StandInServer() {
    impl_->ioc.stop();
    impl_->thread.join();
}

// ---- keys and tokens ----

RsaKey::RsaKey(std::string kid)
    // EVP_RSA_gen without its macro's C cast.
    : kid_(std::move(kid))
    , key_(EVP_PKEY_Q_keygen(nullptr, nullptr, "RSA", static_cast<std::size_t>(2048))) {
    if (key_ == nullptr) {
        throw std::runtime_error("RSA key generation failed");
    }
}

RsaKey::~RsaKey() {
    EVP_PKEY_free(key_);
}

Json RsaKey::jwk() const {
    const auto big = [&](const char* name) {
        BIGNUM* bn = nullptr;
        EVP_PKEY_get_bn_param(key_, name, &bn);
        std::string out(static_cast<std::size_t>(BN_num_bytes(bn)), '\0');
        BN_bn2bin(bn, reinterpret_cast<unsigned char*>(out.data()));
        BN_free(bn);
        return b64url(out);
    };
    return Json{{"kty", "RSA"},
                {"use", "sig"},
                {"alg", "RS256"},
                {"kid", kid_},
                {"n", big(OSSL_PKEY_PARAM_RSA_N)},
                {"e", big(OSSL_PKEY_PARAM_RSA_E)}};
}

std::string RsaKey::sign(const Json& claims, const Json& header_extra) const {
    Json header{{"alg", "RS256"}, {"typ", "JWT"}, {"kid", kid_}};
    header.update(header_extra);
    const std::string input = b64url(header.dump()) + "." + b64url(claims.dump());
    EVP_MD_CTX* ctx         = EVP_MD_CTX_new();
    std::size_t len         = 0;
    EVP_DigestSignInit(ctx, nullptr, EVP_sha256(), nullptr, key_);
    EVP_DigestSign(
        ctx, nullptr, &len, reinterpret_cast<const unsigned char*>(input.data()), input.size());
    std::string sig(len, '\0');
    EVP_DigestSign(ctx,
                   reinterpret_cast<unsigned char*>(sig.data()),
                   &len,
                   reinterpret_cast<const unsigned char*>(input.data()),
                   input.size());
    EVP_MD_CTX_free(ctx);
    sig.resize(len);
    return input + "." + b64url(sig);
}

// ---- the OpenID Connect provider ----

OidcStandIn::OidcStandIn(std::string client_id, std::string client_secret)
    : client_id_(std::move(client_id))
    , client_secret_(std::move(client_secret))
    , key_(std::make_unique<RsaKey>("key-1"))
    , stray_key_(std::make_unique<RsaKey>("key-1"))
    , server_([this](const StandInRequest& r) { return handle(r); }) {}

void OidcStandIn::set_user(std::string sub, std::string name) {
    std::lock_guard lock(mutex_);
    sub_  = std::move(sub);
    name_ = std::move(name);
}

void OidcStandIn::plan_next(TokenPlan plan) {
    std::lock_guard lock(mutex_);
    plan_ = std::move(plan);
}

void OidcStandIn::rotate_key() {
    std::lock_guard lock(mutex_);
    key_ = std::make_unique<RsaKey>("key-" + std::to_string(++key_serial_ + 1));
}

std::vector<std::string> OidcStandIn::issued() const {
    std::lock_guard lock(mutex_);
    return issued_;
}

void OidcStandIn::replay_next(std::string id_token) {
    std::lock_guard lock(mutex_);
    replay_ = std::move(id_token);
}

std::string OidcStandIn::approve(const std::string& authorization_url) {
    const auto q = authorization_url.find('?');
    if (q == std::string::npos || authorization_url.substr(0, q) != issuer() + "/authorize") {
        throw std::runtime_error("not this provider's authorization endpoint: " +
                                 authorization_url);
    }
    const std::string query = authorization_url.substr(q + 1);
    if (field_of(query, "client_id") != client_id_ || field_of(query, "response_type") != "code" ||
        field_of(query, "code_challenge_method") != "S256" ||
        field_of(query, "code_challenge").size() != 43 || field_of(query, "state").empty() ||
        field_of(query, "nonce").empty() ||
        field_of(query, "scope").find("openid") == std::string::npos) {
        throw std::runtime_error("the authorization request is not what the provider accepts: " +
                                 query);
    }
    std::lock_guard lock(mutex_);
    const std::string code =
        "code-" + std::to_string(codes_.size() + 1) + "-" + std::to_string(std::random_device{}());
    codes_[code] = Grant{sub_,
                         name_,
                         field_of(query, "nonce"),
                         field_of(query, "code_challenge"),
                         field_of(query, "redirect_uri")};
    return field_of(query, "redirect_uri") + "?code=" + url_encode(code) +
           "&state=" + url_encode(field_of(query, "state"));
}

StandInResponse OidcStandIn::handle(const StandInRequest& r) {
    const std::string path = r.path();
    if (path == "/.well-known/openid-configuration") {
        return json_answer(200,
                           Json{{"issuer", issuer()},
                                {"authorization_endpoint", issuer() + "/authorize"},
                                {"token_endpoint", issuer() + "/token"},
                                {"jwks_uri", issuer() + "/jwks"},
                                {"response_types_supported", {"code"}},
                                {"subject_types_supported", {"public"}},
                                {"id_token_signing_alg_values_supported", {"RS256"}},
                                {"code_challenge_methods_supported", {"S256"}},
                                {"token_endpoint_auth_methods_supported",
                                 {"client_secret_basic", "client_secret_post"}}});
    }
    std::lock_guard lock(mutex_);
    if (path == "/jwks") {
        ++jwks_fetches;
        return json_answer(200, Json{{"keys", Json::array({key_->jwk()})}});
    }
    if (path == "/token" && r.method == "POST") {
        ++token_calls;
        const auto auth_it   = r.headers.find("authorization");
        last_auth_header     = auth_it == r.headers.end() ? std::string{} : auth_it->second;
        const bool client_ok = last_auth_header == "Basic " + [&] {
            const std::string plain = url_encode(client_id_) + ":" + url_encode(client_secret_);
            std::string out(4 * ((plain.size() + 2) / 3) + 1, '\0');
            const int n = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                                          reinterpret_cast<const unsigned char*>(plain.data()),
                                          static_cast<int>(plain.size()));
            out.resize(static_cast<std::size_t>(n));
            return out;
        }() || (r.form("client_id") == client_id_ && r.form("client_secret") == client_secret_);
        if (!client_ok) {
            return json_answer(401, Json{{"error", "invalid_client"}});
        }
        const auto it = codes_.find(r.form("code"));
        if (r.form("grant_type") != "authorization_code" || it == codes_.end()) {
            return json_answer(400, Json{{"error", "invalid_grant"}});
        }
        const Grant g = it->second;
        codes_.erase(it);  // a code is good once
        if (r.form("redirect_uri") != g.redirect_uri ||
            b64url(sha256(r.form("code_verifier"))) != g.challenge) {
            return json_answer(400, Json{{"error", "invalid_grant"}});
        }
        std::string id_token;
        if (!replay_.empty()) {
            id_token = std::exchange(replay_, {});
        } else {
            const TokenPlan p = std::exchange(plan_, TokenPlan{});
            const auto now    = now_s();
            const Json claims{{"iss", p.issuer.empty() ? issuer() : p.issuer},
                              {"sub", g.sub},
                              {"aud", p.audience.empty() ? client_id_ : p.audience},
                              {"exp", now + p.exp_offset_s},
                              {"iat", now + p.iat_offset_s},
                              {"nonce", p.nonce.empty() ? g.nonce : p.nonce},
                              {"name", g.name}};
            Json header = Json::object();
            if (!p.kid.empty()) {
                header["kid"] = p.kid;
            }
            if (p.alg != "RS256") {
                header["alg"] = p.alg;
            }
            id_token = (p.wrong_key ? *stray_key_ : *key_).sign(claims, header);
        }
        issued_.push_back(id_token);
        return json_answer(200,
                           Json{{"access_token", "at-" + std::to_string(issued_.size())},
                                {"token_type", "Bearer"},
                                {"expires_in", 3600},
                                {"id_token", id_token}});
    }
    return json_answer(404, Json{{"error", "not_found"}});
}

// ---- the Bot API ----

BotApiStandIn::BotApiStandIn() : server_([this](const StandInRequest& r) { return handle(r); }) {}

StandInResponse BotApiStandIn::handle(const StandInRequest& r) {
    // /bot<token>/<method>
    const std::string path = r.path();
    const auto slash       = path.find('/', 1);
    if (path.rfind("/bot", 0) != 0 || slash == std::string::npos) {
        return json_answer(404, Json{{"ok", false}, {"description", "Not Found"}});
    }
    const std::string method = path.substr(slash + 1);
    Json body                = Json::parse(r.body, nullptr, false);
    std::size_t serial       = 0;
    {
        std::lock_guard lock(mutex_);
        token_seen = path.substr(4, slash - 4);
        calls_.emplace_back(method, body);
        serial = calls_.size();
    }
    if (method == "getMe") {
        return json_answer(200,
                           Json{{"ok", true},
                                {"result",
                                 {{"id", 4242},
                                  {"is_bot", true},
                                  {"first_name", "Papan"},
                                  {"username", "papan_test_bot"}}}});
    }
    if (method == "savePreparedInlineMessage") {
        return json_answer(200,
                           Json{{"ok", true},
                                {"result",
                                 {{"id", "prepared-" + std::to_string(serial)},
                                  {"expiration_date", now_s() + 3600}}}});
    }
    return json_answer(200, Json{{"ok", true}, {"result", true}});
}

std::vector<Json>
BotApiStandIn::calls(const std::string& method, std::size_t at_least, int timeout_ms) const {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
    for (;;) {
        std::vector<Json> out;
        {
            std::lock_guard lock(mutex_);
            for (const auto& [m, body] : calls_) {
                if (m == method) {
                    out.push_back(body);
                }
            }
        }
        if (out.size() >= at_least || std::chrono::steady_clock::now() > deadline) {
            return out;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
}

std::string telegram_init_data(const std::vector<std::pair<std::string, std::string>>& fields,
                               const std::string& bot_token) {
    // Telegram's documentation: data-check-string = the fields sorted by key, "key=value" lines;
    // secret_key = HMAC_SHA256(<bot_token>, "WebAppData"); hash = hex(HMAC_SHA256(dcs, secret)).
    auto sorted = fields;
    std::sort(sorted.begin(), sorted.end());
    std::string dcs;
    for (const auto& [k, v] : sorted) {
        dcs += (dcs.empty() ? "" : "\n") + k + "=" + v;
    }
    const std::string secret     = hmac("WebAppData", bot_token);
    const std::string mac        = hmac(secret, dcs);
    static constexpr char kHex[] = "0123456789abcdef";
    std::string hash;
    for (const char ch : mac) {
        const auto c = static_cast<unsigned char>(ch);
        hash += kHex[c >> 4];
        hash += kHex[c & 15];
    }
    std::string out;
    for (const auto& [k, v] : fields) {
        out += url_encode(k) + "=" + url_encode(v) + "&";
    }
    return out + "hash=" + hash;
}

}  // namespace papan::test
