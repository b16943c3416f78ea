// The table builder: retrograde analysis over material slices with the core's move generator.
//
// Order. Slices are solved by piece count, then by number of men (a promotion turns a man into
// a king: fewer men), so every capture and promotion leads to a solved slice. A slice and its
// colour-swapped twin (m2k0-m1k1 and m1k1-m2k0) are one unit: a non-capturing move of the side to
// move leads from one to the other. Within a unit, positions are grouped in levels by the men's
// advancement ("progress", board_index.hpp): a man's forward move raises it, so levels are solved
// from the most advanced down and only king moves (and Turkish sideways man moves) stay inside a
// level.
//
// A level in two steps:
//  1. Every position is evaluated with generate_moves: no move = loss; a move leaving the level
//     (capture, man move, promotion) to a lost position = win; otherwise the number of moves that
//     stay inside is counted, and whether some leaving move reaches a draw.
//  2. Retrograde propagation in waves from the positions resolved in step 1: the predecessors of
//     a resolved position are found by playing the reverse king (or sideways man) moves on the
//     board with the other side to move (quiet moves of kings are reversible), kept when the
//     move generator confirms they had no capture (so the quiet move was legal). A predecessor
//     of a lost position wins; one whose inside moves all reach won positions, and whose leaving
//     moves do not reach a draw, loses when its count reaches zero. Wave k resolves the positions
//     whose result is decided k plies before the game leaves the level, so the number of waves
//     is the longest win or loss before a capture or man move ("max conversion plies").
//  Whatever is unresolved at the end is a draw (neither side can force a result).
//
// Both steps run on options.threads threads (step 2 with atomic counters). Each finished slice is
// written, read back through the file reader and compared, then kept in memory at 2 bits per
// index for the slices that depend on it. Slices already on disk are verified and reused; their
// positions with a capture pending ("don't care" in the file) are re-evaluated from the slices
// they capture into.
#include "egdb/board_index.hpp"
#include "egdb/codec.hpp"
#include "egdb/table_file.hpp"

#include <papan/core/movegen.hpp>
#include <papan/core/rules/registry.hpp>
#include <papan/engine/egdb.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <map>
#include <sstream>
#include <system_error>
#include <thread>

namespace papan::engine::egdb {

namespace {

using core::Bitboard;
using core::Color;
using core::Move;
using core::MoveList;
using core::Position;
using detail::BoardIndex;
using detail::KingCursor;
using detail::MenConfig;
using Clock = std::chrono::steady_clock;

// Working byte of a position while its unit is built: bits 0-1 the result, bit 2 set when the
// side to move has a capture (such positions are "don't care" in the file).
constexpr std::uint8_t kUnknown     = 0;
constexpr std::uint8_t kWin         = 1;
constexpr std::uint8_t kLoss        = 2;
constexpr std::uint8_t kDraw        = 3;
constexpr std::uint8_t kValueMask   = 3;
constexpr std::uint8_t kCaptureFlag = 4;

// Bits 3 and 4: "resolved in the last wave, predecessors still to visit", for the waves of odd
// and even number (a wave visits one bit's positions and marks the other's).
[[nodiscard]] constexpr std::uint8_t wave_bit(std::uint32_t wave) noexcept {
    return static_cast<std::uint8_t>(8U << (wave & 1U));
}

// Counter byte: inside moves not yet known to reach a won position, and a flag for "a leaving
// move reaches a draw" (the position can then no longer lose).
constexpr std::uint8_t kCountMask = 0x7F;
constexpr std::uint8_t kExitDraw  = 0x80;

constexpr std::uint64_t kChunk = std::uint64_t{1} << 14;

double seconds_since(Clock::time_point t) {
    return std::chrono::duration<double>(Clock::now() - t).count();
}

// body(i, thread) for i in [0, n) on `threads` threads (in the caller's thread when small).
template <class F>
void parallel_for(std::size_t n, int threads, F&& body) {
    if (threads <= 1 || n <= 1) {
        for (std::size_t i = 0; i < n; ++i) {
            body(i, 0);
        }
        return;
    }
    std::atomic<std::size_t> next{0};
    auto worker = [&](int t) {
        for (;;) {
            const std::size_t i = next.fetch_add(1, std::memory_order_relaxed);
            if (i >= n) {
                return;
            }
            body(i, t);
        }
    };
    std::vector<std::thread> pool;
    for (int t = 1; t < threads; ++t) {
        pool.emplace_back(worker, t);
    }
    worker(0);
    for (auto& th : pool) {
        th.join();
    }
}

std::uint8_t packed_value(const std::vector<std::uint8_t>& packed, std::uint64_t idx) noexcept {
    return static_cast<std::uint8_t>((static_cast<unsigned>(packed[idx >> 2]) >> ((idx & 3) * 2)) &
                                     3U);
}

std::uint8_t to_symbol(std::uint8_t value) noexcept {
    switch (value) {
    case kWin:
        return detail::kWinSymbol;
    case kLoss:
        return detail::kLossSymbol;
    case kDraw:
        return detail::kDrawSymbol;
    default:
        return detail::kDontCare;
    }
}

std::uint8_t from_symbol(std::uint8_t symbol) noexcept {
    switch (symbol) {
    case detail::kWinSymbol:
        return kWin;
    case detail::kLossSymbol:
        return kLoss;
    default:
        return kDraw;
    }
}

std::string thousands(std::uint64_t n) {
    const std::string digits = std::to_string(n);
    std::string out;
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0) {
            out.push_back(',');
        }
        out.push_back(digits[i]);
    }
    return out;
}

