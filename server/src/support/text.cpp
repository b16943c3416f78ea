#include "support/text.hpp"

#include <cstdint>

namespace papan::server {

namespace {

// Decodes one code point at s[i]; returns its length, or 0 when the bytes there are not
// well-formed UTF-8.
std::size_t decode(std::string_view s, std::size_t i, char32_t& cp) noexcept {
    const auto b0 = static_cast<unsigned char>(s[i]);
    if (b0 < 0x80) {
        cp = b0;
        return 1;
    }
    std::size_t len = 0;
    char32_t min    = 0;
    if ((b0 & 0xE0) == 0xC0) {
        len = 2;
        cp  = b0 & 0x1F;
        min = 0x80;
    } else if ((b0 & 0xF0) == 0xE0) {
        len = 3;
        cp  = b0 & 0x0F;
        min = 0x800;
    } else if ((b0 & 0xF8) == 0xF0) {
        len = 4;
        cp  = b0 & 0x07;
        min = 0x10000;
    } else {
        return 0;
    }
    if (i + len > s.size()) {
        return 0;
    }
    for (std::size_t k = 1; k < len; ++k) {
        const auto b = static_cast<unsigned char>(s[i + k]);
        if ((b & 0xC0) != 0x80) {
            return 0;
        }
        cp = (cp << 6) | (b & 0x3F);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
        return 0;
    }
    return len;
}

bool hidden(char32_t cp) noexcept {
    return cp < 0x20 || (cp >= 0x7F && cp < 0xA0) || cp == 0xAD || cp == 0x61C ||
           (cp >= 0x200B && cp <= 0x200F) || (cp >= 0x2028 && cp <= 0x202E) ||
           (cp >= 0x2060 && cp <= 0x2069) || cp == 0xFEFF;
}

}  // namespace

bool valid_utf8(std::string_view s) noexcept {
    char32_t cp = 0;
    for (std::size_t i = 0; i < s.size();) {
        const auto n = decode(s, i, cp);
        if (n == 0) {
            return false;
        }
        i += n;
    }
    return true;
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
        const auto n = decode(raw, i, cp);
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
