// The options of sign-in from outside (docs/operations.md, "Sign-in with Google" and "Telegram"):
// an OpenID Connect provider (Google by default), the operator's rule for rated games, and a
// Telegram bot whose Mini App is the site. Each part is off until configured.
#pragma once

#include <cstdint>
#include <string>

namespace papan::server {

enum class RatedRule : std::uint8_t {
    Account,  // any signed-in account may play rated games
    Oidc,     // only an account linked to the OpenID Connect provider (Ttakji's rule)
};

struct AuthOptions {
    // The site's address as players reach it (https://papan.example): the redirect URI given to
    // the provider, the links the bot sends. Empty: the Host of the request (plain http; for a
    // site on one's own machine).
    std::string public_url;

    // OpenID Connect: on when a client id is set. The secret may come from the environment
    // (PAPAN_OIDC_CLIENT_SECRET) rather than the command line.
    std::string oidc_issuer = "https://accounts.google.com";
    std::string oidc_client_id;
    std::string oidc_client_secret;
    std::string oidc_name = "Google";  // the sign-in button's words: "Sign in with <name>"
    RatedRule rated_rule  = RatedRule::Account;

    // Telegram: on when a bot token is set (or PAPAN_TELEGRAM_BOT_TOKEN).
    std::string telegram_bot_token;
    std::string telegram_api = "https://api.telegram.org";  // the Bot API's base URL
    // The webhook's X-Telegram-Bot-Api-Secret-Token; empty: derived from the bot token.
    std::string telegram_webhook_secret;
    // Launch data older than this is refused (Telegram's auth_date), in seconds.
    std::int64_t telegram_max_age_s = 24 * 3600;
    // Register the webhook (setWebhook) with Telegram at start; needs public_url.
    bool telegram_set_webhook = true;
};

}  // namespace papan::server