struct Slice {
    Material m;
    std::uint64_t size = 0;
    std::vector<std::uint8_t> packed;  // 2 bits per index once solved
    std::vector<std::uint8_t> work;    // while its unit is built
    std::vector<std::uint8_t> count;   // while its unit is built
    // While its unit is built: the possible men ranks (board_index.hpp) by increasing progress,
    // and where each progress value's run begins (level p = [level_start[p], level_start[p+1])).
    std::vector<std::uint32_t> ranks;
    std::vector<std::size_t> level_start;
    detail::TableStats stats;
    std::uint64_t file_bytes = 0;
};

class Builder {
public:
    explicit Builder(const BuildOptions& o)
        : opt_(o)
        , bi_(core::rules(o.variant).topology)
        , turkish_(core::rules(o.variant).topology == core::Topology::Orthogonal8)
        , threads_(std::max(1, o.threads)) {}

    BuildReport run();

private:
    void log(const std::string& line) const {
        if (opt_.log) {
            opt_.log(line);
        }
    }

    // The result for the side to move of a position reached by a move (any colour to move).
    [[nodiscard]] std::uint8_t lookup(const Position& pos) const noexcept;

    [[nodiscard]] bool inside(const Position& pos, const Move& m) const noexcept {
        if (m.is_capture()) {
            return false;
        }
        if (core::has(pos.kings, m.from)) {
            return true;
        }
        return turkish_ && (m.from >> 3) == (m.to >> 3);  // a sideways man move
    }

    void evaluate(Slice& s, std::uint64_t idx, const Position& p, MoveList& list) noexcept;
    void propagate(Slice& s, std::uint64_t idx, MoveList& list, std::uint8_t mark);
    void solve_level(const std::vector<Slice*>& unit, int progress, std::uint32_t& waves);
    void solve_unit(const std::vector<Slice*>& unit);
    [[nodiscard]] bool finish(Slice& s, double seconds, std::string& error);
    [[nodiscard]] bool load(Slice& s, std::string& error);

    [[nodiscard]] Slice* slice(const Material& m) const noexcept {
        return slices_[static_cast<std::size_t>(detail::material_id(m))];
    }

    BuildOptions opt_;
    BoardIndex bi_;
    bool turkish_;
    int threads_;
    std::vector<std::unique_ptr<Slice>> storage_;
    std::array<Slice*, detail::kMaterialIds> slices_{};
    // The first internal inconsistency seen (Fault), reported as the build's error.
    enum class Fault : int {
        None,
        NoSlice,
        Unsolved,
        BadIndex,
        Uncounted
    };

