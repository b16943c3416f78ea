#include <papan/core/geometry.hpp>
#include <papan/core/notation/squares.hpp>
#include <papan/core/rules/registry.hpp>

namespace papan::core {

namespace {

// Plain index (row-major from the top over the a1-dark layout, or n-1 on the orthogonal board)
// of square number n in the variant's numbering.
int plain_of_number(const RuleSet& r, int n) noexcept {
    switch (r.numbering) {
    case Numbering::Standard:
        return n - 1;
    case Numbering::Spanish:
        n = 33 - n;  // Spanish number = 33 - Italian number of the same square
        [[fallthrough]];
    case Numbering::Italian: {
        // The a1-light board is the a1-dark layout mirrored left to right: reverse each row.
        const int row = (n - 1) / 4;
        const int col = (n - 1) % 4;
        return row * 4 + (3 - col);
    }
    }
    return n - 1;
}

int number_of_plain(const RuleSet& r, int s) noexcept {
    switch (r.numbering) {
    case Numbering::Standard:
        return s + 1;
    case Numbering::Italian:
    case Numbering::Spanish: {
        const int row     = s / 4;
        const int col     = s % 4;
        const int italian = row * 4 + (3 - col) + 1;
        return r.numbering == Numbering::Italian ? italian : 33 - italian;
    }
    }
    return s + 1;
}

}  // namespace

int square_count(VariantId v) noexcept {
    return rules(v).board().squares;
}

std::optional<int> bit_of_square(VariantId v, int n) noexcept {
    const RuleSet& r = rules(v);
    if (n < 1 || n > r.board().squares) {
        return std::nullopt;
    }
    return r.board().bit_of[static_cast<std::size_t>(plain_of_number(r, n))];
}

int square_of_bit(VariantId v, int b) noexcept {
    const RuleSet& r = rules(v);
    return number_of_plain(r, r.board().plain_of[static_cast<std::size_t>(b)]);
}

SquareCoord square_coord(VariantId v, int n) noexcept {
    const RuleSet& r  = rules(v);
    const Geometry& g = r.board();
    const int s       = plain_of_number(r, n);
    SquareCoord c{g.file_of[static_cast<std::size_t>(s)], g.rank_of[static_cast<std::size_t>(s)]};
    if (r.numbering != Numbering::Standard) {
        c.file = g.size - 1 - c.file;  // mirrored board
    }
    return c;
}

std::string algebraic_name(VariantId v, int n) {
    const SquareCoord c = square_coord(v, n);
    std::string s(1, static_cast<char>('a' + c.file));
    s += std::to_string(c.rank + 1);
    return s;
}

std::optional<int> square_from_algebraic(VariantId v, std::string_view name) noexcept {
    if (name.size() < 2 || name.size() > 3) {
        return std::nullopt;
    }
    const char f   = static_cast<char>(name[0] | 0x20);
    const int size = rules(v).board().size;
    if (f < 'a' || f >= 'a' + size) {
        return std::nullopt;
    }
    int rank = 0;
    for (std::size_t i = 1; i < name.size(); ++i) {
        if (name[i] < '0' || name[i] > '9') {
            return std::nullopt;
        }
        rank = rank * 10 + (name[i] - '0');
    }
    if (rank < 1 || rank > size) {
        return std::nullopt;
    }
    const int count = square_count(v);
    for (int n = 1; n <= count; ++n) {
        const SquareCoord c = square_coord(v, n);
        if (c.file == f - 'a' && c.rank == rank - 1) {
            return n;
        }
    }
    return std::nullopt;  // a light square
}

std::string square_text(VariantId v, int n) {
    return rules(v).notation == NotationStyle::Algebraic ? algebraic_name(v, n) : std::to_string(n);
}

}  // namespace papan::core
