#include "support/text.hpp"

#include <papan/core/notation/encoding.hpp>

#include <cstdint>

namespace papan::server {

namespace {

using core::decode_utf8;

bool hidden(char32_t cp) noexcept {
    return cp < 0x20 || (cp >= 0x7F && cp < 0xA0) || cp == 0xAD || cp == 0x61C ||
           (cp >= 0x200B && cp <= 0x200F) || (cp >= 0x2028 && cp <= 0x202E) ||
           (cp >= 0x2060 && cp <= 0x2069) || cp == 0xFEFF;
}

}  // namespace

bool valid_utf8(std::string_view s) noexcept {
    return core::is_valid_utf8(s);
}

bool has_control(std::string_view s) noexcept {
    for (const char ch : s) {
        const auto c = static_cast<unsigned char>(ch);
        if (c < 0x20 || c == 0x7F) {
            return true;
        }
    }
    return false;
}

namespace {

// Drops malformed bytes and hidden characters, keeps at most max_chars characters, trims spaces.
std::string clean(std::string_view raw, std::size_t max_chars) {
    std::string out;
    std::size_t chars = 0;
    char32_t cp       = 0;
    for (std::size_t i = 0; i < raw.size() && chars < max_chars;) {
        const auto n = decode_utf8(raw, i, cp);
        if (n == 0) {
            ++i;  // a malformed byte is dropped
            continue;
        }
        if (!hidden(cp) && !(cp == ' ' && out.empty())) {
            out.append(raw.substr(i, n));
            ++chars;
        }
        i += n;
    }
    while (!out.empty() && out.back() == ' ') {
        out.pop_back();
    }
    return out;
}

}  // namespace

std::string clean_nickname(std::string_view raw, std::size_t max_chars) {
    return clean(raw, max_chars);
}

std::string clean_line(std::string_view raw) {
    return clean(raw, raw.size());
}

std::size_t utf8_length(std::string_view s) noexcept {
    std::size_t n = 0;
    for (const char ch : s) {
        n += (static_cast<unsigned char>(ch) & 0xC0) != 0x80 ? 1 : 0;
    }
    return n;
}

}  // namespace papan::server