    void fault(Fault f) const noexcept {
        int expected = 0;
        fault_.compare_exchange_strong(expected, static_cast<int>(f), std::memory_order_relaxed);
    }

    mutable std::atomic<int> fault_{0};
};

std::uint8_t Builder::lookup(const Position& pos) const noexcept {
    if (pos.of(pos.side) == 0) {
        return kLoss;
    }
    const Position n = bi_.normalise(pos);
    const Material m = detail::material_of(n);
    const Slice* s   = slice(m);
    if (s == nullptr) {
        fault(Fault::NoSlice);
        return kDraw;
    }
    const std::uint64_t idx = bi_.index(n, m);
    const std::uint8_t v =
        s->work.empty() ? packed_value(s->packed, idx) : (s->work[idx] & kValueMask);
    if (v == kUnknown) {
        fault(Fault::Unsolved);
        return kDraw;
    }
    return v;
}

void Builder::evaluate(Slice& s, std::uint64_t idx, const Position& p, MoveList& list) noexcept {
    core::generate_moves(p, list);
    std::uint8_t& w = s.work[idx];
    if (list.empty()) {
        w = kLoss | wave_bit(1);
        return;
    }
    const std::uint8_t flag = list[0].is_capture() ? kCaptureFlag : 0;
    if (turkish_ && flag == 0 && core::popcount(p.occupied()) == 2 && p.kings == p.occupied()) {
        w = kDraw;  // Turkish: lone king against lone king is drawn unless a capture is on
        return;
    }
    int count      = 0;
    bool exit_draw = false;
    for (const Move& m : list) {
        if (inside(p, m)) {
            ++count;
            continue;
        }
        const std::uint8_t v = lookup(core::make_move(p, m));
        if (v == kLoss) {
            w = static_cast<std::uint8_t>(kWin | flag | wave_bit(1));
            return;
        }
        exit_draw = exit_draw || v == kDraw;
    }
    if (count == 0) {
        w = static_cast<std::uint8_t>(exit_draw ? (kDraw | flag) : (kLoss | flag | wave_bit(1)));
        return;
    }
    w = flag;
    s.count[idx] =
        static_cast<std::uint8_t>(std::min(count, int{kCountMask}) | (exit_draw ? kExitDraw : 0));
}

// Visits the predecessors of a resolved position; those it resolves get `mark`.
void Builder::propagate(Slice& s, std::uint64_t idx, MoveList& list, std::uint8_t mark) {
    Position c;
    if (!bi_.position_at(s.m, idx, opt_.variant, c)) {
        fault(Fault::BadIndex);
        return;
    }
    const std::uint8_t value = s.work[idx] & kValueMask;
    // The side that just moved, to move again: its quiet moves are the reverse moves.
    Position back = c;
    back.side     = Color::Black;
    core::generate_moves(back, list, core::MoveGenOptions{false});
    const Material pm   = s.m.flipped();
    Slice* const parent = slice(pm);
    for (const Move& m : list) {
        if (!inside(back, m)) {
            continue;
        }
        Position before = core::make_move(back, m);
        before.side     = Color::Black;
        if (core::has_capture(before)) {
            continue;  // the quiet move was not legal there
        }
        const Position norm      = bi_.normalise(before);
        const std::uint64_t pidx = bi_.index(norm, pm);
        std::atomic_ref<std::uint8_t> w(parent->work[pidx]);
        if ((w.load(std::memory_order_relaxed) & kValueMask) != kUnknown) {
            continue;
        }
        std::uint8_t expected = kUnknown;
        if (value == kLoss) {
            (void)w.compare_exchange_strong(expected, kWin | mark, std::memory_order_relaxed);
            continue;
        }
        std::atomic_ref<std::uint8_t> n(parent->count[pidx]);
        const std::uint8_t old = n.fetch_sub(1, std::memory_order_relaxed);
        if ((old & kCountMask) == 0) {
            fault(Fault::Uncounted);  // more edges than counted
        } else if (old == 1) {
            (void)w.compare_exchange_strong(expected, kLoss | mark, std::memory_order_relaxed);
        }
    }
}

