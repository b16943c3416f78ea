#include "game/chat_log.hpp"

#include "support/text.hpp"

namespace papan::server {

std::variant<ChatRecord, Refusal>
ChatLog::write(core::Color side, std::string_view raw, int ply, std::int64_t now_ms) {
    std::string text = clean_line(raw);
    if (text.empty()) {
        return Refusal{ErrorCode::ChatEmpty, "the message is empty"};
    }
    if (utf8_length(text) > kChatMaxChars) {
        return Refusal{ErrorCode::ChatTooLong,
                       "a chat message has at most " + std::to_string(kChatMaxChars) +
                           " characters"};
    }
    auto& times = times_[static_cast<std::size_t>(core::index(side))];
    while (!times.empty() && now_ms - times.front() >= kChatWindowMs) {
        times.pop_front();
    }
    if (times.size() >= kChatBurst) {
        return Refusal{ErrorCode::ChatRate,
                       "at most " + std::to_string(kChatBurst) + " chat messages in " +
                           std::to_string(kChatWindowMs / 1000) + " s; wait a moment"};
    }
    times.push_back(now_ms);
    ChatRecord line{ply, core::index(side), now_ms, std::move(text)};
    lines_.push_back(line);
    while (lines_.size() > static_cast<std::size_t>(kChatLinesLoaded)) {
        lines_.pop_front();
    }
    return line;
}

}  // namespace papan::server
