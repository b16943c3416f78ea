#include "telegram/launch_data.hpp"

#include "auth/jwt.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <set>

namespace papan::server::telegram {

using Json = nlohmann::json;

namespace {

int hex_value(char c) {
    if (c >= '0' && c <= '9') {
        return c - '0';
    }
    if (c >= 'a' && c <= 'f') {
        return c - 'a' + 10;
    }
    if (c >= 'A' && c <= 'F') {
        return c - 'A' + 10;
    }
    return -1;
}

std::optional<std::string> decode(std::string_view s) {
    std::string out;
    out.reserve(s.size());
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (s[i] == '+') {
            out += ' ';
        } else if (s[i] == '%') {
            if (i + 2 >= s.size()) {
                return std::nullopt;
            }
            const int hi = hex_value(s[i + 1]);
            const int lo = hex_value(s[i + 2]);
            if (hi < 0 || lo < 0) {
                return std::nullopt;
            }
            out += static_cast<char>(hi * 16 + lo);
            i += 2;
        } else {
            out += s[i];
        }
    }
    return out;
}

}  // namespace

std::string_view launch_error_name(LaunchError e) noexcept {
    switch (e) {
    case LaunchError::Malformed:
        return "malformed";
    case LaunchError::Unsigned:
        return "unsigned";
    case LaunchError::BadHash:
        return "bad_hash";
    case LaunchError::Stale:
        return "stale";
    case LaunchError::NoUser:
        return "no_user";
    }
    return "malformed";
}

std::optional<std::vector<std::pair<std::string, std::string>>>
parse_query(std::string_view query) {
    std::vector<std::pair<std::string, std::string>> out;
    std::set<std::string> keys;
    while (!query.empty()) {
        const auto amp              = query.find('&');
        const std::string_view part = query.substr(0, amp);
        query         = amp == std::string_view::npos ? std::string_view{} : query.substr(amp + 1);
        const auto eq = part.find('=');
        if (eq == std::string_view::npos || eq == 0) {
            return std::nullopt;
        }
        auto key   = decode(part.substr(0, eq));
        auto value = decode(part.substr(eq + 1));
        if (!key || !value || key->empty() || !keys.insert(*key).second) {
            return std::nullopt;
        }
        out.emplace_back(std::move(*key), std::move(*value));
    }
    return out;
}

std::string data_check_string(const std::vector<std::pair<std::string, std::string>>& fields) {
    std::vector<std::pair<std::string, std::string>> sorted;
    for (const auto& f : fields) {
        if (f.first != "hash") {
            sorted.push_back(f);
        }
    }
    std::sort(sorted.begin(), sorted.end());
    std::string out;
    for (const auto& [k, v] : sorted) {
        if (!out.empty()) {
            out += '\n';
        }
        out += k;
        out += '=';
        out += v;
    }
    return out;
}

std::string launch_hash(const std::vector<std::pair<std::string, std::string>>& fields,
                        std::string_view bot_token) {
    const std::string secret = auth::hmac_sha256("WebAppData", bot_token);
    return auth::hex(auth::hmac_sha256(secret, data_check_string(fields)));
}

std::variant<LaunchData, LaunchError> validate_launch_data(std::string_view init_data,
                                                           std::string_view bot_token,
                                                           std::int64_t now_s,
                                                           std::int64_t max_age_s) {
    if (init_data.empty() || init_data.size() > kMaxLaunchDataBytes) {
        return LaunchError::Malformed;
    }
    const auto fields = parse_query(init_data);
    if (!fields) {
        return LaunchError::Malformed;
    }
    const auto field = [&](const char* key) -> const std::string* {
        for (const auto& f : *fields) {
            if (f.first == key) {
                return &f.second;
            }
        }
        return nullptr;
    };
    const std::string* hash = field("hash");
    if (hash == nullptr || hash->empty()) {
        return LaunchError::Unsigned;
    }
    if (!auth::constant_time_equal(launch_hash(*fields, bot_token), *hash)) {
        return LaunchError::BadHash;
    }
    // Signed by Telegram for this bot from here on; still, it must be recent.
    LaunchData out;
    const std::string* date = field("auth_date");
    if (date == nullptr || date->empty() || date->size() > 12 ||
        date->find_first_not_of("0123456789") != std::string::npos) {
        return LaunchError::Stale;
    }
    out.auth_date = std::stoll(*date);
    if (out.auth_date > now_s + 60 || now_s - out.auth_date > max_age_s) {
        return LaunchError::Stale;
    }
    const std::string* user = field("user");
    const Json u            = user != nullptr ? Json::parse(*user, nullptr, false) : Json{};
    if (!u.is_object() || !u.contains("id") || !u["id"].is_number_integer() ||
        u["id"].get<std::int64_t>() <= 0) {
        return LaunchError::NoUser;
    }
    const auto str = [&](const char* key) {
        const auto it = u.find(key);
        return it != u.end() && it->is_string() ? it->get<std::string>() : std::string{};
    };
    out.user.id            = u["id"].get<std::int64_t>();
    out.user.first_name    = str("first_name");
    out.user.last_name     = str("last_name");
    out.user.username      = str("username");
    out.user.language_code = str("language_code");
    if (const std::string* sp = field("start_param")) {
        out.start_param = *sp;
    }
    return out;
}

}  // namespace papan::server::telegram
