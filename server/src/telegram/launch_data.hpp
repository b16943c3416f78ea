// A Telegram Mini App's launch data (Telegram.WebApp.initData) checked as Telegram documents it
// ("Validating data received via the Mini App"): the fields but `hash`, sorted by key, joined as
// key=value lines, are the data-check-string; its HMAC-SHA-256 under the key
// HMAC-SHA-256("WebAppData", bot token) must be `hash`; `auth_date` must be recent. Only then is
// the `user` in it believed.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace papan::server::telegram {

struct TelegramUser {
    std::int64_t id = 0;
    std::string first_name;
    std::string last_name;
    std::string username;
    std::string language_code;
};

struct LaunchData {
    TelegramUser user;
    std::int64_t auth_date = 0;  // Unix seconds
    std::string start_param;     // of a direct link (?startapp=...), if any
};

enum class LaunchError : std::uint8_t {
    Malformed,  // not a query string of unique, decodable fields, or too long
    Unsigned,   // no `hash`
    BadHash,    // the hash does not match: tampered with, or another bot's
    Stale,      // auth_date missing, older than the allowed age, or in the future
    NoUser,     // signed, but without a user (id and first name)
};

[[nodiscard]] std::string_view launch_error_name(LaunchError e) noexcept;

inline constexpr std::size_t kMaxLaunchDataBytes = 8 * 1024;

// The fields of a query string, percent-decoded ('+' as a space); nullopt when a field repeats,
// has no '=' or an empty key, or does not decode.
[[nodiscard]] std::optional<std::vector<std::pair<std::string, std::string>>>
parse_query(std::string_view query);

// The data-check-string of the fields: all but `hash`, sorted by key, "key=value" joined by '\n'.
[[nodiscard]] std::string
data_check_string(const std::vector<std::pair<std::string, std::string>>& fields);

// The hash Telegram puts in launch data for these fields (lowercase hex).
[[nodiscard]] std::string
launch_hash(const std::vector<std::pair<std::string, std::string>>& fields,
            std::string_view bot_token);

[[nodiscard]] std::variant<LaunchData, LaunchError> validate_launch_data(std::string_view init_data,
                                                                         std::string_view bot_token,
                                                                         std::int64_t now_s,
                                                                         std::int64_t max_age_s);

}  // namespace papan::server::telegram
