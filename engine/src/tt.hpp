// Transposition table: buckets of five 12-byte entries in one 64-byte cache line, indexed by the
// low bits of Position::key() and checked with its high 32 bits. A stored move is the index of
// the move in the generator's list for that position (the generator's order is deterministic),
// so an entry stays 12 bytes. Replacement: the entry of the same key, else the shallowest entry
// of an older search, else the shallowest. Not thread-safe: one search owns it at a time.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace papan::engine::detail {

enum class Bound : std::uint8_t {
    None  = 0,
    Upper = 1,  // score <= stored (fail low)
    Lower = 2,  // score >= stored (fail high)
    Exact = 3,
};

inline constexpr std::uint16_t kNoMove = 0xFFFF;

struct TTEntry {
    std::uint32_t check = 0;
    std::int16_t score  = 0;
    std::uint16_t move  = kNoMove;
    std::int8_t depth   = 0;
    std::uint8_t flags  = 0;  // bound (2 bits) | generation << 2
    std::uint16_t pad   = 0;

    [[nodiscard]] Bound bound() const noexcept { return static_cast<Bound>(flags & 3U); }

    [[nodiscard]] std::uint8_t generation() const noexcept {
        return static_cast<std::uint8_t>(flags >> 2);
    }
};

static_assert(sizeof(TTEntry) == 12);

struct alignas(64) TTBucket {
    TTEntry entries[5];
};

static_assert(sizeof(TTBucket) == 64);

class TranspositionTable {
public:
    explicit TranspositionTable(std::size_t mb) { resize(mb); }

    void resize(std::size_t mb) {
        std::size_t n = 1;
        while (n * 2 * sizeof(TTBucket) <= mb * 1024 * 1024) {
            n *= 2;
        }
        buckets_.assign(n, TTBucket{});
        mask_ = n - 1;
    }

    void clear() { buckets_.assign(buckets_.size(), TTBucket{}); }

    void new_search() noexcept { generation_ = static_cast<std::uint8_t>((generation_ + 1) & 63U); }

    [[nodiscard]] const TTEntry* probe(std::uint64_t key) const noexcept {
        const TTBucket& b = buckets_[key & mask_];
        const auto check  = static_cast<std::uint32_t>(key >> 32);
        for (const TTEntry& e : b.entries) {
            if (e.check == check && e.bound() != Bound::None) {
                return &e;
            }
        }
        return nullptr;
    }

    void store(std::uint64_t key, int score, Bound bound, int depth, std::uint16_t move) noexcept {
        TTBucket& b      = buckets_[key & mask_];
        const auto check = static_cast<std::uint32_t>(key >> 32);
        TTEntry* victim  = &b.entries[0];
        int victim_worth = 1 << 30;
        for (TTEntry& e : b.entries) {
            if (e.check == check || e.bound() == Bound::None) {
                victim = &e;
                break;
            }
            const int worth = e.depth - (e.generation() == generation_ ? 0 : 64);
            if (worth < victim_worth) {
                victim_worth = worth;
                victim       = &e;
            }
        }
        // Keep a deeper result of this search for the same position, but take its move.
        if (victim->check == check && victim->bound() != Bound::None && bound != Bound::Exact &&
            victim->depth > depth && victim->generation() == generation_) {
            if (move != kNoMove) {
                victim->move = move;
            }
            return;
        }
        if (move == kNoMove && victim->check == check) {
            move = victim->move;
        }
        victim->check = check;
        victim->score = static_cast<std::int16_t>(score);
        victim->move  = move;
        victim->depth = static_cast<std::int8_t>(depth);
        victim->flags =
            static_cast<std::uint8_t>(static_cast<unsigned>(bound) | (unsigned{generation_} << 2U));
    }

private:
    std::vector<TTBucket> buckets_;
    std::size_t mask_        = 0;
    std::uint8_t generation_ = 0;
};

}  // namespace papan::engine::detail
