// Sign-in from outside, as the API layer holds it: the OpenID Connect client (when a client id is
// configured), the Telegram bot (when a bot token is), the small pool their outgoing calls run on
// (an outgoing call may take seconds; it must hold neither an I/O thread nor the store thread),
// and the per-address throttles of their routes. One per server (run_server makes it).
// docs/security.md, "Sign-in"; docs/operations.md, "Sign-in with Google" and "Telegram".
#pragma once

#include "api/accounts.hpp"
#include "auth/oidc.hpp"
#include "outbound/http_client.hpp"
#include "telegram/bot.hpp"

#include <papan/server/auth_options.hpp>
#include <papan/server/clock.hpp>

#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace papan::server {

class Store;
struct Request;
struct HttpResponse;

class AuthService {
public:
    // The issuer under which Telegram identities are kept (external_identities.issuer).
    static constexpr const char* kTelegramIssuer = "telegram";

    // Throws std::invalid_argument on options that cannot work (docs/operations.md).
    AuthService(AuthOptions options, const Clock& clock, Fetcher fetcher = &papan::server::fetch);
    ~AuthService();
    AuthService(const AuthService&)            = delete;
    AuthService& operator=(const AuthService&) = delete;

    // Learns the bot's username (getMe) and registers the webhook (setWebhook), on the pool.
    void start();
    void stop();

    [[nodiscard]] const AuthOptions& options() const noexcept { return options_; }

    [[nodiscard]] auth::OidcClient* oidc() noexcept { return oidc_.get(); }

    [[nodiscard]] const telegram::BotApi* bot() const noexcept { return bot_.get(); }

    [[nodiscard]] BoundedPool& outbound() noexcept { return outbound_; }

    [[nodiscard]] const Clock& clock() const noexcept { return clock_; }

    // Sign-in attempts per address (OpenID Connect starts, Telegram sign-ins): seconds to wait,
    // else counted.
    [[nodiscard]] std::int64_t take_attempt(const std::string& ip);

    // The X-Telegram-Bot-Api-Secret-Token Telegram is told to send (setWebhook).
    [[nodiscard]] const std::string& webhook_secret() const noexcept { return webhook_secret_; }

    // The site and the bot's username as the bot's messages need them.
    [[nodiscard]] telegram::BotSite bot_site() const;
    void set_bot_username(std::string name);

    // The site's base URL for a request: --public-url, else http://<Host of the request>.
    [[nodiscard]] std::string public_base(const Request& req) const;
    [[nodiscard]] bool secure_cookies() const noexcept;

    // Whether the user may play rated games under the operator's rule (store thread).
    [[nodiscard]] bool rating_allowed(Store& s, std::int64_t user_id) const;

    // The identities of the user for /api/me: ["google"]-like provider names (store thread).
    [[nodiscard]] std::vector<std::string> providers_of(Store& s, std::int64_t user_id) const;

    // The page's Content-Security-Policy when the site is a Telegram Mini App: Telegram's script
    // and Telegram Web's frame are allowed (empty: the default policy stands).
    [[nodiscard]] std::string page_policy() const;

private:
    AuthOptions options_;
    const Clock& clock_;
    std::unique_ptr<auth::OidcClient> oidc_;
    std::unique_ptr<telegram::BotApi> bot_;
    std::string webhook_secret_;
    BoundedPool outbound_;
    Throttle attempts_;
    mutable std::mutex mutex_;
    std::string bot_username_;
};

// Adds the Mini App's page policy to an HTML answer when Telegram is on (router.cpp).
void apply_page_policy(const AuthService* auth, HttpResponse& r);

}  // namespace papan::server