namespace {

// A piece of a level for one thread: men configurations [first, last) of a slice's ranks, and
// of each the king placements [kbegin, kend) (a large configuration is split, small ones are
// grouped).
struct Item {
    Slice* s;
    std::size_t first;
    std::size_t last;
    std::uint64_t kbegin;
    std::uint64_t kend;
};

}  // namespace

void Builder::solve_level(const std::vector<Slice*>& unit, int progress, std::uint32_t& waves) {
    const auto lp = static_cast<std::size_t>(progress);
    std::vector<Item> items;
    for (Slice* s : unit) {
        const std::uint64_t kp = bi_.king_placements(s->m);
        const std::size_t end  = s->level_start[lp + 1];
        if (kp >= kChunk) {
            for (std::size_t c = s->level_start[lp]; c < end; ++c) {
                for (std::uint64_t b = 0; b < kp; b += kChunk) {
                    items.push_back({s, c, c + 1, b, std::min(kp, b + kChunk)});
                }
            }
            continue;
        }
        const std::size_t group = std::max<std::size_t>(1, kChunk / kp);
        for (std::size_t c = s->level_start[lp]; c < end; c += group) {
            items.push_back({s, c, std::min(end, c + group), 0, kp});
        }
    }
    // f(first index, last index, configuration) for each configuration of an item.
    const auto ranges = [this](const Item& it, auto&& f) {
        for (std::size_t c = it.first; c < it.last; ++c) {
            MenConfig mc;
            (void)detail::men_config(bi_, it.s->m, it.s->ranks[c], mc);
            f(mc.first + it.kbegin, mc.first + it.kend, mc);
        }
    };
    std::vector<std::unique_ptr<MoveList>> lists;
    for (int t = 0; t < threads_; ++t) {
        lists.push_back(std::make_unique<MoveList>());
    }
    const int step_threads = items.size() > 1 ? threads_ : 1;

    // Step 1: evaluate every position of the level.
    parallel_for(items.size(), step_threads, [&](std::size_t i, int t) {
        const Item& it = items[i];
        ranges(it, [&](std::uint64_t begin, std::uint64_t end, const MenConfig& mc) {
            KingCursor cur(bi_, it.s->m, mc.own_men, mc.opp_men, it.kbegin);
            Position p;
            p.side    = Color::White;
            p.variant = opt_.variant;
            for (std::uint64_t idx = begin; idx < end; ++idx) {
                p.pieces = {mc.own_men | cur.own_kings(), mc.opp_men | cur.opp_kings()};
                p.kings  = cur.own_kings() | cur.opp_kings();
                evaluate(*it.s, idx, p, *lists[static_cast<std::size_t>(t)]);
                (void)cur.next();
            }
        });
    });

    // Step 2: propagate from the resolved positions, wave by wave (step 1 marked them for
    // wave 1); a wave scans the level for its mark.
    std::uint32_t wave = 0;
    for (;; ++wave) {
        const std::uint8_t mine = wave_bit(wave + 1);
        const std::uint8_t next = wave_bit(wave + 2);
        std::atomic<std::uint64_t> visited{0};
        parallel_for(items.size(), step_threads, [&](std::size_t i, int t) {
            const Item& it      = items[i];
            std::uint64_t found = 0;
            ranges(it, [&](std::uint64_t begin, std::uint64_t end, const MenConfig&) {
                for (std::uint64_t idx = begin; idx < end; ++idx) {
                    std::atomic_ref<std::uint8_t> w(it.s->work[idx]);
                    if ((w.load(std::memory_order_relaxed) & mine) == 0) {
                        continue;
                    }
                    (void)w.fetch_and(static_cast<std::uint8_t>(~mine), std::memory_order_relaxed);
                    propagate(*it.s, idx, *lists[static_cast<std::size_t>(t)], next);
                    ++found;
                }
            });
            visited.fetch_add(found, std::memory_order_relaxed);
        });
        if (visited.load() == 0) {
            break;
        }
    }
    waves = std::max(waves, wave);
    // Neither side can force a result from what is left: draws (before lower levels read them).
    for (const Item& it : items) {
        ranges(it, [&](std::uint64_t begin, std::uint64_t end, const MenConfig&) {
            for (std::uint64_t idx = begin; idx < end; ++idx) {
                if ((it.s->work[idx] & kValueMask) == kUnknown) {
                    it.s->work[idx] = static_cast<std::uint8_t>(it.s->work[idx] | kDraw);
                }
            }
        });
    }
}

