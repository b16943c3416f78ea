// ChatLog: the chat of a game between people (docs/protocol.md, "Chat") as a value: its last
// kChatLinesLoaded lines, oldest first, and when each side last wrote (the rate limit). A line
// is cleaned as a nickname is, has 1 to kChatMaxChars characters, and each side writes at most
// kChatBurst lines in any kChatWindowMs.
#pragma once

#include "game/events.hpp"

#include <papan/server/store.hpp>

#include <array>
#include <cstdint>
#include <deque>
#include <string_view>
#include <variant>

namespace papan::server {

inline constexpr std::size_t kChatMaxChars  = 200;
inline constexpr std::size_t kChatBurst     = 5;
inline constexpr std::int64_t kChatWindowMs = 10'000;

class ChatLog {
public:
    ChatLog() = default;

    explicit ChatLog(const std::vector<ChatRecord>& stored)
        : lines_(stored.begin(), stored.end()) {}

    [[nodiscard]] const std::deque<ChatRecord>& lines() const noexcept { return lines_; }

    // `side` writes `raw` at `ply` and now_ms: the line as kept (and to store), or why not.
    std::variant<ChatRecord, Refusal>
    write(core::Color side, std::string_view raw, int ply, std::int64_t now_ms);

    friend bool operator==(const ChatLog&, const ChatLog&) = default;

private:
    std::deque<ChatRecord> lines_;
    std::array<std::deque<std::int64_t>, 2> times_{};  // each side's lines in the window
};

}  // namespace papan::server
