// The Telegram bot and Mini App, end to end: the real `papan serve` with a bot token and a local
// stand-in of the Bot API (real HTTP, every call recorded). Launch data signed by the test as
// Telegram documents it signs the player in with no sign-up; the webhook answers only Telegram
// (its secret-token header); /start and a shared invite make the Bot API calls they should.
#include "harness.hpp"
#include "stand_in.hpp"

#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/string_body.hpp>
#include <boost/beast/http/write.hpp>
#include <gtest/gtest.h>

#include <ctime>
#include <map>
#include <memory>
#include <string>

namespace papan::test {
namespace {

namespace net   = boost::asio;
namespace beast = boost::beast;
namespace http  = beast::http;

constexpr const char* kBotToken = "7000001:AAH-papan-test-token";

struct Answer {
    unsigned status = 0;
    std::string body;
    std::map<std::string, std::string> headers;

    [[nodiscard]] Json json() const { return Json::parse(body, nullptr, false); }
};

Answer post(unsigned short port,
            const std::string& target,
            const std::string& body,
            const std::map<std::string, std::string>& extras = {}) {
    net::io_context ioc;
    beast::tcp_stream stream(ioc);
    stream.connect(net::ip::tcp::endpoint(net::ip::make_address("127.0.0.1"), port));
    http::request<http::string_body> req{http::verb::post, target, 11};
    req.set(http::field::host, "127.0.0.1");
    for (const auto& [k, v] : extras) {
        req.set(k, v);
    }
    req.set(http::field::content_type, "application/json");
    req.body() = body;
    req.prepare_payload();
    http::write(stream, req);
    beast::flat_buffer buf;
    http::response<http::string_body> res;
    http::read(stream, buf, res);
    Answer a{res.result_int(), res.body(), {}};
    for (const auto& f : res.base()) {
        std::string name(f.name_string());
        for (auto& c : name) {
            c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        }
        a.headers[name] = std::string(f.value());
    }
    return a;
}

std::string launch_data(std::int64_t user_id,
                        const std::string& username,
                        std::int64_t age_s       = 30,
                        const std::string& token = kBotToken) {
    const auto now = static_cast<std::int64_t>(std::time(nullptr));
    return telegram_init_data({{"query_id", "AAHdF6IQAAAAAN0XohDhrOrc"},
                               {"user",
                                Json{{"id", user_id},
                                     {"first_name", "Siti"},
                                     {"username", username},
                                     {"language_code", "id"}}
                                    .dump()},
                               {"auth_date", std::to_string(now - age_s)}},
                              token);
}

class TelegramBot : public ::testing::Test {
protected:
    void SetUp() override {
        server = std::make_unique<ServerProcess>(dir.path(),
                                                 std::vector<std::string>{"--telegram-bot-token",
                                                                          kBotToken,
                                                                          "--telegram-api",
                                                                          bot.url(),
                                                                          "--public-url",
                                                                          "https://papan.test"});
        // At start the bot learns its name and registers its webhook with the secret token.
        const auto hooks = bot.calls("setWebhook", 1);
        ASSERT_FALSE(hooks.empty());
        webhook_secret = hooks.back()["secret_token"];
    }

    Answer webhook(const Json& update, const std::string& secret) {
        return post(server->port(),
                    "/api/telegram/webhook",
                    update.dump(),
                    {{"X-Telegram-Bot-Api-Secret-Token", secret}});
    }

    static Json start_update(const std::string& text) {
        return Json{{"update_id", 10},
                    {"message",
                     {{"message_id", 1},
                      {"date", 1},
                      {"from", {{"id", 777}, {"is_bot", false}, {"first_name", "Siti"}}},
                      {"chat", {{"id", 777}, {"type", "private"}}},
                      {"text", text}}}};
    }