void Builder::solve_unit(const std::vector<Slice*>& unit) {
    int top = 0;
    for (Slice* s : unit) {
        s->work.assign(s->size, 0);
        s->count.assign(s->size, 0);
        // The possible men ranks, sorted by progress (a counting sort).
        const std::uint64_t n = detail::men_ranks(bi_, s->m);
        std::vector<std::uint8_t> progress(n, 0xFF);
        std::vector<std::size_t> per(64, 0);
        for (std::uint64_t r = 0; r < n; ++r) {
            MenConfig mc;
            if (detail::men_config(bi_, s->m, r, mc)) {
                progress[r] = static_cast<std::uint8_t>(mc.progress);
                ++per[static_cast<std::size_t>(mc.progress)];
                top = std::max(top, mc.progress);
            }
        }
        s->level_start.assign(per.size() + 1, 0);
        for (std::size_t p = 0; p < per.size(); ++p) {
            s->level_start[p + 1] = s->level_start[p] + per[p];
        }
        s->ranks.resize(s->level_start.back());
        std::vector<std::size_t> at(s->level_start.begin(), s->level_start.end() - 1);
        for (std::uint64_t r = 0; r < n; ++r) {
            if (progress[r] != 0xFF) {
                s->ranks[at[progress[r]]++] = static_cast<std::uint32_t>(r);
            }
        }
    }
    std::uint32_t waves = 0;
    for (int p = top; p >= 0; --p) {
        solve_level(unit, p, waves);
    }
    for (Slice* s : unit) {
        s->stats.max_conversion_plies = waves;
    }
}

bool Builder::finish(Slice& s, double seconds, std::string& error) {
    // Positions never evaluated (value still unknown) are impossible placements.
    detail::TableStats st;
    st.max_conversion_plies            = s.stats.max_conversion_plies;
    st.build_seconds                   = seconds;
    std::vector<std::uint8_t>& symbols = s.count;  // reused: read before written, index by index
    for (std::uint64_t i = 0; i < s.size; ++i) {
        const std::uint8_t w = s.work[i];
        const std::uint8_t v = w & kValueMask;
        if ((w & kCaptureFlag) != 0) {
            ++st.captures;
            symbols[i] = detail::kDontCare;
            continue;
        }
        if (v == kUnknown) {
            symbols[i] = detail::kDontCare;
            continue;
        }
        st.wins += v == kWin ? 1U : 0U;
        st.losses += v == kLoss ? 1U : 0U;
        st.draws += v == kDraw ? 1U : 0U;
        symbols[i] = to_symbol(v);
    }
    const auto path = detail::table_path(opt_.dir, opt_.variant, s.m);
    s.file_bytes    = detail::write_table(path, opt_.variant, s.m, symbols, st, error);
    if (s.file_bytes == 0) {
        return false;
    }
    // Read it back through the reader and compare every stored result.
    const auto table = detail::Table::open(path, opt_.variant, s.m, bi_, error);
    if (!table) {
        error = "written table does not open: " + error;
        return false;
    }
    std::vector<std::uint8_t> block(detail::kBlockSize);
    for (std::uint64_t first = 0; first < s.size; first += detail::kBlockSize) {
        const std::size_t n = std::min<std::uint64_t>(detail::kBlockSize, s.size - first);
        if (!table->decode(first, std::span<std::uint8_t>(block.data(), n))) {
            error = "written table does not decode";
            return false;
        }
        for (std::size_t k = 0; k < n; ++k) {
            const std::uint8_t want = symbols[first + k];
            if (want != detail::kDontCare && block[k] != want) {
                error = "written table differs from the solved one at index " +
                        std::to_string(first + k);
                return false;
            }
        }
    }
    s.stats = st;
    s.packed.assign((s.size + 3) / 4, 0);
    for (std::uint64_t i = 0; i < s.size; ++i) {
        s.packed[i >> 2] = static_cast<std::uint8_t>(s.packed[i >> 2] |
                                                     ((s.work[i] & kValueMask) << ((i & 3) * 2)));
    }
    // Give the memory back (assigning {} would keep the capacity).
    std::vector<std::uint8_t>().swap(s.work);
    std::vector<std::uint8_t>().swap(s.count);
    std::vector<std::uint32_t>().swap(s.ranks);
    std::vector<std::size_t>().swap(s.level_start);
    return true;
}

