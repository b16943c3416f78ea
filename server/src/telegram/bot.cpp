#include "telegram/bot.hpp"

#include "outbound/http_client.hpp"

#include <papan/server/tokens.hpp>

#include <algorithm>
#include <cctype>

namespace papan::server::telegram {

using Json = nlohmann::json;

namespace {

bool indonesian(const std::string& language) {
    return language.rfind("id", 0) == 0;
}

std::string string_at(const Json& j, const char* key) {
    const auto it = j.find(key);
    return it != j.end() && it->is_string() ? it->get<std::string>() : std::string{};
}

}  // namespace

BotApi::BotApi(std::string base_url, std::string token, Fetcher fetch)
    : base_url_(std::move(base_url))
    , token_(std::move(token))
    , fetch_(std::move(fetch)) {
    while (!base_url_.empty() && base_url_.back() == '/') {
        base_url_.pop_back();
    }
}

Json BotApi::call(const std::string& method, const Json& params) const {
    OutboundRequest req;
    req.method       = "POST";
    req.url          = base_url_ + "/bot" + token_ + "/" + method;
    req.content_type = "application/json";
    req.body         = params.dump();
    OutboundResponse r;
    try {
        r = fetch_(req);
    } catch (const OutboundError&) {
        // The URL holds the token: the error names the method only.
        throw BotApiError(method + ": the Bot API could not be reached");
    }
    const Json j = Json::parse(r.body, nullptr, false);
    if (!j.is_object() || !j.contains("ok") || j["ok"] != true) {
        throw BotApiError(method + ": HTTP " + std::to_string(r.status) + " " +
                          (j.is_object() ? string_at(j, "description") : std::string{}));
    }
    return j.contains("result") ? j["result"] : Json{};
}

std::string start_payload(const std::string& invite) {
    const std::string p = "join_" + invite;
    const bool ok       = p.size() <= 64 && std::all_of(p.begin(), p.end(), [](char c) {
                        return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-';
                    });
    return ok ? p : std::string{};
}

std::string invite_url(const BotSite& site, const std::string& invite) {
    return site.public_url + "/#join=" + percent_encode(invite);
}

std::string mini_app_invite_url(const BotSite& site, const std::string& invite) {
    return site.public_url + "/?join=" + percent_encode(invite);
}

std::vector<BotCall> replies_to(const Json& update, const BotSite& site) {
    if (!update.is_object() || !update.contains("message") || !update["message"].is_object()) {
        return {};
    }
    const Json& msg        = update["message"];
    const std::string text = string_at(msg, "text");
    if (text != "/start" && text.rfind("/start ", 0) != 0 && text.rfind("/start@", 0) != 0) {
        return {};
    }
    if (!msg.contains("chat") || !msg["chat"].is_object() || !msg["chat"].contains("id") ||
        !msg["chat"]["id"].is_number_integer()) {
        return {};
    }
    const auto chat_id         = msg["chat"]["id"].get<std::int64_t>();
    const bool private_ch      = string_at(msg["chat"], "type") == "private";
    const std::string language = msg.contains("from") && msg["from"].is_object()
                                     ? string_at(msg["from"], "language_code")
                                     : std::string{};
    const bool id              = indonesian(language);

    // "/start join_<invite>": a friend's invitation opened through the bot.
    std::string invite;
    if (const auto space = text.find(' '); space != std::string::npos) {
        const std::string payload = text.substr(space + 1);
        if (payload.rfind("join_", 0) == 0 && payload.size() > 5 && payload.size() <= 64) {
            invite = payload.substr(5);
        }
    }
    const std::string url = invite.empty() ? site.public_url + "/"
                            : private_ch   ? mini_app_invite_url(site, invite)
                                           : invite_url(site, invite);
    const std::string words =
        invite.empty()
            ? (id ? "Papan: dam dalam sepuluh varian, melawan komputer, teman atau lawan acak. "
                    "Ketuk Main untuk membuka papan: tanpa unduhan, tanpa daftar."
                  : "Papan: draughts in ten variants, against the computer, a friend or a random "
                    "opponent. Tap Play to open the board: nothing to download, no sign-up.")
            : (id ? "Temanmu mengajakmu bermain dam. Ketuk Main untuk duduk di mejanya."
                  : "A friend has invited you to a game of draughts. Tap Play to sit down.");
    Json button{{"text", id ? "Main" : "Play"}};
    // A Mini App button works in the private chat with the bot only; elsewhere a plain link.
    if (private_ch) {
        button["web_app"] = {{"url", url}};
    } else {
        button["url"] = url;
    }
    return {BotCall{
        "sendMessage",
        Json{{"chat_id", chat_id},
             {"text", words},
             {"reply_markup", {{"inline_keyboard", Json::array({Json::array({button})})}}}}}};
}

Json invite_result(const BotSite& site,
                   const std::string& invite,
                   const std::string& inviter,
                   const std::string& variant_name,
                   const std::string& language) {
    const bool id             = indonesian(language);
    const std::string who     = inviter.empty() ? (id ? "Seorang teman" : "A friend") : inviter;
    const std::string text    = id ? who + " mengajakmu bermain " + variant_name + " di Papan."
                                   : who + " invites you to a game of " + variant_name + " on Papan.";
    Json rows                 = Json::array();
    const std::string payload = start_payload(invite);
    if (!site.bot_username.empty() && !payload.empty()) {
        rows.push_back(Json::array(
            {Json{{"text", id ? "Main di Telegram" : "Play in Telegram"},
                  {"url", "https://t.me/" + site.bot_username + "?start=" + payload}}}));
    }
    rows.push_back(Json::array({Json{{"text", id ? "Buka di peramban" : "Open in a browser"},
                                     {"url", invite_url(site, invite)}}}));
    return Json{{"type", "article"},
                {"id", random_hex(8)},
                {"title", id ? "Undang teman ke permainan ini" : "Invite a friend to this game"},
                {"description", text},
                {"input_message_content", {{"message_text", text}}},
                {"reply_markup", {{"inline_keyboard", rows}}}};
}

}  // namespace papan::server::telegram
