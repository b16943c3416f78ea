// Text checks at the edge: strict UTF-8 validation, and the cleaning of nicknames
// (docs/protocol.md, "Identity").
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace papan::server {

// True when `s` is well-formed UTF-8 (no overlong forms, no surrogates, nothing past U+10FFFF);
// core's decoder (papan/core/notation/encoding.hpp) decides.
[[nodiscard]] bool valid_utf8(std::string_view s) noexcept;

// True when `s` has a C0 control character or DEL (NUL included).
[[nodiscard]] bool has_control(std::string_view s) noexcept;

// A nickname as shown to others: malformed UTF-8 dropped; control, bidirectional-control
// (U+061C, U+200E-U+200F, U+202A-U+202E, U+2066-U+2069) and invisible (U+00AD, U+200B-U+200D,
// U+2060, U+FEFF) characters removed; cut to `max_chars` characters (never inside one); spaces
// trimmed. Empty when nothing is left: an unnamed guest, whom every client names in its own
// language ("Guest", "Tamu").
[[nodiscard]] std::string clean_nickname(std::string_view raw, std::size_t max_chars = 24);

// A line of text as shown to others (chat): cleaned as a nickname is (the same characters
// removed, spaces trimmed) but not cut; empty when nothing is left.
[[nodiscard]] std::string clean_line(std::string_view raw);

// The characters (code points) of well-formed UTF-8.
[[nodiscard]] std::size_t utf8_length(std::string_view s) noexcept;

}  // namespace papan::server
