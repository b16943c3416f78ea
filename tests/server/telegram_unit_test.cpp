// Telegram's launch data checked as Telegram documents it (telegram/launch_data.cpp), against
// launch data signed by the test's own implementation of that documented algorithm
// (stand_in.cpp), and what the bot answers (telegram/bot.cpp).
#include "stand_in.hpp"
#include "telegram/bot.hpp"
#include "telegram/launch_data.hpp"

#include <papan/server/tokens.hpp>

#include <gtest/gtest.h>

#include <cctype>
#include <string>
#include <variant>

namespace papan::server::telegram {
namespace {

using test::Json;

constexpr const char* kToken = "7000001:AAH-test_token_for_papan";
constexpr std::int64_t kNow  = 1'800'000'000;

std::vector<std::pair<std::string, std::string>> fields(std::int64_t auth_date = kNow - 60) {
    return {
        {"query_id", "AAHdF6IQAAAAAN0XohDhrOrc"},
        {"user",
         R"({"id":279058397,"first_name":"Siti","last_name":"Rahma","username":"siti_r","language_code":"id"})"},
        {"auth_date", std::to_string(auth_date)},
        {"signature", "not-checked-by-the-bot-owner"}};
}

std::variant<LaunchData, LaunchError> check(const std::string& init_data) {
    return validate_launch_data(init_data, kToken, kNow, 24 * 3600);
}

LaunchError error_of(const std::variant<LaunchData, LaunchError>& v) {
    EXPECT_TRUE(std::holds_alternative<LaunchError>(v)) << "the launch data was accepted";
    return std::holds_alternative<LaunchError>(v) ? std::get<LaunchError>(v)
                                                  : LaunchError::Malformed;
}

TEST(TelegramLaunchData, SignedDataGivesTheUser) {
    const auto v = check(test::telegram_init_data(fields(), kToken));
    ASSERT_TRUE(std::holds_alternative<LaunchData>(v))
        << launch_error_name(std::get<LaunchError>(v));
    const auto& d = std::get<LaunchData>(v);
    EXPECT_EQ(d.user.id, 279058397);
    EXPECT_EQ(d.user.first_name, "Siti");
    EXPECT_EQ(d.user.username, "siti_r");
    EXPECT_EQ(d.user.language_code, "id");
    EXPECT_EQ(d.auth_date, kNow - 60);
}

TEST(TelegramLaunchData, TamperedDataIsRefused) {
    const std::string good = test::telegram_init_data(fields(), kToken);
    // Another user id, with the original hash.
    std::string forged = good;
    const auto at      = forged.find("279058397");
    ASSERT_NE(at, std::string::npos);
    forged.replace(at, 9, "279058398");
    EXPECT_EQ(error_of(check(forged)), LaunchError::BadHash);
    // A field added after signing.
    EXPECT_EQ(error_of(check("start_param=x&" + good)), LaunchError::BadHash);
    // Signed for another bot.
    EXPECT_EQ(error_of(check(test::telegram_init_data(fields(), "7000002:AAOtherBot"))),
              LaunchError::BadHash);
    // A hash in capitals is not the documented hex.
    std::string upper = good;
    for (auto i = upper.find("hash=") + 5; i < upper.size(); ++i) {
        upper[i] = static_cast<char>(std::toupper(static_cast<unsigned char>(upper[i])));
    }
    EXPECT_EQ(error_of(check(upper)), LaunchError::BadHash);
}

TEST(TelegramLaunchData, StaleDataIsRefused) {
    EXPECT_EQ(error_of(check(test::telegram_init_data(fields(kNow - 2 * 24 * 3600), kToken))),
              LaunchError::Stale);
    EXPECT_EQ(error_of(check(test::telegram_init_data(fields(kNow + 3600), kToken))),
              LaunchError::Stale);
    auto no_date = fields();
    no_date.erase(no_date.begin() + 2);
    EXPECT_EQ(error_of(check(test::telegram_init_data(no_date, kToken))), LaunchError::Stale);
}

TEST(TelegramLaunchData, UnsignedAndMalformedDataIsRefused) {
    std::string unsigned_data;
    for (const auto& [k, v] : fields()) {
        unsigned_data += (unsigned_data.empty() ? "" : "&") + k + "=" + test::url_encode(v);
    }
    EXPECT_EQ(error_of(check(unsigned_data)), LaunchError::Unsigned);
    EXPECT_EQ(error_of(check(unsigned_data + "&hash=")), LaunchError::Unsigned);
    EXPECT_EQ(error_of(check("")), LaunchError::Malformed);
    EXPECT_EQ(error_of(check("user=%zz&hash=00")), LaunchError::Malformed);
    EXPECT_EQ(error_of(check("a=1&a=2&hash=00")), LaunchError::Malformed);
    EXPECT_EQ(error_of(check(std::string(9000, 'a'))), LaunchError::Malformed);
    // Signed, but no user in it.
    EXPECT_EQ(
        error_of(check(test::telegram_init_data({{"auth_date", std::to_string(kNow)}}, kToken))),
        LaunchError::NoUser);
}

TEST(TelegramLaunchData, TheDataCheckStringIsSortedLinesWithoutTheHash) {
    EXPECT_EQ(data_check_string({{"user", "{}"}, {"hash", "ab"}, {"auth_date", "1"}, {"b", "x y"}}),
              "auth_date=1\nb=x y\nuser={}");
}

const BotSite kSite{"https://papan.example", "papan_bot"};

Json start_update(const std::string& text, const std::string& chat_type = "private") {
    return Json{{"update_id", 1},
                {"message",
                 {{"message_id", 7},
                  {"from", {{"id", 55}, {"first_name", "Siti"}, {"language_code", "en"}}},
                  {"chat", {{"id", 55}, {"type", chat_type}}},
                  {"text", text}}}};
}

TEST(TelegramBotReplies, StartAnswersWithAMiniAppButton) {
    const auto calls = replies_to(start_update("/start"), kSite);
    ASSERT_EQ(calls.size(), 1U);
    EXPECT_EQ(calls[0].method, "sendMessage");
    EXPECT_EQ(calls[0].params["chat_id"], 55);
    const Json button = calls[0].params["reply_markup"]["inline_keyboard"][0][0];
    EXPECT_EQ(button["web_app"]["url"], "https://papan.example/");
    EXPECT_TRUE(replies_to(start_update("hello"), kSite).empty());
    EXPECT_TRUE(replies_to(Json::array(), kSite).empty());
}

TEST(TelegramBotReplies, StartWithAnInviteOpensItsGame) {
    const std::string invite = "0123456789abcdef-0123456789abcdef0123456789abcdef";
    const auto calls         = replies_to(start_update("/start join_" + invite), kSite);
    ASSERT_EQ(calls.size(), 1U);
    EXPECT_EQ(calls[0].params["reply_markup"]["inline_keyboard"][0][0]["web_app"]["url"],
              "https://papan.example/?join=" + invite);
    // In a group a Mini App button is not allowed: a link to the game instead.
    const auto group = replies_to(start_update("/start join_" + invite, "group"), kSite);
    ASSERT_EQ(group.size(), 1U);
    EXPECT_EQ(group[0].params["reply_markup"]["inline_keyboard"][0][0]["url"],
              "https://papan.example/#join=" + invite);
}

TEST(TelegramBotReplies, AnInviteOpensInTelegramOrInABrowser) {
    init_crypto();  // the result's id is random
    const std::string invite = "0123456789abcdef-0123456789abcdef0123456789abcdef";
    const Json r             = invite_result(kSite, invite, "siti_r", "Turkish", "en");
    EXPECT_EQ(r["type"], "article");
    EXPECT_EQ(r["reply_markup"]["inline_keyboard"][0][0]["url"],
              "https://t.me/papan_bot?start=join_" + invite);
    EXPECT_EQ(r["reply_markup"]["inline_keyboard"][1][0]["url"],
              "https://papan.example/#join=" + invite);
    EXPECT_NE(r["input_message_content"]["message_text"].get<std::string>().find("siti_r"),
              std::string::npos);
    EXPECT_EQ(start_payload(std::string(70, 'a')), "");
}

}  // namespace
}  // namespace papan::server::telegram
