#include "store/stored_kinds.hpp"

#include <papan/server/game_kinds.hpp>

#include <array>
#include <stdexcept>
#include <string>
#include <utility>

namespace papan::server {

namespace {

constexpr std::array<std::pair<GameStatus, std::string_view>, 3> kStatuses{{
    {GameStatus::Waiting, "waiting"},
    {GameStatus::Playing, "playing"},
    {GameStatus::Over, "over"},
}};

constexpr std::array<std::pair<GameMode, std::string_view>, 5> kModes{{
    {GameMode::Computer, "computer"},
    {GameMode::Friend, "friend"},
    {GameMode::Hotseat, "hotseat"},
    {GameMode::Random, "random"},
    {GameMode::Imported, "imported"},
}};

template <class E, std::size_t N>
std::string_view name_of(const std::array<std::pair<E, std::string_view>, N>& table, E e) {
    for (const auto& [value, name] : table) {
        if (value == e) {
            return name;
        }
    }
    return "";
}

template <class E, std::size_t N>
std::optional<E> value_of(const std::array<std::pair<E, std::string_view>, N>& table,
                          std::string_view s) {
    for (const auto& [value, name] : table) {
        if (name == s) {
            return value;
        }
    }
    return std::nullopt;
}

}  // namespace

std::string_view game_status_name(GameStatus s) noexcept {
    return name_of(kStatuses, s);
}

std::optional<GameStatus> game_status_from_name(std::string_view s) noexcept {
    return value_of(kStatuses, s);
}

std::string_view game_mode_name(GameMode m) noexcept {
    return name_of(kModes, m);
}

std::optional<GameMode> game_mode_from_name(std::string_view s) noexcept {
    return value_of(kModes, s);
}

GameMode stored_mode(const std::string& text, const std::string& game_id) {
    if (const auto m = game_mode_from_name(text)) {
        return *m;
    }
    throw std::runtime_error("game " + game_id + ": unknown mode '" + text + "' in the database");
}

GameStatus stored_status(const std::string& text, const std::string& game_id) {
    if (const auto s = game_status_from_name(text)) {
        return *s;
    }
    throw std::runtime_error("game " + game_id + ": unknown status '" + text + "' in the database");
}

}  // namespace papan::server
