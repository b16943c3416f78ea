#include <papan/engine/limits.hpp>

namespace papan::engine {

std::optional<Level> level_from_string(std::string_view s) noexcept {
    if (s == "easy") {
        return Level::Easy;
    }
    if (s == "normal") {
        return Level::Normal;
    }
    if (s == "hard") {
        return Level::Hard;
    }
    if (s == "max") {
        return Level::Max;
    }
    return std::nullopt;
}

std::string_view level_name(Level l) noexcept {
    switch (l) {
    case Level::Easy:
        return "easy";
    case Level::Normal:
        return "normal";
    case Level::Hard:
        return "hard";
    case Level::Max:
        return "max";
    }
    return "max";
}

}  // namespace papan::engine
