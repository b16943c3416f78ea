#include <papan/server/wire/json_writer.hpp>

#include <array>
#include <charconv>
#include <cmath>
#include <cstdio>

namespace papan::server::wire {

namespace {

constexpr std::string_view kReplacement = "\xEF\xBF\xBD";  // U+FFFD

// The length of the well-formed UTF-8 sequence at the start of `s` (1-4), or 0.
std::size_t utf8_sequence(std::string_view s) {
    const auto b0    = static_cast<unsigned char>(s[0]);
    std::size_t n    = 0;
    unsigned char lo = 0x80;
    unsigned char hi = 0xBF;
    if (b0 >= 0xC2 && b0 <= 0xDF) {
        n = 2;
    } else if (b0 >= 0xE0 && b0 <= 0xEF) {
        n  = 3;
        lo = b0 == 0xE0 ? 0xA0 : 0x80;  // no overlong forms
        hi = b0 == 0xED ? 0x9F : 0xBF;  // no surrogates
    } else if (b0 >= 0xF0 && b0 <= 0xF4) {
        n  = 4;
        lo = b0 == 0xF0 ? 0x90 : 0x80;
        hi = b0 == 0xF4 ? 0x8F : 0xBF;
    } else {
        return 0;
    }
    if (s.size() < n) {
        return 0;
    }
    const auto b1 = static_cast<unsigned char>(s[1]);
    if (b1 < lo || b1 > hi) {
        return 0;
    }
    for (std::size_t i = 2; i < n; ++i) {
        const auto b = static_cast<unsigned char>(s[i]);
        if (b < 0x80 || b > 0xBF) {
            return 0;
        }
    }
    return n;
}

}  // namespace

JsonWriter& JsonWriter::value(double d) {
    before_value();
    if (!std::isfinite(d)) {
        out_ += "null";
        return *this;
    }
    // %.15g: every value of 15 significant digits reads back the same (the browser build's
    // libc++ has no floating-point to_chars).
    std::array<char, 32> buf{};
    const int n = std::snprintf(buf.data(), buf.size(), "%.15g", d);
    const std::string_view text(buf.data(), static_cast<std::size_t>(n > 0 ? n : 0));
    out_ += text;
    if (text.find_first_of(".eE") == std::string_view::npos) {
        out_ += ".0";
    }
    return *this;
}

void JsonWriter::write_int(std::int64_t n) {
    std::array<char, 24> buf{};
    const auto r = std::to_chars(buf.data(), buf.data() + buf.size(), n);
    out_.append(buf.data(), r.ptr);
}

void JsonWriter::write_uint(std::uint64_t n) {
    std::array<char, 24> buf{};
    const auto r = std::to_chars(buf.data(), buf.data() + buf.size(), n);
    out_.append(buf.data(), r.ptr);
}

void JsonWriter::write_string(std::string_view s) {
    constexpr char kHex[] = "0123456789abcdef";
    out_ += '"';
    std::size_t plain = 0;  // start of the run of bytes copied as they are
    std::size_t i     = 0;
    const auto flush  = [&] { out_.append(s.data() + plain, i - plain); };
    while (i < s.size()) {
        const auto c = static_cast<unsigned char>(s[i]);
        if (c >= 0x20 && c < 0x80 && c != '"' && c != '\\') {
            ++i;
            continue;
        }
        if (c >= 0x80) {
            const std::size_t n = utf8_sequence(s.substr(i));
            if (n > 0) {
                i += n;
                continue;
            }
            flush();
            out_ += kReplacement;
            plain = ++i;
            continue;
        }
        flush();
        switch (c) {
        case '"':
            out_ += "\\\"";
            break;
        case '\\':
            out_ += "\\\\";
            break;
        case '\n':
            out_ += "\\n";
            break;
        case '\r':
            out_ += "\\r";
            break;
        case '\t':
            out_ += "\\t";
            break;
        default:
            out_ += "\\u00";
            out_ += kHex[c >> 4];
            out_ += kHex[c & 15];
        }
        plain = ++i;
    }
    flush();
    out_ += '"';
}

}  // namespace papan::server::wire
