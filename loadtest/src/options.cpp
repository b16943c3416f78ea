#include <papan/loadtest/options.hpp>

#include <algorithm>

namespace papan::loadtest {

std::string parse_url(const std::string& text, Url& out) {
    const std::string scheme = "ws://";
    if (text.rfind(scheme, 0) != 0) {
        return "the URL must start with ws:// (got '" + text + "')";
    }
    std::string rest      = text.substr(scheme.size());
    const auto slash      = rest.find('/');
    std::string authority = rest.substr(0, slash);
    out.path              = slash == std::string::npos ? "/" : rest.substr(slash);
    if (authority.empty()) {
        return "the URL has no host: '" + text + "'";
    }
    std::string host = authority;
    std::string port = "80";
    if (authority.front() == '[') {  // [v6]:port
        const auto close = authority.find(']');
        if (close == std::string::npos) {
            return "bad IPv6 host in '" + text + "'";
        }
        host = authority.substr(1, close - 1);
        if (close + 1 < authority.size()) {
            if (authority[close + 1] != ':') {
                return "bad host:port in '" + text + "'";
            }
            port = authority.substr(close + 2);
        }
    } else if (const auto colon = authority.rfind(':'); colon != std::string::npos) {
        host = authority.substr(0, colon);
        port = authority.substr(colon + 1);
    }
    if (host.empty() || port.empty() || port.size() > 5 ||
        !std::all_of(port.begin(), port.end(), [](char c) { return c >= '0' && c <= '9'; }) ||
        std::stoi(port) < 1 || std::stoi(port) > 65535) {
        return "bad host:port in '" + text + "'";
    }
    out.host = host;
    out.port = port;
    return {};
}

std::vector<std::string> split_urls(const std::vector<std::string>& values) {
    std::vector<std::string> out;
    for (const auto& v : values) {
        std::size_t at = 0;
        while (at <= v.size()) {
            const auto comma = v.find(',', at);
            std::string part =
                v.substr(at, comma == std::string::npos ? std::string::npos : comma - at);
            const auto first = part.find_first_not_of(" \t");
            const auto last  = part.find_last_not_of(" \t");
            if (first != std::string::npos) {
                out.push_back(part.substr(first, last - first + 1));
            }
            if (comma == std::string::npos) {
                break;
            }
            at = comma + 1;
        }
    }
    return out;
}

std::optional<Mode> parse_mode(const std::string& text) {
    if (text == "hotseat") {
        return Mode::Hotseat;
    }
    if (text == "friend") {
        return Mode::Friend;
    }
    if (text == "computer") {
        return Mode::Computer;
    }
    return std::nullopt;
}

std::string mode_name(Mode mode) {
    switch (mode) {
    case Mode::Hotseat:
        return "hotseat";
    case Mode::Friend:
        return "friend";
    case Mode::Computer:
        return "computer";
    }
    return "hotseat";
}

bool is_computer_level(const std::string& text) {
    return text == "easy" || text == "normal" || text == "hard" || text == "max";
}

std::string validate(const Options& o) {
    if (o.urls.empty()) {
        return "--url is required";
    }
    if (o.urls.size() > static_cast<std::size_t>(kMaxUrls)) {
        return "at most " + std::to_string(kMaxUrls) + " URLs";
    }
    for (const auto& u : o.urls) {
        Url parsed;
        if (auto e = parse_url(u, parsed); !e.empty()) {
            return e;
        }
    }
    if (o.games < 1 || o.games > kMaxConcurrentGames) {
        return "--games must be 1-" + std::to_string(kMaxConcurrentGames);
    }
    if (!(o.rate > 0.0) || o.rate > 100000.0) {
        return "--rate must be > 0 (games per second)";
    }
    if (!(o.duration > 0.0) || o.duration > kMaxDuration) {
        return "--duration must be > 0 and at most " +
               std::to_string(static_cast<int>(kMaxDuration)) + " s";
    }
    if (o.max_games < 0 || o.think_ms < 0 || o.max_errors < 0) {
        return "--max-games, --think and --max-errors must not be negative";
    }
    if (o.drain < 0.0 || o.drain > 600.0) {
        return "--drain must be 0-600 s";
    }
    if (!(o.stall > 0.0) || o.stall > 600.0) {
        return "--stall must be > 0 and at most 600 s";
    }
    if (o.threads < 1 || o.threads > kMaxThreads) {
        return "--threads must be 1-" + std::to_string(kMaxThreads);
    }
    if (!is_computer_level(o.level)) {
        return "--level must be easy, normal, hard or max";
    }
    if (!(o.reply_deadline > 0.0) || o.reply_deadline > kMaxDuration) {
        return "--reply-deadline must be > 0 and at most " +
               std::to_string(static_cast<int>(kMaxDuration)) + " s";
    }
    if (o.mode == Mode::Computer && o.reconnect) {
        return "--reconnect plays hotseat or friend games, not computer games";
    }
    return {};
}
}  // namespace papan::loadtest
