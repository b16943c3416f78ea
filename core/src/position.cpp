#include <papan/core/notation/fen.hpp>
#include <papan/core/position.hpp>

namespace papan::core {

bool Position::is_consistent() const noexcept {
    const Geometry& g = rules().board();
    if ((pieces[0] & pieces[1]) != 0) {
        return false;
    }
    if ((kings & ~occupied()) != 0 || (occupied() & ~g.all) != 0) {
        return false;
    }
    // A man never stands on its own promotion row: it would have been crowned.
    return (men(Color::White) & g.promotion[0]) == 0 && (men(Color::Black) & g.promotion[1]) == 0;
}

std::uint64_t Position::key() const noexcept {
    // Mixes the three words with distinct odd multipliers and a final avalanche (splitmix64).
    auto mix = [](std::uint64_t z) {
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        return z ^ (z >> 31);
    };
    std::uint64_t h = mix(pieces[0] + 0x9e3779b97f4a7c15ULL);
    h ^= mix(pieces[1] + 0x632be59bd9b4e019ULL);
    h ^= mix(kings + 0x85157af5ULL);
    h ^= mix(static_cast<std::uint64_t>(variant) << 1 | static_cast<std::uint64_t>(side));
    return h;
}

Position start_position(VariantId v) {
    // The table's start FENs are fixed and tested, so parsing cannot fail here.
    return parse_fen(v, rules(v).start_fen).value();
}

}  // namespace papan::core
