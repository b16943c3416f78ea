// Text encodings of files written by other programs: bytes in, UTF-8 out. Files of draughts
// programs come in UTF-8 (with or without a byte order mark), in UTF-16 with a byte order mark,
// or in the Windows code page of the machine that wrote them: Latin-1 / Windows-1252 (Western
// Europe, the Americas, Africa) or Windows-1251 (Cyrillic: Russian and Ukrainian files).
//
// Detection, for text that is not valid UTF-8: Windows-1251 when the bytes above 0x7F stand in
// runs of their own (Cyrillic words) rather than beside ASCII letters (accented letters inside
// Latin words); otherwise Windows-1252 when a byte 0x80-0x9F occurs (printable there, a control
// code in Latin-1), else Latin-1. docs/pdn.md ("Encodings") records the reasoning.
//
// Pure byte conversion (no I/O): it lives beside the PDN reader because every reader of PDN
// text (the `papan pdn` command, the site's import) needs the same decoding before parsing.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace papan::core {

enum class TextEncoding : std::uint8_t {
    Utf8,     // valid UTF-8 without a byte order mark (plain ASCII included)
    Utf8Bom,  // valid UTF-8 after an EF BB BF byte order mark
    Utf16Le,  // FF FE byte order mark
    Utf16Be,  // FE FF byte order mark
    Latin1,   // ISO-8859-1
    Cp1252,   // Windows-1252
    Cp1251,   // Windows-1251
};

struct DecodedText {
    std::string text;  // valid UTF-8, without a byte order mark
    TextEncoding encoding = TextEncoding::Utf8;
    int replaced          = 0;  // invalid sequences replaced by U+FFFD (forced or UTF-16 only)
};

// Detects the encoding and converts to UTF-8 (see the header comment).
[[nodiscard]] DecodedText decode_text(std::string_view bytes);

// Converts from a given encoding. Invalid UTF-8 or UTF-16 sequences become U+FFFD (counted in
// `replaced`); a byte order mark matching the encoding is dropped.
[[nodiscard]] DecodedText decode_text_as(std::string_view bytes, TextEncoding encoding);

// "utf-8", "utf-8-bom", "utf-16le", "utf-16be", "latin-1", "cp1252", "cp1251".
[[nodiscard]] std::string_view encoding_key(TextEncoding e) noexcept;
// "UTF-8", "UTF-8 with a byte order mark", ..., "Windows-1251 (Cyrillic)".
[[nodiscard]] std::string_view encoding_name(TextEncoding e) noexcept;
// The encoding for a key of encoding_key (also "utf8", "iso-8859-1", "windows-1252", ...).
[[nodiscard]] std::optional<TextEncoding> encoding_from_key(std::string_view key) noexcept;

// The code point whose UTF-8 sequence starts at text[at] (at < text.size()): its length in
// bytes (1 to 4), the code point in `cp`; or 0 when the bytes there are not well-formed UTF-8 (a
// stray continuation byte, a cut sequence, an overlong form, a surrogate, past U+10FFFF). The one
// UTF-8 decoder of the tree: the encodings here and the server's text checks use it.
[[nodiscard]] std::size_t decode_utf8(std::string_view text, std::size_t at, char32_t& cp) noexcept;

[[nodiscard]] bool is_valid_utf8(std::string_view text) noexcept;

// The longest prefix of at most max_bytes that does not cut a UTF-8 sequence in two.
[[nodiscard]] std::string_view utf8_prefix(std::string_view text, std::size_t max_bytes) noexcept;

}  // namespace papan::core
