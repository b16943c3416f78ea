// Number fields of Hub lines, shared by the codec and the session: the whole text must be the
// number (no sign for parse_real, no trailing characters). Internal to the engine library.
#pragma once

#include <charconv>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>

namespace papan::engine::detail {

template <class T>
[[nodiscard]] std::optional<T> parse_hub_int(std::string_view s) {
    T value{};
    const auto* end = s.data() + s.size();
    const auto r    = std::from_chars(s.data(), end, value);
    if (s.empty() || r.ec != std::errc{} || r.ptr != end) {
        return std::nullopt;
    }
    return value;
}

// A non-negative real up to 1e9 (seconds).
[[nodiscard]] inline std::optional<double> parse_hub_real(std::string_view s) {
    if (s.empty() || s.size() > 64) {
        return std::nullopt;
    }
    const std::string copy(s);
    char* end          = nullptr;
    const double value = std::strtod(copy.c_str(), &end);
    if (end != copy.c_str() + copy.size() || !(value >= 0) || value > 1e9) {
        return std::nullopt;
    }
    return value;
}

}  // namespace papan::engine::detail
