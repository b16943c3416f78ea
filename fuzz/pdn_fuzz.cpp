// libFuzzer target: the PDN reader. The first byte chooses the read options: with its bit 6
// clear, the default variant (((byte & 0x7f) + 2) % 10: '0'..'9' give VariantId 0..9) and, with
// its high bit, the "no forced capture" house rule; with bit 6 set, variant detection, and bit 5
// then reads setups leniently. The rest is PDN text (any bytes) given to core::decode_text,
// core::read_pdn and core::read_pdn_entries. Checked: decoding gives valid UTF-8 and reading
// valid UTF-8 gives valid UTF-8 (errors, notes, tags, comments); a text that reads writes, in
// both styles, to text that reads again to the same games and is a fixpoint; the written
// Result tag never disagrees with the written terminator.
#include "fuzz_check.hpp"

#include <papan/core/movegen.hpp>
#include <papan/core/notation/encoding.hpp>
#include <papan/core/notation/pdn.hpp>
#include <papan/core/types.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace papan::fuzz::pdn_fuzz {

using namespace papan::core;

namespace {

constexpr Checker check{"fuzz_pdn", DetailStyle::Block};

bool same_moves(const std::vector<Move>& a, const std::vector<Move>& b) {
    if (a.size() != b.size()) {
        return false;
    }
    for (std::size_t i = 0; i < a.size(); ++i) {
        if (!a[i].same_as(b[i])) {
            return false;
        }
    }
    return true;
}

// Marks as the writer keeps them: missing entries are empty.
std::string mark_of(const PdnGame& g, std::size_t i) {
    return i < g.marks.size() ? g.marks[i] : std::string();
}

void check_utf8(const PdnEntry& e, std::string_view text) {
    const PdnGame& g = e.game;
    check(is_valid_utf8(e.error), "an error that is not UTF-8", text);
    for (const std::string& n : e.notes) {
        check(is_valid_utf8(n), "a note that is not UTF-8", text);
    }
    for (const auto& [name, value] : g.tags) {
        check(is_valid_utf8(name) && is_valid_utf8(value), "a tag that is not UTF-8", text);
    }
    for (const std::string& c : g.comments) {
        check(is_valid_utf8(c), "a comment that is not UTF-8", text);
    }
    for (const PdnVariation& v : g.variations) {
        check(is_valid_utf8(v.text), "a variation that is not UTF-8", text);
    }
    check(is_valid_utf8(g.result), "a result that is not UTF-8", text);
}

// Every Result tag of the written header says what the last word of the text says.
void check_result_agrees(const std::string& written) {
    const std::size_t last       = written.find_last_not_of(" \n");
    const std::size_t space      = written.find_last_of(" \n", last);
    const std::size_t first      = space == std::string::npos ? 0 : space + 1;
    const auto terminator        = parse_pdn_result(written.substr(first, last + 1 - first));
    const std::size_t header_end = written.find("\n\n");
    for (std::size_t pos = 0; header_end != std::string::npos && pos < header_end;) {
        const std::size_t eol = written.find('\n', pos);
        const std::string_view line(written.data() + pos, eol - pos);
        if (line.rfind("[Result \"", 0) == 0 && line.size() >= 11) {
            check(parse_pdn_result(line.substr(9, line.size() - 11)) == terminator,
                  "the written Result tag disagrees with the terminator",
                  written);
        }
        pos = eol + 1;
    }
}

void check_round_trip(const std::vector<PdnGame>& games,
                      const PdnReadOptions& options,
                      PdnWriteStyle style) {
    const PdnWriteOptions w{style};
    const std::string written = write_pdn(games, w);
    for (const PdnGame& g : games) {
        check_result_agrees(write_pdn_game(g, w));
    }
    const auto back = read_pdn(written, options);
    check(back.ok(), "write_pdn output does not read", written);
    check(
        back->size() == games.size(), "write_pdn output reads to another number of games", written);
    for (std::size_t i = 0; i < games.size(); ++i) {
        const PdnGame& g = games[i];
        const PdnGame& h = (*back)[i];
        check(h.variant == g.variant, "round trip changes the variant", written);
        check(h.start == g.start, "round trip changes the start", written);
        check(same_moves(h.moves, g.moves), "round trip changes the moves", written);
        check(h.setups == g.setups, "round trip changes the setups", written);
        check(h.comments == g.comments, "round trip changes the comments", written);
        check(h.variations == g.variations, "round trip changes the variations", written);
        for (std::size_t m = 0; m < g.moves.size(); ++m) {
            check(mark_of(h, m) == mark_of(g, m), "round trip changes the marks", written);
        }
        check(parse_pdn_result(h.result) == parse_pdn_result(g.result),
              "round trip changes the result",
              written);
        check(h.final_position() == g.final_position(),
              "round trip changes the final position",
              written);
    }
    check(write_pdn(*back, w) == written, "write_pdn is not a fixpoint", written);
}

}  // namespace

// One input; returns 0. A finding aborts (or throws Finding in the regression test).
int one_input(const std::uint8_t* data, std::size_t size) {
    if (size == 0) {
        return 0;
    }
    PdnReadOptions options;
    if ((data[0] & 0x40) != 0) {
        options.detect_variant = true;
        options.lenient_setup  = (data[0] & 0x20) != 0;
    } else {
        options.default_variant = static_cast<VariantId>(((data[0] & 0x7f) + 2) % kVariantCount);
    }
    options.movegen.forced_capture = (data[0] & 0x80) == 0;
    const std::string_view bytes(reinterpret_cast<const char*>(data + 1), size - 1);

    const DecodedText decoded = decode_text(bytes);
    check(is_valid_utf8(decoded.text), "decode_text gives text that is not UTF-8", bytes);
    const std::string_view text = bytes;
    const bool utf8_input       = is_valid_utf8(text);

    const auto entries     = read_pdn_entries(text, options);
    std::size_t ok_entries = 0;
    for (const PdnEntry& e : entries) {
        if (e.ok()) {
            ++ok_entries;
            check(e.game.comments.size() == e.game.moves.size() + 1, "comments per move", text);
        } else {
            check(e.error_kind != PdnErrorKind::None, "an error without a kind", text);
        }
        if (utf8_input) {
            check_utf8(e, text);
        }
        (void)e.game.final_position();
    }

    const auto games = read_pdn(text, options);
    if (!games.ok()) {
        check(!games.error().empty(), "an error without a message", text);
        return 0;
    }
    check(ok_entries == games->size(), "read_pdn and read_pdn_entries disagree", text);
    check_round_trip(*games, options, PdnWriteStyle::Canonical);
    check_round_trip(*games, options, PdnWriteStyle::AsRead);
    return 0;
}

}  // namespace papan::fuzz::pdn_fuzz

PAPAN_FUZZ_ENTRY(papan::fuzz::pdn_fuzz::one_input)