bool Builder::load(Slice& s, std::string& error) {
    const auto path = detail::table_path(opt_.dir, opt_.variant, s.m);
    std::error_code ec;
    if (!std::filesystem::exists(path, ec)) {
        return false;
    }
    const auto table = detail::Table::open(path, opt_.variant, s.m, bi_, error);
    if (!table) {
        return false;
    }
    std::vector<std::uint8_t> values(s.size);
    if (!table->decode(0, values)) {
        error = "does not decode";
        return false;
    }
    // Positions with a capture pending are not stored: evaluate them from the capture targets.
    const std::uint64_t ranks = detail::men_ranks(bi_, s.m);
    const std::uint64_t kp    = bi_.king_placements(s.m);
    std::vector<std::uint8_t> valid(s.size, 0);
    std::vector<std::unique_ptr<MoveList>> lists;
    for (int t = 0; t < threads_; ++t) {
        lists.push_back(std::make_unique<MoveList>());
    }
    parallel_for(ranks, threads_, [&](std::size_t i, int t) {
        MenConfig mc;
        if (!detail::men_config(bi_, s.m, i, mc)) {
            return;
        }
        MoveList& list = *lists[static_cast<std::size_t>(t)];
        KingCursor cur(bi_, s.m, mc.own_men, mc.opp_men, 0);
        Position p;
        p.side    = Color::White;
        p.variant = opt_.variant;
        for (std::uint64_t r = 0; r < kp; ++r, (void)cur.next()) {
            const std::uint64_t idx = mc.first + r;
            p.pieces                = {mc.own_men | cur.own_kings(), mc.opp_men | cur.opp_kings()};
            p.kings                 = cur.own_kings() | cur.opp_kings();
            valid[idx]              = 1;
            if (!core::has_capture(p)) {
                values[idx] = from_symbol(values[idx]);
                continue;
            }
            core::generate_moves(p, list);
            std::uint8_t best = kLoss;
            for (const Move& m : list) {
                const std::uint8_t v = lookup(core::make_move(p, m));
                if (v == kLoss) {
                    best = kWin;
                    break;
                }
                if (v == kDraw) {
                    best = kDraw;
                }
            }
            values[idx] = best;
        }
    });
    s.packed.assign((s.size + 3) / 4, 0);
    for (std::uint64_t i = 0; i < s.size; ++i) {
        const std::uint8_t v = valid[i] != 0 ? values[i] : kUnknown;
        s.packed[i >> 2]     = static_cast<std::uint8_t>(s.packed[i >> 2] | (v << ((i & 3) * 2)));
    }
    s.stats      = table->stats();
    s.file_bytes = table->file_bytes();
    return true;
}

