// Byte -> UTF-8 conversion and the detection of a file's encoding (notation/encoding.hpp).
#include <papan/core/notation/encoding.hpp>

#include <array>
#include <cctype>

namespace papan::core {

namespace {

// Code points of the bytes 0x80-0xFF (tables generated with Python's codecs; the bytes that
// Windows leaves undefined map to the C1 control of the same value, as Windows itself does).
constexpr std::array<char16_t, 128> kCp1252 = {
    0x20AC, 0x0081, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039,
    0x0152, 0x008D, 0x017D, 0x008F, 0x0090, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
    0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x009D, 0x017E, 0x0178, 0x00A0, 0x00A1, 0x00A2, 0x00A3,
    0x00A4, 0x00A5, 0x00A6, 0x00A7, 0x00A8, 0x00A9, 0x00AA, 0x00AB, 0x00AC, 0x00AD, 0x00AE, 0x00AF,
    0x00B0, 0x00B1, 0x00B2, 0x00B3, 0x00B4, 0x00B5, 0x00B6, 0x00B7, 0x00B8, 0x00B9, 0x00BA, 0x00BB,
    0x00BC, 0x00BD, 0x00BE, 0x00BF, 0x00C0, 0x00C1, 0x00C2, 0x00C3, 0x00C4, 0x00C5, 0x00C6, 0x00C7,
    0x00C8, 0x00C9, 0x00CA, 0x00CB, 0x00CC, 0x00CD, 0x00CE, 0x00CF, 0x00D0, 0x00D1, 0x00D2, 0x00D3,
    0x00D4, 0x00D5, 0x00D6, 0x00D7, 0x00D8, 0x00D9, 0x00DA, 0x00DB, 0x00DC, 0x00DD, 0x00DE, 0x00DF,
    0x00E0, 0x00E1, 0x00E2, 0x00E3, 0x00E4, 0x00E5, 0x00E6, 0x00E7, 0x00E8, 0x00E9, 0x00EA, 0x00EB,
    0x00EC, 0x00ED, 0x00EE, 0x00EF, 0x00F0, 0x00F1, 0x00F2, 0x00F3, 0x00F4, 0x00F5, 0x00F6, 0x00F7,
    0x00F8, 0x00F9, 0x00FA, 0x00FB, 0x00FC, 0x00FD, 0x00FE, 0x00FF,
};

constexpr std::array<char16_t, 128> kCp1251 = {
    0x0402, 0x0403, 0x201A, 0x0453, 0x201E, 0x2026, 0x2020, 0x2021, 0x20AC, 0x2030, 0x0409, 0x2039,
    0x040A, 0x040C, 0x040B, 0x040F, 0x0452, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
    0x0098, 0x2122, 0x0459, 0x203A, 0x045A, 0x045C, 0x045B, 0x045F, 0x00A0, 0x040E, 0x045E, 0x0408,
    0x00A4, 0x0490, 0x00A6, 0x00A7, 0x0401, 0x00A9, 0x0404, 0x00AB, 0x00AC, 0x00AD, 0x00AE, 0x0407,
    0x00B0, 0x00B1, 0x0406, 0x0456, 0x0491, 0x00B5, 0x00B6, 0x00B7, 0x0451, 0x2116, 0x0454, 0x00BB,
    0x0458, 0x0405, 0x0455, 0x0457, 0x0410, 0x0411, 0x0412, 0x0413, 0x0414, 0x0415, 0x0416, 0x0417,
    0x0418, 0x0419, 0x041A, 0x041B, 0x041C, 0x041D, 0x041E, 0x041F, 0x0420, 0x0421, 0x0422, 0x0423,
    0x0424, 0x0425, 0x0426, 0x0427, 0x0428, 0x0429, 0x042A, 0x042B, 0x042C, 0x042D, 0x042E, 0x042F,
    0x0430, 0x0431, 0x0432, 0x0433, 0x0434, 0x0435, 0x0436, 0x0437, 0x0438, 0x0439, 0x043A, 0x043B,
    0x043C, 0x043D, 0x043E, 0x043F, 0x0440, 0x0441, 0x0442, 0x0443, 0x0444, 0x0445, 0x0446, 0x0447,
    0x0448, 0x0449, 0x044A, 0x044B, 0x044C, 0x044D, 0x044E, 0x044F,
};

constexpr char32_t kReplacement = 0xFFFD;

void append_utf8(std::string& out, char32_t cp) {
    if (cp < 0x80) {
        out += static_cast<char>(cp);
    } else if (cp < 0x800) {
        out += static_cast<char>(0xC0 | (cp >> 6));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        out += static_cast<char>(0xE0 | (cp >> 12));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
        out += static_cast<char>(0xF0 | (cp >> 18));
        out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    }
}

// Length of the valid UTF-8 sequence at s[i], or 0 when the bytes there are not one.
std::size_t utf8_sequence_length(std::string_view s, std::size_t i) noexcept {
    char32_t cp = 0;
    return decode_utf8(s, i, cp);
}

DecodedText decode_utf8_lossy(std::string_view bytes, TextEncoding encoding) {
    DecodedText d;
    d.encoding = encoding;
    d.text.reserve(bytes.size());
    for (std::size_t i = 0; i < bytes.size();) {
        const std::size_t len = utf8_sequence_length(bytes, i);
        if (len == 0) {
            append_utf8(d.text, kReplacement);
            ++d.replaced;
            ++i;
            continue;
        }
        d.text.append(bytes.substr(i, len));
        i += len;
    }
    return d;
}

DecodedText decode_utf16(std::string_view bytes, bool little_endian, TextEncoding encoding) {
    DecodedText d;
    d.encoding      = encoding;
    const auto unit = [&](std::size_t i) -> char32_t {
        const auto a = static_cast<unsigned char>(bytes[i]);
        const auto b = static_cast<unsigned char>(bytes[i + 1]);
        return little_endian ? static_cast<char32_t>(a | (b << 8))
                             : static_cast<char32_t>((a << 8) | b);
    };
    std::size_t i = 0;
    for (; i + 1 < bytes.size(); i += 2) {
        const char32_t u = unit(i);
        if (u >= 0xD800 && u <= 0xDBFF && i + 3 < bytes.size()) {
            const char32_t low = unit(i + 2);
            if (low >= 0xDC00 && low <= 0xDFFF) {
                append_utf8(d.text, 0x10000 + ((u - 0xD800) << 10) + (low - 0xDC00));
                i += 2;
                continue;
            }
        }
        if (u >= 0xD800 && u <= 0xDFFF) {
            append_utf8(d.text, kReplacement);
            ++d.replaced;
            continue;
        }
        append_utf8(d.text, u);
    }
    if (i < bytes.size()) {  // an odd trailing byte
        append_utf8(d.text, kReplacement);
        ++d.replaced;
    }
    return d;
}

DecodedText decode_single_byte(std::string_view bytes, TextEncoding encoding) {
    DecodedText d;
    d.encoding = encoding;
    d.text.reserve(bytes.size() + bytes.size() / 4);
    for (const char c : bytes) {
        const auto b = static_cast<unsigned char>(c);
        if (b < 0x80) {
            d.text += c;
            continue;
        }
        const std::size_t k = b - 0x80U;
        if (encoding == TextEncoding::Cp1251) {
            append_utf8(d.text, kCp1251[k]);
        } else if (encoding == TextEncoding::Cp1252) {
            append_utf8(d.text, kCp1252[k]);
        } else {
            append_utf8(d.text, b);  // Latin-1: the byte is the code point
        }
    }
    return d;
}

bool is_ascii_letter(unsigned char b) noexcept {
    return (b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z');
}

// Text that is not UTF-8: Cyrillic (Windows-1251) or Western (Windows-1252 / Latin-1)? A letter
// byte 0xC0-0xFF next to an ASCII letter is an accented letter in a Latin word ("Müller"); one
// with no ASCII letter beside it belongs to a word of high bytes (Cyrillic, "Блиндер").
TextEncoding guess_single_byte(std::string_view bytes) noexcept {
    long cyrillic = 0;
    long latin    = 0;
    bool c1       = false;
    for (std::size_t i = 0; i < bytes.size(); ++i) {
        const auto b = static_cast<unsigned char>(bytes[i]);
        if (b >= 0x80 && b <= 0x9F) {
            c1 = true;
        }
        if (b < 0xC0) {
            continue;
        }
        const bool left = i > 0 && is_ascii_letter(static_cast<unsigned char>(bytes[i - 1]));
        const bool right =
            i + 1 < bytes.size() && is_ascii_letter(static_cast<unsigned char>(bytes[i + 1]));
        if (left || right) {
            ++latin;
        } else {
            ++cyrillic;
        }
    }
    if (cyrillic > latin) {
        return TextEncoding::Cp1251;
    }
    return c1 ? TextEncoding::Cp1252 : TextEncoding::Latin1;
}

}  // namespace

std::size_t decode_utf8(std::string_view s, std::size_t i, char32_t& cp) noexcept {
    const auto b0 = static_cast<unsigned char>(s[i]);
    if (b0 < 0x80) {
        cp = b0;
        return 1;
    }
    std::size_t len = 0;
    char32_t min    = 0;
    if ((b0 & 0xE0) == 0xC0) {
        len = 2;
        min = 0x80;
        cp  = b0 & 0x1F;
    } else if ((b0 & 0xF0) == 0xE0) {
        len = 3;
        min = 0x800;
        cp  = b0 & 0x0F;
    } else if ((b0 & 0xF8) == 0xF0) {
        len = 4;
        min = 0x10000;
        cp  = b0 & 0x07;
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

bool is_valid_utf8(std::string_view text) noexcept {
    for (std::size_t i = 0; i < text.size();) {
        const std::size_t len = utf8_sequence_length(text, i);
        if (len == 0) {
            return false;
        }
        i += len;
    }
    return true;
}

std::string_view utf8_prefix(std::string_view text, std::size_t max_bytes) noexcept {
    if (text.size() <= max_bytes) {
        return text;
    }
    std::size_t end = max_bytes;
    // Step back over continuation bytes to the start of the sequence that would be cut.
    while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) {
        --end;
    }
    return text.substr(0, end);
}

DecodedText decode_text(std::string_view bytes) {
    if (bytes.substr(0, 3) == "\xEF\xBB\xBF" && is_valid_utf8(bytes.substr(3))) {
        return DecodedText{std::string(bytes.substr(3)), TextEncoding::Utf8Bom, 0};
    }
    if (bytes.substr(0, 2) == "\xFF\xFE") {
        return decode_utf16(bytes.substr(2), true, TextEncoding::Utf16Le);
    }
    if (bytes.substr(0, 2) == "\xFE\xFF") {
        return decode_utf16(bytes.substr(2), false, TextEncoding::Utf16Be);
    }
    if (is_valid_utf8(bytes)) {
        return DecodedText{std::string(bytes), TextEncoding::Utf8, 0};
    }
    if (bytes.substr(0, 3) == "\xEF\xBB\xBF") {
        bytes.remove_prefix(3);  // a byte order mark before text that is not UTF-8 after all
    }
    return decode_single_byte(bytes, guess_single_byte(bytes));
}

DecodedText decode_text_as(std::string_view bytes, TextEncoding encoding) {
    switch (encoding) {
    case TextEncoding::Utf8:
    case TextEncoding::Utf8Bom:
        if (bytes.substr(0, 3) == "\xEF\xBB\xBF") {
            return decode_utf8_lossy(bytes.substr(3), TextEncoding::Utf8Bom);
        }
        return decode_utf8_lossy(bytes, TextEncoding::Utf8);
    case TextEncoding::Utf16Le:
        if (bytes.substr(0, 2) == "\xFF\xFE") {
            bytes.remove_prefix(2);
        }
        return decode_utf16(bytes, true, encoding);
    case TextEncoding::Utf16Be:
        if (bytes.substr(0, 2) == "\xFE\xFF") {
            bytes.remove_prefix(2);
        }
        return decode_utf16(bytes, false, encoding);
    case TextEncoding::Latin1:
    case TextEncoding::Cp1252:
    case TextEncoding::Cp1251:
        return decode_single_byte(bytes, encoding);
    }
    return decode_single_byte(bytes, TextEncoding::Latin1);
}

std::string_view encoding_key(TextEncoding e) noexcept {
    switch (e) {
    case TextEncoding::Utf8:
        return "utf-8";
    case TextEncoding::Utf8Bom:
        return "utf-8-bom";
    case TextEncoding::Utf16Le:
        return "utf-16le";
    case TextEncoding::Utf16Be:
        return "utf-16be";
    case TextEncoding::Latin1:
        return "latin-1";
    case TextEncoding::Cp1252:
        return "cp1252";
    case TextEncoding::Cp1251:
        return "cp1251";
    }
    return "utf-8";
}

std::string_view encoding_name(TextEncoding e) noexcept {
    switch (e) {
    case TextEncoding::Utf8:
        return "UTF-8";
    case TextEncoding::Utf8Bom:
        return "UTF-8 with a byte order mark";
    case TextEncoding::Utf16Le:
        return "UTF-16 little-endian";
    case TextEncoding::Utf16Be:
        return "UTF-16 big-endian";
    case TextEncoding::Latin1:
        return "Latin-1 (ISO-8859-1)";
    case TextEncoding::Cp1252:
        return "Windows-1252";
    case TextEncoding::Cp1251:
        return "Windows-1251 (Cyrillic)";
    }
    return "UTF-8";
}

std::optional<TextEncoding> encoding_from_key(std::string_view key) noexcept {
    std::array<char, 16> buf{};
    std::size_t n = 0;
    for (const char c : key) {
        if (c == '-' || c == '_') {
            continue;
        }
        if (n == buf.size()) {
            return std::nullopt;
        }
        buf[n++] = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
    const std::string_view k(buf.data(), n);
    if (k == "utf8") {
        return TextEncoding::Utf8;
    }
    if (k == "utf8bom") {
        return TextEncoding::Utf8Bom;
    }
    if (k == "utf16le" || k == "utf16") {
        return TextEncoding::Utf16Le;
    }
    if (k == "utf16be") {
        return TextEncoding::Utf16Be;
    }
    if (k == "latin1" || k == "iso88591") {
        return TextEncoding::Latin1;
    }
    if (k == "cp1252" || k == "windows1252") {
        return TextEncoding::Cp1252;
    }
    if (k == "cp1251" || k == "windows1251") {
        return TextEncoding::Cp1251;
    }
    return std::nullopt;
}

}  // namespace papan::core
