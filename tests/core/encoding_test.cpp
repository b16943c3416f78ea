// Text encodings (notation/encoding.hpp): UTF-8 with and without a byte order mark, UTF-16 with
// one, and the single-byte code pages of files written on Windows (Latin-1, Windows-1252,
// Windows-1251) detected and decoded to UTF-8; the PDN files of tests/data/pdn in each of them.
#include "pdn_test_util.hpp"

#include <papan/core/notation/encoding.hpp>
#include <papan/core/notation/pdn.hpp>

#include <gtest/gtest.h>

#include <string>

namespace papan::core {
namespace {

TEST(Encoding, Utf8IsKeptAndItsByteOrderMarkDropped) {
    const DecodedText plain = decode_text("Müller 32-28");
    EXPECT_EQ(plain.encoding, TextEncoding::Utf8);
    EXPECT_EQ(plain.text, "Müller 32-28");
    const DecodedText bom = decode_text("\xEF\xBB\xBFMüller");
    EXPECT_EQ(bom.encoding, TextEncoding::Utf8Bom);
    EXPECT_EQ(bom.text, "Müller");
    EXPECT_EQ(decode_text("").encoding, TextEncoding::Utf8);
}

TEST(Encoding, SingleBytePagesAreTellApart) {
    // "Müller, Gérard" in Latin-1: accented letters beside ASCII letters.
    const DecodedText latin = decode_text("M\xFCller, G\xE9rard");
    EXPECT_EQ(latin.encoding, TextEncoding::Latin1);
    EXPECT_EQ(latin.text, "Müller, Gérard");
    // "„Open“ – €" in Windows-1252: bytes 0x80-0x9F are printable there.
    const DecodedText win = decode_text("\x84Open\x93 \x96 \x80");
    EXPECT_EQ(win.encoding, TextEncoding::Cp1252);
    EXPECT_EQ(win.text, "„Open“ – €");
    // "Блиндер Б." in Windows-1251: words of high bytes only.
    const DecodedText cyr = decode_text("\xC1\xEB\xE8\xED\xE4\xE5\xF0 \xC1.");
    EXPECT_EQ(cyr.encoding, TextEncoding::Cp1251);
    EXPECT_EQ(cyr.text, "Блиндер Б.");
    // Cyrillic among ASCII tags and moves still reads as Cyrillic.
    const DecodedText tagged =
        decode_text("[White \"\xCA\xEE\xF0\xF8\xF3\xED\xEE\xE2 \xC4.\"]\n1. c3-d4 *");
    EXPECT_EQ(tagged.encoding, TextEncoding::Cp1251);
    EXPECT_EQ(tagged.text, "[White \"Коршунов Д.\"]\n1. c3-d4 *");
    // German with two accented letters in a row stays Latin ("Größe").
    EXPECT_EQ(decode_text("Gr\xF6\xDF"
                          "e")
                  .encoding,
              TextEncoding::Latin1);
}

TEST(Encoding, Utf16WithAByteOrderMark) {
    const std::string le("\xFF\xFE"
                         "3\0"
                         "2\0"
                         "-\0"
                         "2\0"
                         "8\0"
                         "\xFC\0",
                         14);
    const DecodedText a = decode_text(le);
    EXPECT_EQ(a.encoding, TextEncoding::Utf16Le);
    EXPECT_EQ(a.text, "32-28ü");
    const std::string be("\xFE\xFF\0"
                         "B\xD8\x3D\xDE\x00",
                         8);  // "B" and U+1F600 (a pair)
    const DecodedText b = decode_text(be);
    EXPECT_EQ(b.encoding, TextEncoding::Utf16Be);
    EXPECT_EQ(b.text, "B\xF0\x9F\x98\x80");
    const DecodedText odd = decode_text(std::string("\xFF\xFE"
                                                    "A\0"
                                                    "\x00\xD8",
                                                    6));
    EXPECT_EQ(odd.text, "A\xEF\xBF\xBD");  // a lone surrogate is replaced
    EXPECT_EQ(odd.replaced, 1);
}

TEST(Encoding, ForcedEncodingsAndReplacement) {
    const DecodedText as_utf8 = decode_text_as("ok \xFF end", TextEncoding::Utf8);
    EXPECT_EQ(as_utf8.text, "ok \xEF\xBF\xBD end");
    EXPECT_EQ(as_utf8.replaced, 1);
    EXPECT_EQ(decode_text_as("\xC1", TextEncoding::Cp1251).text, "Б");
    EXPECT_EQ(decode_text_as("\xC1", TextEncoding::Latin1).text, "Á");
    EXPECT_EQ(encoding_from_key("Windows-1251"), TextEncoding::Cp1251);
    EXPECT_EQ(encoding_from_key("latin1"), TextEncoding::Latin1);
    EXPECT_EQ(encoding_from_key("utf-8"), TextEncoding::Utf8);
    EXPECT_FALSE(encoding_from_key("ebcdic").has_value());
    EXPECT_EQ(encoding_key(TextEncoding::Cp1252), "cp1252");
}

TEST(Encoding, Utf8ValidityAndPrefixes) {
    EXPECT_TRUE(is_valid_utf8("abc Ж €"));
    EXPECT_FALSE(is_valid_utf8("\xC0\xAF"));          // overlong
    EXPECT_FALSE(is_valid_utf8("\xED\xA0\x80"));      // a surrogate
    EXPECT_FALSE(is_valid_utf8("\xF4\x90\x80\x80"));  // above U+10FFFF
    EXPECT_FALSE(is_valid_utf8("\xE2\x82"));          // cut short
    EXPECT_EQ(utf8_prefix("abЖ", 3), "ab");           // never half a character
    EXPECT_EQ(utf8_prefix("abЖ", 4), "abЖ");
    EXPECT_EQ(utf8_prefix("ab", 10), "ab");
}

// The decoder itself: each length with its code point, and 0 (nothing decoded) on every kind of
// malformed sequence, at the position asked for.
TEST(Encoding, DecodesOneCodePointAtATime) {
    char32_t cp = 0;
    EXPECT_EQ(decode_utf8("a", 0, cp), 1U);
    EXPECT_EQ(cp, U'a');
    EXPECT_EQ(decode_utf8("xЖ", 1, cp), 2U);
    EXPECT_EQ(cp, U'Ж');
    EXPECT_EQ(decode_utf8("€", 0, cp), 3U);
    EXPECT_EQ(cp, U'€');
    EXPECT_EQ(decode_utf8("\xF0\x9F\x98\x80", 0, cp), 4U);
    EXPECT_EQ(cp, char32_t{0x1F600});
    EXPECT_EQ(decode_utf8("\xF4\x8F\xBF\xBF", 0, cp), 4U);      // U+10FFFF, the last
    EXPECT_EQ(decode_utf8("\x80", 0, cp), 0U);                  // a stray continuation byte
    EXPECT_EQ(decode_utf8("\xC0\xAF", 0, cp), 0U);              // overlong
    EXPECT_EQ(decode_utf8("\xE0\x9F\xBF", 0, cp), 0U);          // overlong, three bytes
    EXPECT_EQ(decode_utf8("\xED\xBF\xBF", 0, cp), 0U);          // a surrogate
    EXPECT_EQ(decode_utf8("\xF4\x90\x80\x80", 0, cp), 0U);      // above U+10FFFF
    EXPECT_EQ(decode_utf8("\xE2\x82", 0, cp), 0U);              // cut short
    EXPECT_EQ(decode_utf8("\xE2\x28\xA1", 0, cp), 0U);          // a continuation missing
    EXPECT_EQ(decode_utf8("\xF8\x88\x80\x80\x80", 0, cp), 0U);  // five-byte forms do not exist
}

TEST(Encoding, PdnFilesInEveryEncodingRead) {
    struct Case {
        const char* file;
        TextEncoding encoding;
        const char* tag;
        const char* value;
    };

    for (const Case& c : {Case{"latin1.pdn", TextEncoding::Latin1, "White", "Müller, Jörg"},
                          Case{"cp1252.pdn", TextEncoding::Cp1252, "Event", "„Open“ – 2023"},
                          Case{"cp1251.pdn", TextEncoding::Cp1251, "White", "Блиндер Б."},
                          Case{"utf8-bom.pdn", TextEncoding::Utf8Bom, "White", "Dupré, É."}}) {
        SCOPED_TRACE(c.file);
        const PdnDocument doc = read_pdn_document(test::read_pdn_data(c.file), test::detecting());
        EXPECT_EQ(doc.encoding, c.encoding);
        ASSERT_EQ(doc.entries.size(), 1U);
        ASSERT_TRUE(doc.entries[0].ok()) << doc.entries[0].error;
        ASSERT_NE(doc.entries[0].game.tag(c.tag), nullptr);
        EXPECT_EQ(*doc.entries[0].game.tag(c.tag), c.value);
    }
}

TEST(Encoding, MoveErrorsNeverCutACharacter) {
    // "a" and 40 Cyrillic letters (81 bytes): byte 64 falls inside a letter; the quoted text
    // stops before it.
    std::string word = "a";
    for (int i = 0; i < 40; ++i) {
        word += "щ";
    }
    const auto games = read_pdn("1. " + word + " *", VariantId::International);
    ASSERT_FALSE(games.ok());
    EXPECT_TRUE(is_valid_utf8(games.error())) << games.error();
}

}  // namespace
}  // namespace papan::core
