// Move and MoveList. A move is the triple (from, to, set of captured squares); two capture routes
// with the same triple are one move (FMJD convention, Scan's mask identity). A Move also keeps
// one legal landing path so a client can step through a multi-capture square by square, and
// the order of captured pieces along that path.
//
// Squares here are bits of the internal layout; notation code converts to square numbers.
#pragma once

#include <papan/core/bitboard.hpp>
#include <papan/core/types.hpp>

#include <array>
#include <cassert>
#include <cstddef>
#include <cstdint>

namespace papan::core {

// At most 20 pieces can be taken in one move (International, all of one side), so a path has at
// most 20 landing squares.
inline constexpr int kMaxPath = 20;

// Trivially constructible on purpose: MoveList holds hundreds of them on the stack of every
// search node, and zero-filling them cost more than generating the moves. `Move m{}` is zeroed.
struct Move {
    Bitboard captured;
    std::uint8_t from;
    std::uint8_t to;
    std::uint8_t path_len;                    // landing squares stored in path; 0 for a quiet move
    bool promotes;                            // the moving man ends the move crowned
    std::array<std::uint8_t, kMaxPath> path;  // landing squares in order; last == to

    [[nodiscard]] constexpr bool is_capture() const noexcept { return captured != 0; }

    [[nodiscard]] constexpr int capture_count() const noexcept { return popcount(captured); }

    // The same move: same from, to and captured set (the route may differ).
    [[nodiscard]] constexpr bool same_as(const Move& o) const noexcept {
        return from == o.from && to == o.to && captured == o.captured;
    }
};

// Capacity bound: quiet moves are at most 20 pieces x 17 targets (a flying king on 10x10 reaches
// at most 17 squares) = 340 and Turkish 16 x 14 = 224; 512 leaves room for captures.
inline constexpr std::size_t kMaxMoves = 512;

class MoveList {
public:
    [[nodiscard]] std::size_t size() const noexcept { return size_; }

    [[nodiscard]] bool empty() const noexcept { return size_ == 0; }

    [[nodiscard]] const Move& operator[](std::size_t i) const noexcept { return moves_[i]; }

    [[nodiscard]] Move& operator[](std::size_t i) noexcept { return moves_[i]; }

    [[nodiscard]] const Move* begin() const noexcept { return moves_.data(); }

    [[nodiscard]] const Move* end() const noexcept { return moves_.data() + size_; }

    [[nodiscard]] Move* begin() noexcept { return moves_.data(); }

    [[nodiscard]] Move* end() noexcept { return moves_.data() + size_; }

    void clear() noexcept {
        size_       = 0;
        overflowed_ = false;
    }

    void truncate(std::size_t n) noexcept { size_ = n; }

    // When the list is full the move goes to a spill slot and is dropped: a position built to
    // have more capture routes than fit (Turkish kings, found by fuzzing) loses moves from the
    // list, never memory. Callers that must be exact check overflowed().
    Move& push() noexcept {
        if (size_ < kMaxMoves) [[likely]] {
            return moves_[size_++];
        }
        overflowed_ = true;
        return spill_;
    }

    [[nodiscard]] bool overflowed() const noexcept { return overflowed_; }

    void push_quiet(int from, int to, bool promotes) noexcept {
        Move& m    = push();
        m.captured = 0;
        m.from     = static_cast<std::uint8_t>(from);
        m.to       = static_cast<std::uint8_t>(to);
        m.path_len = 0;
        m.promotes = promotes;
    }

private:
    std::size_t size_ = 0;
    bool overflowed_  = false;
    std::array<Move, kMaxMoves> moves_;
    Move spill_;
};

}  // namespace papan::core
