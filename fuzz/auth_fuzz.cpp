// libFuzzer target: what the server reads from outside at sign-in (server/src/auth,
// server/src/telegram): the bytes as an ID token checked by the OpenID Connect client (its
// provider answered in-process with a fixed JWK Set, so the checks run to the signature and
// beyond: a token whose claims are JSON), as a JWK Set, as a Telegram Mini App's launch data and
// as a webhook update the bot answers. Nothing may throw or crash; nothing forged is accepted
// (no token verifies without the provider's key; no launch data checks without the bot's
// token, except the one the input itself was signed with, which the target signs only for a
// share of the inputs), and a bot answer is a sendMessage to the update's own chat.
#include "auth/jwt.hpp"
#include "auth/oidc.hpp"
#include "fuzz_check.hpp"
#include "telegram/bot.hpp"
#include "telegram/launch_data.hpp"

#include <papan/server/clock.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <variant>

namespace papan::fuzz::auth_fuzz {

using namespace papan::server;
using Json = nlohmann::json;

namespace {

constexpr Checker check{"fuzz_auth", DetailStyle::Block};
constexpr const char* kToken = "7000001:AAH-fuzz-token";

// A 2048-bit modulus that is nobody's key: no input can sign for it.
const Json& jwks() {
    static const Json keys = [] {
        std::string n(256, '\xC3');
        n[0] = '\xE1';
        return Json{{"keys",
                     Json::array({Json{{"kty", "RSA"},
                                       {"kid", "fuzz"},
                                       {"n", auth::base64url_encode(n)},
                                       {"e", "AQAB"}}})}};
    }();
    return keys;
}

OutboundResponse provider(const OutboundRequest& r) {
    if (r.url.find("openid-configuration") != std::string::npos) {
        return {200,
                Json{{"issuer", "https://id.example"},
                     {"authorization_endpoint", "https://id.example/auth"},
                     {"token_endpoint", "https://id.example/token"},
                     {"jwks_uri", "https://id.example/keys"}}
                    .dump(),
                "application/json"};
    }
    return {200, jwks().dump(), "application/json"};
}

}  // namespace

int one_input(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    static ManualClock clock(1'800'000'000'000);
    static auth::OidcClient oidc(
        auth::OidcSettings{"https://id.example", "papan", "", "openid"}, provider, clock);

    // An ID token: refused (there is no key to sign with), whatever its shape.
    const auto checked = oidc.validate(text, "fuzz-nonce");
    check(std::holds_alternative<auth::IdTokenError>(checked),
          "an unsigned ID token was accepted",
          text);

    // A JWK Set: only RSA keys come out, each usable.
    const Json j = Json::parse(text, nullptr, false);
    for (const auto& [kid, key] : auth::rs256_keys(j)) {
        check(key != nullptr, "a JWK Set gave a null key", text);
        check(!auth::verify_rs256(key.get(), text, text), "a JWK verified its own text", text);
    }

    // Launch data: forged (not signed with the bot's token) is refused...
    const auto launch = telegram::validate_launch_data(text, kToken, 1'800'000'000, 86'400);
    check(std::holds_alternative<telegram::LaunchError>(launch) ||
              text.find("hash=") != std::string_view::npos,
          "launch data without a hash was accepted",
          text);
    // ...and the same fields signed with the token check out, when they are fields at all.
    if (const auto fields = telegram::parse_query(text);
        fields && !fields->empty() && size % 4 == 0) {
        std::string signed_data(text);
        signed_data += "&hash=" + telegram::launch_hash(*fields, kToken);
        const auto again =
            telegram::validate_launch_data(signed_data, kToken, 1'800'000'000, 86'400);
        if (const auto* err = std::get_if<telegram::LaunchError>(&again)) {
            check(*err != telegram::LaunchError::BadHash ||
                      text.find("hash=") != std::string_view::npos,
                  "launch data signed with the bot's token did not check",
                  text);
        }
    }

    // A webhook update: at most a message to the chat it came from.
    for (const auto& call :
         telegram::replies_to(j, telegram::BotSite{"https://papan.example", "bot"})) {
        check(call.method == "sendMessage", "the bot called something else than sendMessage", text);
        check(call.params["chat_id"] == j["message"]["chat"]["id"],
              "the bot wrote to another chat",
              text);
    }
    return 0;
}

}  // namespace papan::fuzz::auth_fuzz

PAPAN_FUZZ_ENTRY(papan::fuzz::auth_fuzz::one_input)
