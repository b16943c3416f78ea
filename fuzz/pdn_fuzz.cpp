// libFuzzer target: the PDN reader. The first byte picks the default variant (((byte & 0x7f) + 2) %
// 10: '0'..'9' give VariantId 0..9) and, with its high bit, the "no forced capture" house rule; the
// rest is the PDN text given to core::read_pdn and core::read_pdn_entries. A text that reads must
// write (write_pdn) and read again to the same games, and the written text must be a fixpoint.
#include "fuzz_check.hpp"

#include <papan/core/movegen.hpp>
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

}  // namespace

// One input; returns 0. A finding aborts (or throws Finding in the regression test).
int one_input(const std::uint8_t* data, std::size_t size) {
    if (size == 0) {
        return 0;
    }
    PdnReadOptions options;
    options.default_variant        = static_cast<VariantId>(((data[0] & 0x7f) + 2) % kVariantCount);
    options.movegen.forced_capture = (data[0] & 0x80) == 0;
    const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);

    const auto entries     = read_pdn_entries(text, options);
    std::size_t ok_entries = 0;
    for (const PdnEntry& e : entries) {
        if (e.ok()) {
            ++ok_entries;
            check(e.game.comments.size() == e.game.moves.size() + 1, "comments per move", text);
        }
        (void)e.game.final_position();
    }

    const auto games = read_pdn(text, options);
    if (!games.ok()) {
        check(!games.error().empty(), "an error without a message", text);
        return 0;
    }
    check(ok_entries == games->size(), "read_pdn and read_pdn_entries disagree", text);

    const std::string written = write_pdn(*games);
    const auto back           = read_pdn(written, options);
    check(back.ok(), "write_pdn output does not read", written);
    check(back->size() == games->size(),
          "write_pdn output reads to another number of games",
          written);
    for (std::size_t i = 0; i < games->size(); ++i) {
        const PdnGame& g = (*games)[i];
        const PdnGame& h = (*back)[i];
        check(h.variant == g.variant, "round trip changes the variant", written);
        check(h.start == g.start, "round trip changes the start", written);
        check(same_moves(h.moves, g.moves), "round trip changes the moves", written);
        check(h.setups == g.setups, "round trip changes the setups", written);
        check(h.comments == g.comments, "round trip changes the comments", written);
        check(convert_pdn_result(h.result, h.variant) == convert_pdn_result(g.result, g.variant),
              "round trip changes the result",
              written);
        check(h.final_position() == g.final_position(),
              "round trip changes the final position",
              written);
    }
    check(write_pdn(*back) == written, "write_pdn is not a fixpoint", written);
    return 0;
}

}  // namespace papan::fuzz::pdn_fuzz

PAPAN_FUZZ_ENTRY(papan::fuzz::pdn_fuzz::one_input)
