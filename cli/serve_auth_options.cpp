// The sign-in options of `papan serve` (docs/operations.md, "Sign-in with Google" and
// "Telegram"): an OpenID Connect provider, the rule for rated games, a Telegram bot. Secrets may
// come from the environment (PAPAN_OIDC_CLIENT_SECRET, PAPAN_TELEGRAM_BOT_TOKEN) or from the file
// of --config, so that they need not be on a command line other users of the machine can read.
#include "serve_options.hpp"

#include <map>

namespace papan::cli {

void add_auth_options(CLI::App& cmd, server::AuthOptions& auth) {
    cmd.add_option("--public-url",
                   auth.public_url,
                   "the site's address as players reach it (https://...): the sign-in's redirect "
                   "and the Telegram bot's links (default: the request's Host, plain http)");
    cmd.add_option("--oidc-issuer", auth.oidc_issuer, "the OpenID Connect provider")
        ->capture_default_str();
    cmd.add_option("--oidc-client-id",
                   auth.oidc_client_id,
                   "the client id registered with the provider (turns the sign-in on)");
    cmd.add_option("--oidc-client-secret",
                   auth.oidc_client_secret,
                   "the client secret (default: env PAPAN_OIDC_CLIENT_SECRET)");
    cmd.add_option("--oidc-name", auth.oidc_name, "the provider's name on the sign-in button")
        ->capture_default_str();
    cmd.add_option("--rated-requires",
                   auth.rated_rule,
                   "who may play rated games: any signed-in account, or only one signed in "
                   "with the OpenID Connect provider")
        ->transform(CLI::CheckedTransformer(std::map<std::string, server::RatedRule>{
            {"account", server::RatedRule::Account}, {"oidc", server::RatedRule::Oidc}}))
        ->default_str("account");
    cmd.add_option("--telegram-bot-token",
                   auth.telegram_bot_token,
                   "the bot's token from @BotFather (turns Telegram on; default: env "
                   "PAPAN_TELEGRAM_BOT_TOKEN)");
    cmd.add_option("--telegram-api", auth.telegram_api, "the Bot API's base URL")
        ->capture_default_str();
    cmd.add_option("--telegram-webhook-secret",
                   auth.telegram_webhook_secret,
                   "the webhook's secret token (default: derived from the bot token)");
    cmd.add_option("--telegram-max-age",
                   auth.telegram_max_age_s,
                   "seconds a Mini App's launch data stays valid")
        ->check(CLI::PositiveNumber)
        ->capture_default_str();
    cmd.add_flag("!--no-telegram-webhook",
                 auth.telegram_set_webhook,
                 "do not register the webhook with Telegram at start (it is set otherwise)");
    // Not CLI11's set_config: CLI11 reads a config file for the main program only, never for a
    // subcommand, so apply_config_file() reads it when `serve` runs.
    cmd.add_option("--config",
                   "read options from this TOML/INI file (key = value, as the long options; the "
                   "command line wins)")
        ->check(CLI::ExistingFile);
}

void apply_config_file(CLI::App& cmd) {
    const CLI::Option* config = cmd.get_option("--config");
    if (config->count() == 0) {
        return;
    }
    CLI::ConfigTOML format;  // from_file() is not const
    for (const CLI::ConfigItem& item : format.from_file(config->as<std::string>())) {
        if (item.name == "++" || item.name == "--") {
            continue;  // section marks: a file of sections has no options of `serve` in them
        }
        CLI::Option* opt = cmd.get_option_no_throw("--" + item.name);
        if (!item.parents.empty() || opt == nullptr || opt == config) {
            throw CLI::ConfigError::Extras(item.fullname());
        }
        if (opt->count() > 0) {
            continue;  // given on the command line
        }
        if (opt->get_expected_min() == 0) {
            opt->add_result(opt->get_flag_value(item.name, format.to_flag(item)));
        } else {
            opt->add_result(item.inputs);
        }
        opt->run_callback();
    }
}

}  // namespace papan::cli
