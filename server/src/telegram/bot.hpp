// The Telegram bot: Bot API calls (POST <base>/bot<token>/<method> with a JSON body; the answer
// {"ok": true, "result": ...}) and what the bot says. The words and buttons are worked out by
// plain functions (replies_to, invite_message) so tests can read them; BotApi sends them.
#pragma once

#include "outbound/http_client.hpp"

#include <nlohmann/json.hpp>

#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace papan::server::telegram {

// The Bot API refused a call (ok: false) or could not be reached; the text is for the log.
class BotApiError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

class BotApi {
public:
    BotApi(std::string base_url, std::string token, Fetcher fetch);

    // The call's "result". Throws BotApiError.
    nlohmann::json call(const std::string& method, const nlohmann::json& params) const;

private:
    std::string base_url_;
    std::string token_;
    Fetcher fetch_;
};

struct BotCall {
    std::string method;
    nlohmann::json params;
};

struct BotSite {
    std::string public_url;    // https://papan.example (no trailing slash)
    std::string bot_username;  // without '@'; empty while unknown
};

// The calls that answer one update of the webhook: /start (with or without a payload) gets a
// message with a button that opens the site as a Mini App (a friend invite's game, for the
// payload join_<invite>); anything else gets nothing.
[[nodiscard]] std::vector<BotCall> replies_to(const nlohmann::json& update, const BotSite& site);

// The inline result a player shares into a chat to invite a friend (savePreparedInlineMessage):
// a message with a button that opens the game in Telegram (through the bot) and one that opens
// it in a browser.
[[nodiscard]] nlohmann::json invite_result(const BotSite& site,
                                           const std::string& invite,
                                           const std::string& inviter,
                                           const std::string& variant_name,
                                           const std::string& language);

// The site's URL that opens the invite's game in a browser (the friend link), and the one a Mini
// App button opens: Telegram adds its launch data to the fragment, so the invite rides in the
// query (the client reads ?join=).
[[nodiscard]] std::string invite_url(const BotSite& site, const std::string& invite);
[[nodiscard]] std::string mini_app_invite_url(const BotSite& site, const std::string& invite);
// "join_<invite>" when it fits Telegram's start parameter (64 of A-Z a-z 0-9 _ -), else "".
[[nodiscard]] std::string start_payload(const std::string& invite);

}  // namespace papan::server::telegram