    BotApiStandIn bot;
    TempDir dir;
    std::unique_ptr<ServerProcess> server;
    std::string webhook_secret;
};

TEST_F(TelegramBot, TheBotIsSetUpAtStart) {
    EXPECT_EQ(bot.token_seen, kBotToken);
    EXPECT_FALSE(bot.calls("getMe", 1).empty());
    const Json hook = bot.calls("setWebhook", 1).back();
    EXPECT_EQ(hook["url"], "https://papan.test/api/telegram/webhook");
    EXPECT_GE(webhook_secret.size(), 32U);
    EXPECT_EQ(webhook_secret.find(kBotToken), std::string::npos);  // not the token itself
}

TEST_F(TelegramBot, TheWebhookAnswersTelegramOnly) {
    EXPECT_EQ(webhook(start_update("/start"), "wrong-secret").status, 401U);
    EXPECT_EQ(webhook(start_update("/start"), "").status, 401U);
    EXPECT_EQ(bot.calls("sendMessage", 0, 300).size(), 0U);  // nothing was sent for them
    EXPECT_EQ(webhook(start_update("/start"), webhook_secret).status, 200U);
    const auto sent = bot.calls("sendMessage", 1);
    ASSERT_EQ(sent.size(), 1U);
    EXPECT_EQ(sent[0]["chat_id"], 777);
    EXPECT_EQ(sent[0]["reply_markup"]["inline_keyboard"][0][0]["web_app"]["url"],
              "https://papan.test/");
    // Other messages get no answer; a body that is not an update is refused.
    EXPECT_EQ(webhook(start_update("hello"), webhook_secret).status, 200U);
    EXPECT_EQ(post(server->port(),
                   "/api/telegram/webhook",
                   "[1,",
                   {{"X-Telegram-Bot-Api-Secret-Token", webhook_secret}})
                  .status,
              400U);
    EXPECT_EQ(bot.calls("sendMessage", 2, 500).size(), 1U);
}

TEST_F(TelegramBot, LaunchDataSignsThePlayerInWithNoSignUp) {
    const Answer first = post(server->port(),
                              "/api/auth/telegram",
                              Json{{"init_data", launch_data(279058397, "siti_r")}}.dump());
    ASSERT_EQ(first.status, 201U) << first.body;
    EXPECT_EQ(first.json()["user"]["username"], "siti_r");
    const std::string token = first.json()["token"];
    // Launching again: the same account.
    const Answer again = post(server->port(),
                              "/api/auth/telegram",
                              Json{{"init_data", launch_data(279058397, "siti_r")}}.dump());
    ASSERT_EQ(again.status, 200U) << again.body;
    EXPECT_EQ(again.json()["user"]["id"], first.json()["user"]["id"]);
    // Another Telegram user whose username is taken here gets a free variant of it.
    const Answer other = post(server->port(),
                              "/api/auth/telegram",
                              Json{{"init_data", launch_data(1234, "siti_r")}}.dump());
    ASSERT_EQ(other.status, 201U) << other.body;
    EXPECT_EQ(other.json()["user"]["username"], "siti_r_2");

    WsClient ws(server->port());
    EXPECT_EQ(ws.hello_token(token)["player"]["name"], "siti_r");
}

TEST_F(TelegramBot, TamperedStaleAndUnsignedLaunchDataIsRefused) {
    std::string tampered = launch_data(279058397, "siti_r");
    tampered.replace(tampered.find("279058397"), 9, "279058398");
    for (const std::string& bad : {tampered,
                                   launch_data(279058397, "siti_r", 3 * 24 * 3600),
                                   launch_data(279058397, "siti_r", 30, "7000002:AAOther"),
                                   std::string("user=%7B%22id%22%3A1%7D&auth_date=1")}) {
        const Answer a =
            post(server->port(), "/api/auth/telegram", Json{{"init_data", bad}}.dump());
        EXPECT_EQ(a.status, 401U) << bad;
        EXPECT_EQ(a.json()["error"], "bad_launch_data");
    }
}

TEST_F(TelegramBot, AnInviteIsSharedIntoAChatAndOpensTheGame) {
    const Answer session    = post(server->port(),
                                "/api/auth/telegram",
                                Json{{"init_data", launch_data(279058397, "siti_r")}}.dump());
    const std::string token = session.json()["token"];
    WsClient ws(server->port());
    ws.hello_token(token);
    const Json st = ws.create(Json{{"mode", "friend"}, {"variant", "turkish"}, {"color", "white"}});
    const std::string invite = st["created"]["invite"];

    const Answer shared = post(server->port(),
                               "/api/telegram/share",
                               Json{{"invite", invite}, {"language", "en"}}.dump(),
                               {{"Authorization", "Bearer " + token}});
    ASSERT_EQ(shared.status, 200U) << shared.body;
    EXPECT_EQ(shared.json()["prepared_message_id"].get<std::string>().rfind("prepared-", 0), 0U);
    const auto prepared = bot.calls("savePreparedInlineMessage", 1);
    ASSERT_EQ(prepared.size(), 1U);
    EXPECT_EQ(prepared[0]["user_id"], 279058397);
    const Json rows = prepared[0]["result"]["reply_markup"]["inline_keyboard"];
    EXPECT_EQ(rows[0][0]["url"], "https://t.me/papan_test_bot?start=join_" + invite);
    EXPECT_EQ(rows[1][0]["url"], "https://papan.test/#join=" + invite);
    EXPECT_NE(
        prepared[0]["result"]["input_message_content"]["message_text"].get<std::string>().find(
            "Turkish"),
        std::string::npos);

    // The friend taps "Play in Telegram": the bot's /start opens the same game in the Mini App.
    ASSERT_EQ(webhook(start_update("/start join_" + invite), webhook_secret).status, 200U);
    const auto sent = bot.calls("sendMessage", 1);
    ASSERT_EQ(sent.size(), 1U);
    EXPECT_EQ(sent[0]["reply_markup"]["inline_keyboard"][0][0]["web_app"]["url"],
              "https://papan.test/?join=" + invite);

    // Only a Telegram account of a live invite can share.
    EXPECT_EQ(post(server->port(), "/api/telegram/share", Json{{"invite", invite}}.dump()).status,
              401U);
    std::string forged = invite;  // one character changed
    forged.back()      = forged.back() == '0' ? '1' : '0';
    EXPECT_EQ(post(server->port(),
                   "/api/telegram/share",
                   Json{{"invite", forged}}.dump(),
                   {{"Authorization", "Bearer " + token}})
                  .status,
              404U);
    const Answer reg =
        post(server->port(), "/api/register", R"({"username":"budi","password":"correct horse"})");
    EXPECT_EQ(post(server->port(),
                   "/api/telegram/share",
                   Json{{"invite", invite}}.dump(),
                   {{"Authorization", "Bearer " + reg.json()["token"].get<std::string>()}})
                  .status,
              403U);
}

TEST(TelegramOff, WithoutATokenNothingOfTelegramShows) {
    TempDir dir;
    ServerProcess server(dir.path());
    EXPECT_EQ(post(server.port(), "/api/telegram/webhook", "{}").status, 404U);
    EXPECT_EQ(post(server.port(), "/api/auth/telegram", "{}").status, 404U);
    const HttpResult config = http_request(server.port(), "GET", "/api/auth/config");
    EXPECT_TRUE(config.json()["telegram"].is_null());
    // The page keeps its strict policy: no Telegram script, no framing.
    const HttpResult page = http_request(server.port(), "GET", "/");
    EXPECT_NE(page.headers.find("frame-ancestors 'none'"), std::string::npos) << page.headers;
}

TEST_F(TelegramBot, ThePageMayBeFramedByTelegramWebAndLoadItsScript) {
    const HttpResult page = http_request(server->port(), "GET", "/");
    EXPECT_NE(page.headers.find("script-src 'self' https://telegram.org"), std::string::npos)
        << page.headers;
    EXPECT_NE(page.headers.find("frame-ancestors 'self' https://web.telegram.org"),
              std::string::npos);
    EXPECT_EQ(page.headers.find("X-Frame-Options"), std::string::npos);
    const HttpResult config = http_request(server->port(), "GET", "/api/auth/config");
    EXPECT_EQ(config.json()["telegram"]["bot"], "papan_test_bot");
}

}  // namespace
}  // namespace papan::test