BuildReport Builder::run() {
    BuildReport report;
    const auto start = Clock::now();
    const auto& r    = core::rules(opt_.variant);
    if (opt_.pieces < 2 || opt_.pieces > max_build_pieces(opt_.variant)) {
        report.error = "--pieces must be between 2 and " +
                       std::to_string(max_build_pieces(opt_.variant)) + " for " +
                       std::string(r.key);
        return report;
    }
    // Every material of at most `pieces` pieces, in dependency order.
    std::vector<Material> order;
    for (int n = 2; n <= opt_.pieces; ++n) {
        for (int a = 0; a <= n; ++a) {
            for (int b = 0; a + b <= n; ++b) {
                for (int c = 0; a + b + c <= n; ++c) {
                    const int d = n - a - b - c;
                    if (a + b == 0 || c + d == 0 || a > r.men_per_side || c > r.men_per_side) {
                        continue;
                    }
                    order.push_back({a, b, c, d});
                }
            }
        }
    }
    std::stable_sort(order.begin(), order.end(), [](const Material& x, const Material& y) {
        const int mx = x.own_men + x.opp_men;
        const int my = y.own_men + y.opp_men;
        return x.pieces() != y.pieces() ? x.pieces() < y.pieces() : mx < my;
    });
    for (const Material& m : order) {
        auto s                                                    = std::make_unique<Slice>();
        s->m                                                      = m;
        s->size                                                   = bi_.size(m);
        slices_[static_cast<std::size_t>(detail::material_id(m))] = s.get();
        storage_.push_back(std::move(s));
    }
    log("egdb build: " + std::string(r.key) + " up to " + std::to_string(opt_.pieces) +
        " pieces, " + std::to_string(order.size()) + " slices, " + std::to_string(threads_) +
        " threads, into " + opt_.dir.string());

    std::vector<bool> done(detail::kMaterialIds, false);
    for (const Material& m : order) {
        if (done[static_cast<std::size_t>(detail::material_id(m))]) {
            continue;
        }
        std::vector<Slice*> unit{slice(m)};
        if (!(m.flipped() == m)) {
            unit.push_back(slice(m.flipped()));
        }
        for (Slice* s : unit) {
            done[static_cast<std::size_t>(detail::material_id(s->m))] = true;
            report.positions += s->size;
        }
        // Reuse the unit from disk when every table of it is there and sound.
        bool loaded = true;
        for (Slice* s : unit) {
            std::string error;
            if (!load(*s, error)) {
                if (!error.empty()) {
                    log("egdb build: rebuilding " + s->m.name() + ": " + error);
                }
                loaded = false;
                break;
            }
        }
        if (loaded) {
            for (Slice* s : unit) {
                report.bytes_on_disk += s->file_bytes;
                ++report.slices_loaded;
            }
            continue;
        }
        if (opt_.stop != nullptr && opt_.stop->load(std::memory_order_relaxed)) {
            report.error   = "stopped";
            report.seconds = seconds_since(start);
            return report;
        }
        const auto t0 = Clock::now();
        solve_unit(unit);
        const double secs     = seconds_since(t0);
        std::uint64_t in_unit = 0;
        for (Slice* s : unit) {
            in_unit += s->size;
        }
        for (Slice* s : unit) {
            std::string error;
            const double share = secs * static_cast<double>(s->size) /
                                 static_cast<double>(std::max<std::uint64_t>(1, in_unit));
            if (!finish(*s, share, error)) {
                report.error = s->m.name() + ": " + error;
                return report;
            }
            report.bytes_on_disk += s->file_bytes;
            ++report.slices_built;
            const auto& st = s->stats;
            std::ostringstream line;
            line << "egdb build: " << r.key << " " << s->m.name() << ": " << thousands(s->size)
                 << " positions, W/L/D " << thousands(st.wins) << "/" << thousands(st.losses) << "/"
                 << thousands(st.draws) << ", " << thousands(st.captures) << " with a capture, "
                 << st.max_conversion_plies << " plies max to conversion, "
                 << thousands(s->file_bytes) << " bytes, ";
            char buf[32];
            std::snprintf(buf, sizeof buf, "%.1f s", share);
            line << buf;
            log(line.str());
        }
        if (const int f = fault_.load(); f != 0) {
            static constexpr const char* kWhat[] = {
                "",
                "a move leads to a slice not built",
                "an unsolved position was looked up",
                "a queued index is not a position",
                "a position has more inside moves than counted"};
            report.error =
                std::string("internal error while building ") + m.name() + ": " + kWhat[f];
            return report;
        }
    }
    report.seconds = seconds_since(start);
    return report;
}

}  // namespace

int max_build_pieces(core::VariantId v) noexcept {
    switch (core::rules(v).topology) {
    case core::Topology::Diagonal8:
        return 7;
    case core::Topology::Diagonal10:
        return 6;
    case core::Topology::Orthogonal8:
        return 5;
    }
    return 0;
}

BuildReport build(const BuildOptions& options) {
    Builder b(options);
    return b.run();
}

}  // namespace papan::engine::egdb
