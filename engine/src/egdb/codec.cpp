#include "egdb/codec.hpp"

#include <array>

namespace papan::engine::egdb::detail {

namespace {

// Runs shorter than this go into literals (a run token costs a byte, a literal byte holds 5).
constexpr std::size_t kMinRun     = 8;
constexpr std::size_t kMaxLiteral = 64;  // literal bytes per token

struct Digits {
    std::array<std::array<std::uint8_t, 5>, 243> d{};

    constexpr Digits() {
        for (int v = 0; v < 243; ++v) {
            int x = v;
            for (std::size_t i = 0; i < 5; ++i) {
                d[static_cast<std::size_t>(v)][i] = static_cast<std::uint8_t>(x % 3);
                x /= 3;
            }
        }
    }
};

constexpr Digits kDigits{};

// The run starting at i: its symbol (the first one that is not "don't care") and length.
std::size_t run_at(const std::uint8_t* s, std::size_t n, std::size_t i, std::uint8_t& symbol) {
    std::size_t j = i;
    while (j < n && s[j] == kDontCare) {
        ++j;
    }
    symbol = j < n ? s[j] : kWinSymbol;
    while (j < n && (s[j] == symbol || s[j] == kDontCare)) {
        ++j;
    }
    return j - i;
}

void put_run(std::vector<std::uint8_t>& out, std::uint8_t symbol, std::size_t len) {
    const auto head = static_cast<std::uint8_t>(symbol << 6);
    if (len < 64) {
        out.push_back(static_cast<std::uint8_t>(head | len));
        return;
    }
    out.push_back(head);
    std::size_t rest = len - 64;
    do {
        auto byte = static_cast<std::uint8_t>(rest & 0x7FU);
        rest >>= 7;
        if (rest != 0) {
            byte |= 0x80U;
        }
        out.push_back(byte);
    } while (rest != 0);
}

// One token: its first position's symbol source, length in positions, and where its data is.
struct Token {
    bool literal        = false;
    std::uint8_t symbol = 0;
    std::size_t length  = 0;  // positions covered
    std::size_t data    = 0;  // literal: offset of its first byte
};

// Reads the token at data[p]; false when it runs past the end.
bool read_token(const std::uint8_t* data, std::size_t size, std::size_t& p, Token& t) noexcept {
    if (p >= size) {
        return false;
    }
    const std::uint8_t head = data[p++];
    if (head >= 0xC0) {
        const std::size_t bytes = (head & 63U) + 1U;
        if (bytes > size - p) {
            return false;
        }
        t.literal = true;
        t.length  = 5 * bytes;
        t.data    = p;
        p += bytes;
        return true;
    }
    t.literal     = false;
    t.symbol      = static_cast<std::uint8_t>(head >> 6);
    std::size_t n = head & 63U;
    if (n == 0) {
        std::size_t value = 0;
        int shift         = 0;
        while (true) {
            if (p >= size || shift > 28) {
                return false;
            }
            const std::uint8_t b = data[p++];
            value |= static_cast<std::size_t>(b & 0x7FU) << shift;
            shift += 7;
            if ((b & 0x80U) == 0) {
                break;
            }
        }
        n = 64 + value;
    }
    t.length = n;
    return true;
}

int literal_symbol(const std::uint8_t* data, const Token& t, std::size_t offset) noexcept {
    const std::uint8_t byte = data[t.data + offset / 5];
    if (byte >= 243) {
        return -1;
    }
    return kDigits.d[byte][offset % 5];
}

}  // namespace

void encode_block(const std::uint8_t* s, std::size_t n, std::vector<std::uint8_t>& out) {
    std::size_t i = 0;
    while (i < n) {
        std::uint8_t symbol   = 0;
        const std::size_t run = run_at(s, n, i, symbol);
        if (run >= kMinRun || i + run == n) {
            put_run(out, symbol, run);
            i += run;
            continue;
        }
        // A literal: groups of five until a long run begins (or the block ends).
        const std::size_t head = out.size();
        out.push_back(0xC0);
        std::size_t bytes = 0;
        std::uint8_t last = kWinSymbol;
        while (i < n && bytes < kMaxLiteral) {
            if (bytes > 0) {
                std::uint8_t next   = 0;
                const std::size_t r = run_at(s, n, i, next);
                if (r >= kMinRun || i + r == n) {
                    break;
                }
            }
            unsigned value = 0;
            unsigned scale = 1;
            for (std::size_t k = 0; k < 5; ++k, scale *= 3) {
                std::uint8_t v = i + k < n ? s[i + k] : kDontCare;
                if (v == kDontCare) {
                    v = last;
                }
                last = v;
                value += v * scale;
            }
            out.push_back(static_cast<std::uint8_t>(value));
            ++bytes;
            i += 5;
        }
        out[head] = static_cast<std::uint8_t>(0xC0U | (bytes - 1));
    }
}

int decode_at(const std::uint8_t* data, std::size_t size, std::size_t n, std::size_t at) noexcept {
    if (at >= n) {
        return -1;
    }
    std::size_t p   = 0;
    std::size_t pos = 0;
    Token t;
    while (read_token(data, size, p, t)) {
        if (at < pos + t.length) {
            if (!t.literal) {
                return t.symbol <= kDrawSymbol ? t.symbol : -1;
            }
            return literal_symbol(data, t, at - pos);
        }
        pos += t.length;
    }
    return -1;
}

bool decode_block(const std::uint8_t* data,
                  std::size_t size,
                  std::size_t n,
                  std::uint8_t* out) noexcept {
    std::size_t p   = 0;
    std::size_t pos = 0;
    Token t;
    while (pos < n) {
        if (!read_token(data, size, p, t)) {
            return false;
        }
        for (std::size_t k = 0; k < t.length && pos < n; ++k, ++pos) {
            const int v = t.literal ? literal_symbol(data, t, k) : t.symbol;
            if (v < 0 || v > kDrawSymbol) {
                return false;
            }
            out[pos] = static_cast<std::uint8_t>(v);
        }
    }
    return p == size;
}

}  // namespace papan::engine::egdb::detail
