// Transposition table, shared by the threads of a search (Lazy SMP): buckets of five entries in
// one 64-byte cache line, indexed by the low bits of Position::key(). An entry is a 64-bit data
// word (score, move, depth, bound, generation) and a 32-bit check word = the key's high 32 bits
// XOR the data folded to 32 bits, each read and written atomically (relaxed). A reader accepts
// an entry when check ^ fold(data) gives its key's high bits, so an entry torn by two threads
// writing at once reads as a miss (Hyatt and Mann's lockless hashing), not as another
// position's data. The search checks a stored move against the position's move count anyway.
//
// A stored move is the index of the move in the generator's list for that position (the
// generator's order is deterministic). Replacement: the entry of the same key, else the
// shallowest entry of an older search, else the shallowest.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>

namespace papan::engine::detail {

enum class Bound : std::uint8_t {
    None  = 0,
    Upper = 1,  // score <= stored (fail low)
    Lower = 2,  // score >= stored (fail high)
    Exact = 3,
};

inline constexpr std::uint16_t kNoMove = 0xFFFF;

// What an entry holds, unpacked.
struct TTEntry {
    std::int16_t score      = 0;
    std::uint16_t move      = kNoMove;
    std::int8_t depth       = 0;
    Bound bound             = Bound::None;
    std::uint8_t generation = 0;  // 6 bits

    // The move is stored XOR kNoMove, so that an all-zero word is an empty entry without a move.
    [[nodiscard]] std::uint64_t pack() const noexcept {
        return static_cast<std::uint64_t>(static_cast<std::uint16_t>(score)) |
               (static_cast<std::uint64_t>(move ^ kNoMove) << 16U) |
               (static_cast<std::uint64_t>(static_cast<std::uint8_t>(depth)) << 32U) |
               (static_cast<std::uint64_t>(static_cast<unsigned>(bound) |
                                           (static_cast<unsigned>(generation) << 2U))
                << 40U);
    }

    [[nodiscard]] static TTEntry unpack(std::uint64_t d) noexcept {
        TTEntry e;
        e.score          = static_cast<std::int16_t>(static_cast<std::uint16_t>(d & 0xFFFFU));
        e.move           = static_cast<std::uint16_t>(((d >> 16U) & 0xFFFFU) ^ kNoMove);
        e.depth          = static_cast<std::int8_t>(static_cast<std::uint8_t>((d >> 32U) & 0xFFU));
        const auto flags = static_cast<unsigned>((d >> 40U) & 0xFFU);
        e.bound          = static_cast<Bound>(flags & 3U);
        e.generation     = static_cast<std::uint8_t>(flags >> 2U);
        return e;
    }
};

inline constexpr std::size_t kBucketEntries = 5;

struct alignas(64) TTBucket {
    std::atomic<std::uint64_t> data[kBucketEntries];
    std::atomic<std::uint32_t> check[kBucketEntries];
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
        buckets_ = std::make_unique<TTBucket[]>(n);
        count_   = n;
        mask_    = n - 1;
        clear();
    }

    // Not while a search runs.
    void clear() noexcept {
        for (std::size_t i = 0; i < count_; ++i) {
            for (std::size_t k = 0; k < kBucketEntries; ++k) {
                buckets_[i].data[k].store(0, std::memory_order_relaxed);
                buckets_[i].check[k].store(0, std::memory_order_relaxed);
            }
        }
    }

    // Once per search, before its threads start.
    void new_search() noexcept { generation_ = static_cast<std::uint8_t>((generation_ + 1) & 63U); }

    // The entry of `key`, when there is one.
    [[nodiscard]] bool probe(std::uint64_t key, TTEntry& out) const noexcept {
        const TTBucket& b = buckets_[key & mask_];
        const auto high   = static_cast<std::uint32_t>(key >> 32U);
        for (std::size_t k = 0; k < kBucketEntries; ++k) {
            const std::uint64_t d = b.data[k].load(std::memory_order_relaxed);
            if ((b.check[k].load(std::memory_order_relaxed) ^ fold(d)) == high) {
                const TTEntry e = TTEntry::unpack(d);
                if (e.bound != Bound::None) {
                    out = e;
                    return true;
                }
            }
        }
        return false;
    }

    void store(std::uint64_t key, int score, Bound bound, int depth, std::uint16_t move) noexcept {
        TTBucket& b        = buckets_[key & mask_];
        const auto high    = static_cast<std::uint32_t>(key >> 32U);
        std::size_t victim = 0;
        TTEntry old;
        bool same_key    = false;
        int victim_worth = 1 << 30;
        for (std::size_t k = 0; k < kBucketEntries; ++k) {
            const std::uint64_t d = b.data[k].load(std::memory_order_relaxed);
            const TTEntry e       = TTEntry::unpack(d);
            same_key              = (b.check[k].load(std::memory_order_relaxed) ^ fold(d)) == high;
            if (same_key || e.bound == Bound::None) {
                victim = k;
                old    = e;
                break;
            }
            const int worth = e.depth - (e.generation == generation_ ? 0 : 64);
            if (worth < victim_worth) {
                victim_worth = worth;
                victim       = k;
            }
        }
        TTEntry e{.score      = static_cast<std::int16_t>(score),
                  .move       = move,
                  .depth      = static_cast<std::int8_t>(depth),
                  .bound      = bound,
                  .generation = generation_};
        if (same_key) {
            // Keep a deeper result of this search for the same position, but take its move.
            if (old.bound != Bound::None && bound != Bound::Exact && old.depth > depth &&
                old.generation == generation_) {
                if (move == kNoMove) {
                    return;
                }
                e      = old;
                e.move = move;
            } else if (move == kNoMove) {
                e.move = old.move;
            }
        }
        const std::uint64_t d = e.pack();
        b.data[victim].store(d, std::memory_order_relaxed);
        b.check[victim].store(high ^ fold(d), std::memory_order_relaxed);
    }

private:
    [[nodiscard]] static std::uint32_t fold(std::uint64_t d) noexcept {
        return static_cast<std::uint32_t>(d ^ (d >> 32U));
    }

    std::unique_ptr<TTBucket[]> buckets_;
    std::size_t count_       = 0;
    std::size_t mask_        = 0;
    std::uint8_t generation_ = 0;
};

}  // namespace papan::engine::detail
