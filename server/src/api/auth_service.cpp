#include "api/auth_service.hpp"

#include "api/http.hpp"
#include "api/http_wire.hpp"
#include "auth/jwt.hpp"
#include "support/log.hpp"

#include <papan/server/store.hpp>

#include <cstdlib>
#include <stdexcept>

namespace papan::server {

using Json = nlohmann::json;

namespace {

std::string from_env(const std::string& value, const char* name) {
    if (!value.empty()) {
        return value;
    }
    const char* v = std::getenv(name);
    return v != nullptr ? std::string(v) : std::string{};
}

std::string without_trailing_slash(std::string s) {
    while (!s.empty() && s.back() == '/') {
        s.pop_back();
    }
    return s;
}

void replace_once(std::string& s, std::string_view from, std::string_view to) {
    if (const auto at = s.find(from); at != std::string::npos) {
        s.replace(at, from.size(), to);
    }
}

}  // namespace

AuthService::AuthService(AuthOptions options, const Clock& clock, Fetcher fetcher)
    : options_(std::move(options))
    , clock_(clock)
    , outbound_(2, 64)
    , attempts_(clock, 60'000) {
    options_.public_url         = without_trailing_slash(options_.public_url);
    options_.oidc_client_secret = from_env(options_.oidc_client_secret, "PAPAN_OIDC_CLIENT_SECRET");
    options_.telegram_bot_token = from_env(options_.telegram_bot_token, "PAPAN_TELEGRAM_BOT_TOKEN");
    if (!options_.public_url.empty() && options_.public_url.rfind("https://", 0) != 0 &&
        options_.public_url.rfind("http://", 0) != 0) {
        throw std::invalid_argument("--public-url must be an http:// or https:// address");
    }
    if (!options_.oidc_client_id.empty()) {
        if (options_.oidc_issuer.empty()) {
            throw std::invalid_argument("--oidc-client-id needs an --oidc-issuer");
        }
        oidc_ = std::make_unique<auth::OidcClient>(auth::OidcSettings{options_.oidc_issuer,
                                                                      options_.oidc_client_id,
                                                                      options_.oidc_client_secret,
                                                                      "openid profile"},
                                                   fetcher,
                                                   clock_);
    }
    if (options_.rated_rule == RatedRule::Oidc && !oidc_) {
        throw std::invalid_argument(
            "--rated-requires oidc needs an OpenID Connect client (--oidc-client-id)");
    }
    if (!options_.telegram_bot_token.empty()) {
        if (options_.public_url.empty()) {
            throw std::invalid_argument(
                "a Telegram bot needs --public-url: the https:// address its Mini App opens");
        }
        bot_ = std::make_unique<telegram::BotApi>(
            options_.telegram_api, options_.telegram_bot_token, fetcher);
        webhook_secret_ = options_.telegram_webhook_secret.empty()
                              ? auth::hex(auth::hmac_sha256(options_.telegram_bot_token,
                                                            "papan telegram webhook"))
                              : options_.telegram_webhook_secret;
    }
}

AuthService::~AuthService() {
    stop();
}

void AuthService::start() {
    if (!bot_) {
        return;
    }
    const bool set_webhook = options_.telegram_set_webhook;
    const bool queued      = outbound_.try_post([this, set_webhook] {
        try {
            const Json me = bot_->call("getMe", Json::object());
            if (me.is_object() && me.contains("username") && me["username"].is_string()) {
                set_bot_username(me["username"].get<std::string>());
            }
            if (set_webhook) {
                (void)bot_->call("setWebhook",
                                 Json{{"url", options_.public_url + "/api/telegram/webhook"},
                                      {"secret_token", webhook_secret_},
                                      {"allowed_updates", Json::array({"message"})}});
            }
            log_line("telegram", "the bot @" + bot_site().bot_username + " is ready");
        } catch (const std::exception& e) {
            log_line("telegram", std::string("setting up the bot failed: ") + e.what());
        }
    });
    if (!queued) {
        log_line("telegram", "setting up the bot could not be queued");
    }
}

void AuthService::stop() {
    outbound_.stop();
}

std::int64_t AuthService::take_attempt(const std::string& ip) {
    return ip.empty() ? 0 : attempts_.take("ip:" + ip, 30);
}

telegram::BotSite AuthService::bot_site() const {
    std::lock_guard lock(mutex_);
    return telegram::BotSite{options_.public_url, bot_username_};
}

void AuthService::set_bot_username(std::string name) {
    std::lock_guard lock(mutex_);
    bot_username_ = std::move(name);
}

std::string AuthService::public_base(const Request& req) const {
    if (!options_.public_url.empty()) {
        return options_.public_url;
    }
    return "http://" + (req.host.empty() ? std::string("localhost") : req.host);
}

bool AuthService::secure_cookies() const noexcept {
    return options_.public_url.rfind("https://", 0) == 0;
}

bool AuthService::rating_allowed(Store& s, std::int64_t user_id) const {
    if (options_.rated_rule == RatedRule::Account) {
        return true;
    }
    for (const auto& id : s.identities_of(user_id)) {
        if (id.issuer == options_.oidc_issuer) {
            return true;
        }
    }
    return false;
}

std::vector<std::string> AuthService::providers_of(Store& s, std::int64_t user_id) const {
    std::vector<std::string> out;
    for (const auto& id : s.identities_of(user_id)) {
        out.push_back(id.issuer == kTelegramIssuer ? "telegram" : "oidc");
    }
    return out;
}

std::string AuthService::page_policy() const {
    if (!bot_) {
        return {};
    }
    // Telegram's script (telegram-web-app.js, loaded only inside Telegram) and Telegram Web,
    // which shows a Mini App in a frame.
    std::string csp(content_security_policy());
    replace_once(csp, "script-src 'self'", "script-src 'self' https://telegram.org");
    replace_once(csp, "frame-ancestors 'none'", "frame-ancestors 'self' https://web.telegram.org");
    return csp;
}

void apply_page_policy(const AuthService* auth, HttpResponse& r) {
    if (auth == nullptr || r.content_type.rfind("text/html", 0) != 0) {
        return;
    }
    const std::string csp = auth->page_policy();
    if (csp.empty()) {
        return;
    }
    r.headers.emplace_back("Content-Security-Policy", csp);
    // frame-ancestors governs framing; X-Frame-Options cannot name an allowed site: dropped.
    r.headers.emplace_back("X-Frame-Options", "");
}

}  // namespace papan::server
