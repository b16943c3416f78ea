#include <papan/core/rules/registry.hpp>

#include <cctype>
#include <charconv>

namespace papan::core {

namespace {

bool iequals(std::string_view a, std::string_view b) noexcept {
    if (a.size() != b.size()) {
        return false;
    }
    for (std::size_t i = 0; i < a.size(); ++i) {
        if (std::tolower(static_cast<unsigned char>(a[i])) !=
            std::tolower(static_cast<unsigned char>(b[i]))) {
            return false;
        }
    }
    return true;
}

}  // namespace

std::optional<VariantId> variant_from_key(std::string_view key) noexcept {
    if (iequals(key, "english")) {
        return VariantId::American;
    }
    for (const RuleSet& r : kVariants) {
        if (iequals(key, r.key)) {
            return r.id;
        }
    }
    return std::nullopt;
}

std::optional<VariantId> variant_from_game_type(std::string_view game_type) noexcept {
    while (!game_type.empty() && game_type.front() == ' ') {
        game_type.remove_prefix(1);
    }
    while (!game_type.empty() && game_type.back() == ' ') {
        game_type.remove_suffix(1);
    }
    // An exact full GameType first (it can tell variants sharing a number apart), then the number.
    for (const RuleSet& r : kVariants) {
        if (game_type == r.game_type) {
            return r.id;
        }
    }
    const auto comma              = game_type.find(',');
    const std::string_view number = game_type.substr(0, comma);
    int n                         = 0;
    const auto res = std::from_chars(number.data(), number.data() + number.size(), n);
    if (res.ec != std::errc{} || res.ptr != number.data() + number.size()) {
        return std::nullopt;
    }
    for (const RuleSet& r : kVariants) {
        if (r.game_type_number == n) {
            return r.id;
        }
    }
    return std::nullopt;
}

std::span<const RuleSet> all_variants() noexcept {
    return kVariants;
}

}  // namespace papan::core
