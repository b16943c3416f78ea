// Room: the chat of games between people (docs/protocol.md, "Chat"): friend and random games
// whose seats are both people; the players write, every subscriber (spectators too) reads. A
// line is cleaned as a nickname is, at most kChatMaxChars characters, and each player writes at
// most kChatBurst lines in kChatWindowMs. Lines are stored with the game (the chat table); the
// state carries the last kChatLinesLoaded.
#include "game/game_json.hpp"
#include "game/room.hpp"
#include "support/text.hpp"

namespace papan::server {

using Json = nlohmann::json;

namespace {

constexpr std::size_t kChatMaxChars  = 200;
constexpr std::size_t kChatBurst     = 5;
constexpr std::int64_t kChatWindowMs = 10'000;

Json line_json(const ChatRecord& l) {
    return {{"by", color_key(static_cast<core::Color>(l.color))},
            {"ply", l.ply},
            {"time_ms", l.at_ms},
            {"text", l.text}};
}

}  // namespace

bool Room::chat_allowed() const {
    return (rec_.mode == GameMode::Friend || rec_.mode == GameMode::Random) &&
           !is_computer(core::Color::White) && !is_computer(core::Color::Black);
}

Json Room::chat_json() const {
    Json lines = Json::array();
    for (const auto& l : chat_) {
        lines.push_back(line_json(l));
    }
    return lines;
}

Json Room::last_chat_line_json() const {
    return chat_.empty() ? Json(nullptr) : line_json(chat_.back());
}

void Room::on_chat(const ClientMessage& m, core::Color me, const std::shared_ptr<Peer>& peer) {
    if (!chat_allowed()) {
        send_error(
            peer, "chat_not_allowed", "chat is for friend and random games between people", m.id);
        return;
    }
    if (rec_.status == GameStatus::Waiting) {
        send_error(peer, "not_started", "the game has not started: waiting for the opponent", m.id);
        return;
    }
    std::string text = clean_line(m.text);
    if (text.empty()) {
        send_error(peer, "chat_empty", "the message is empty", m.id);
        return;
    }
    if (utf8_length(text) > kChatMaxChars) {
        send_error(peer,
                   "chat_too_long",
                   "a chat message has at most " + std::to_string(kChatMaxChars) + " characters",
                   m.id);
        return;
    }
    const std::int64_t now = svc_.clock.now_ms();
    auto& times            = chat_times_[static_cast<std::size_t>(core::index(me))];
    while (!times.empty() && now - times.front() >= kChatWindowMs) {
        times.pop_front();
    }
    if (times.size() >= kChatBurst) {
        send_error(peer,
                   "chat_rate",
                   "at most " + std::to_string(kChatBurst) + " chat messages in " +
                       std::to_string(kChatWindowMs / 1000) + " s; wait a moment",
                   m.id);
        return;
    }
    begin_change();  // before the line's time is counted: a write that fails takes both back
    times.push_back(now);
    const ChatRecord line{game_.ply(), core::index(me), now, std::move(text)};
    chat_.push_back(line);
    while (chat_.size() > static_cast<std::size_t>(kChatLinesLoaded)) {
        chat_.pop_front();
    }
    const GameRecord h = next_header();
    commit(Json{{"kind", "chat"}, {"by", color_key(me)}, {"text", line.text}, {"time_ms", now}},
           [h, line](Store& s) { s.append_chat(h, line); },
           {peer, m.id});
}

}  // namespace papan::server
