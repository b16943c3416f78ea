// Endgame databases: the tables against an independent solve with the core's move generator,
// the colour symmetry the tables rely on, the block codec, and refused files.
#include "egdb/codec.hpp"
#include "egdb_test_util.hpp"

#include <papan/core/movegen.hpp>
#include <papan/core/notation/fen.hpp>
#include <papan/engine/egdb.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <functional>
#include <random>
#include <set>
#include <tuple>
#include <unordered_map>
#include <vector>

namespace papan::engine::egdb {
namespace {

using core::Color;
using core::Position;
using core::VariantId;
using testing::random_position;
using testing::test_tables;

struct PositionHash {
    std::size_t operator()(const Position& p) const noexcept { return p.key(); }
};

// A deliberately plain solver, sharing nothing with the builder but the move generator: every
// position of at most `max_pieces` pieces with both colours to move (no symmetry, no index),
// in a hash map, solved by repeating "a move to a lost position wins, all moves to won
// positions lose" over the undecided positions until nothing changes; the rest are draws.
class NaiveSolver {
public:
    NaiveSolver(VariantId v, int max_pieces) : v_(v) {
        const core::Geometry& g = core::rules(v).board();
        Position p;
        p.variant                           = v;
        std::function<void(int, int)> place = [&](int square, int left) {
            if (square == g.squares) {
                if (p.pieces[0] != 0 && p.pieces[1] != 0 && p.is_consistent()) {
                    for (const Color side : {Color::White, Color::Black}) {
                        Position q = p;
                        q.side     = side;
                        index_.emplace(q, positions_.size());
                        positions_.push_back(q);
                    }
                }
                return;
            }
            place(square + 1, left);
            if (left == 0) {
                return;
            }
            const core::Bitboard b = core::bit(g.bit_of[static_cast<std::size_t>(square)]);
            for (int kind = 0; kind < 4; ++kind) {
                const Position saved = p;
                p.pieces[static_cast<std::size_t>(kind / 2)] |= b;
                if (kind % 2 == 1) {
                    p.kings |= b;
                }
                place(square + 1, left - 1);
                p = saved;
            }
        };
        place(0, max_pieces);
        solve();
    }

    [[nodiscard]] std::size_t size() const noexcept { return positions_.size(); }

    [[nodiscard]] const Position& position(std::size_t i) const { return positions_[i]; }

    [[nodiscard]] Wdl value(std::size_t i) const { return values_[i]; }

    // The value of any position of at most max_pieces pieces (one side may have none).
    [[nodiscard]] Wdl value_of(const Position& p) const {
        if (p.of(p.side) == 0) {
            return Wdl::Loss;
        }
        return values_[index_.at(p)];
    }

private:
    void solve() {
        // The move graph once (children as indices; -1 = the mover has no piece left), then
        // passes over integers.
        const bool turkish       = core::rules(v_).topology == core::Topology::Orthogonal8;
        constexpr int kUndecided = 9;
        std::vector<int> state(positions_.size(), kUndecided);
        std::vector<std::size_t> first(positions_.size() + 1, 0);
        std::vector<long> children;
        core::MoveList list;
        for (std::size_t i = 0; i < positions_.size(); ++i) {
            const Position& p = positions_[i];
            core::generate_moves(p, list);
            if (list.empty()) {
                state[i] = static_cast<int>(Wdl::Loss);
            } else if (turkish && !list[0].is_capture() && core::popcount(p.occupied()) == 2 &&
                       p.kings == p.occupied()) {
                state[i] = static_cast<int>(Wdl::Draw);  // Turkish lone king against lone king
            }
            for (const core::Move& m : list) {
                const Position c = core::make_move(p, m);
                children.push_back(c.of(c.side) == 0 ? -1 : static_cast<long>(index_.at(c)));
            }
            first[i + 1] = children.size();
        }
        for (bool changed = true; changed;) {
            changed = false;
            for (std::size_t i = 0; i < positions_.size(); ++i) {
                if (state[i] != kUndecided) {
                    continue;
                }
                bool all_win = true;
                bool win     = false;
                for (std::size_t k = first[i]; k < first[i + 1]; ++k) {
                    const long c = children[k];
                    const int s =
                        c < 0 ? static_cast<int>(Wdl::Loss) : state[static_cast<std::size_t>(c)];
                    win     = win || s == static_cast<int>(Wdl::Loss);
                    all_win = all_win && s == static_cast<int>(Wdl::Win);
                }
                if (win || all_win) {
                    state[i] = static_cast<int>(win ? Wdl::Win : Wdl::Loss);
                    changed  = true;
                }
            }
        }
        values_.resize(positions_.size());
        for (std::size_t i = 0; i < positions_.size(); ++i) {
            values_[i] = state[i] == kUndecided ? Wdl::Draw : static_cast<Wdl>(state[i]);
        }
    }

    VariantId v_;
    std::vector<Position> positions_;
    std::vector<Wdl> values_;
    std::unordered_map<Position, std::size_t, PositionHash> index_;
};

// "Win within d plies" proofs for positions above the naive solver's piece count, with its exact
// values below: a plain alpha-beta over results, with a table of (position, depth) results.
class ProofSearch {
public:
    ProofSearch(const NaiveSolver& below, int below_pieces)
        : below_(below)
        , below_pieces_(below_pieces) {}

    // Win/Loss/Draw when proven within `depth` plies, nullopt when not (or out of budget).
    std::optional<Wdl> solve(const Position& p, int max_depth, std::uint64_t budget) {
        nodes_ = 0;
        memo_.clear();
        for (int d = 1; d <= max_depth; ++d) {
            budget_      = budget;
            const auto r = search(p, d);
            if (r || nodes_ > budget) {
                return r;
            }
        }
        return std::nullopt;
    }

private:
    std::optional<Wdl> search(const Position& p, int depth) {
        if (p.of(p.side) == 0) {
            return Wdl::Loss;
        }
        if (core::popcount(p.occupied()) <= below_pieces_) {
            return below_.value_of(p);
        }
        if (++nodes_ > budget_ || depth == 0) {
            return std::nullopt;
        }
        const std::uint64_t salt = std::uint64_t{0x9E3779B97F4A7C15} * static_cast<unsigned>(depth);
        const std::uint64_t key  = p.key() ^ salt;
        if (const auto it = memo_.find(key); it != memo_.end()) {
            return it->second;
        }
        core::MoveList list;
        core::generate_moves(p, list);
        std::optional<Wdl> result;
        if (list.empty()) {
            result = Wdl::Loss;
        } else {
            bool all_win   = true;
            bool all_known = true;
            for (const core::Move& m : list) {
                const auto r = search(core::make_move(p, m), depth - 1);
                if (r == Wdl::Loss) {
                    result = Wdl::Win;
                    break;
                }
                all_known = all_known && r.has_value();
                all_win   = all_win && r == Wdl::Win;
            }
            if (!result && all_known) {
                result = all_win ? Wdl::Loss : Wdl::Draw;
            }
        }
        memo_.emplace(key, result);
        return result;
    }

    const NaiveSolver& below_;
    int below_pieces_;
    std::uint64_t nodes_  = 0;
    std::uint64_t budget_ = 0;
    std::unordered_map<std::uint64_t, std::optional<Wdl>> memo_;
};

// The tables up to 4 pieces against the plain solve: every position of up to 3 pieces exactly;
// 4-piece positions by one-ply consistency (the table's result is the best over the moves'
// results) on a sample and by proofs within a few plies on a smaller one.
void check_against_solver(VariantId v) {
    const auto dir = test_tables(v, 4);
    OpenReport report;
    const auto db = Database::open(dir, report);
    ASSERT_TRUE(report.problems.empty()) << report.problems.front();
    ASSERT_GE(db->max_pieces(v), 4);

    const NaiveSolver naive(v, 3);
    std::size_t mismatches = 0;
    for (std::size_t i = 0; i < naive.size(); ++i) {
        const auto t = db->probe(naive.position(i));
        if (t != naive.value(i) && ++mismatches <= 5) {
            ADD_FAILURE() << core::to_fen(naive.position(i)) << ": table "
                          << (t ? wdl_name(*t) : "none") << ", solver " << wdl_name(naive.value(i));
        }
    }
    EXPECT_EQ(mismatches, 0U) << "of " << naive.size() << " positions of up to 3 pieces";
    EXPECT_GT(naive.size(), 100000U);

    std::mt19937_64 rng(20240611);
    int consistent = 0;
    for (int k = 0; k < 20000; ++k) {
        const Position p = random_position(v, 4, rng);
        const auto t     = db->probe(p);
        ASSERT_TRUE(t.has_value()) << core::to_fen(p);
        core::MoveList list;
        core::generate_moves(p, list);
        Wdl best = Wdl::Loss;
        for (const core::Move& m : list) {
            const auto c = db->probe(core::make_move(p, m));
            ASSERT_TRUE(c.has_value());
            best = std::max(best, negate(*c));
        }
        if (core::rules(v).topology == core::Topology::Orthogonal8 && !list.empty() &&
            !list[0].is_capture() && core::popcount(p.occupied()) == 2 && p.kings == p.occupied()) {
            best = Wdl::Draw;  // Turkish lone king against lone king
        }
        EXPECT_EQ(*t, best) << core::to_fen(p);
        consistent += *t == best ? 1 : 0;
    }
    EXPECT_EQ(consistent, 20000);

    ProofSearch proof(naive, 3);
    int proven          = 0;
    int decisive_proven = 0;
    for (int k = 0; k < 3000; ++k) {
        const Position p = random_position(v, 4, rng);
        const auto t     = db->probe(p);
        const auto r     = proof.solve(p, 7, 4000);
        if (!r) {
            continue;
        }
        ++proven;
        decisive_proven += *r != Wdl::Draw ? 1 : 0;
        EXPECT_EQ(t, r) << core::to_fen(p) << ": table " << (t ? wdl_name(*t) : "none")
                        << ", proof " << wdl_name(*r);
    }
    // The proofs must have had something to check.
    EXPECT_GT(proven, 1000);
    EXPECT_GT(decisive_proven, 500);
}

TEST(EgdbTables, AmericanMatchesAPlainSolve) {
    check_against_solver(VariantId::American);
}

TEST(EgdbTables, RussianMatchesAPlainSolve) {
    check_against_solver(VariantId::Russian);
}

// The tables store positions with White to move and read the others rotated by 180 degrees with
// the colours swapped; that is sound only if every variant's move rules are symmetric so.
TEST(EgdbTables, MoveRulesAreSymmetricUnderRotationAndColourSwap) {
    std::mt19937_64 rng(7);
    for (const core::RuleSet& r : core::all_variants()) {
        const core::Geometry& g = r.board();
        const auto rot          = [&](int b) {
            return g.bit_of[static_cast<std::size_t>(g.squares - 1 -
                                                     g.plain_of[static_cast<std::size_t>(b)])];
        };
        const auto rot_set = [&](core::Bitboard s) {
            core::Bitboard out = 0;
            while (s != 0) {
                out |= core::bit(rot(core::pop_lsb(s)));
            }
            return out;
        };
        for (int k = 0; k < 3000; ++k) {
            const Position p = random_position(r.id, 2 + static_cast<int>(rng() % 7), rng);
            Position q;
            q.variant = r.id;
            q.side    = core::opposite(p.side);
            q.pieces  = {rot_set(p.pieces[1]), rot_set(p.pieces[0])};
            q.kings   = rot_set(p.kings);
            ASSERT_TRUE(q.is_consistent());
            core::MoveList a;
            core::MoveList b;
            core::generate_moves(p, a);
            core::generate_moves(q, b);
            std::set<std::tuple<int, int, core::Bitboard, bool>> ma;
            std::set<std::tuple<int, int, core::Bitboard, bool>> mb;
            for (const core::Move& m : a) {
                ma.emplace(rot(m.from), rot(m.to), rot_set(m.captured), m.promotes);
            }
            for (const core::Move& m : b) {
                mb.emplace(m.from, m.to, m.captured, m.promotes);
            }
            ASSERT_EQ(ma, mb) << r.key << " " << core::to_fen(p);
        }
    }
}

TEST(EgdbCodec, BlocksRoundTrip) {
    std::mt19937_64 rng(11);
    for (int k = 0; k < 400; ++k) {
        const std::size_t n = 1 + rng() % detail::kBlockSize;
        std::vector<std::uint8_t> s(n);
        // Runs of random length (some very long), noise, and "don't care" sprinkled in.
        for (std::size_t i = 0; i < n;) {
            const std::size_t len = 1 + rng() % (k % 3 == 0 ? 4000 : 12);
            const auto v          = static_cast<std::uint8_t>(rng() % 3);
            for (std::size_t j = 0; j < len && i < n; ++j, ++i) {
                s[i] = rng() % 5 == 0 ? detail::kDontCare : v;
            }
        }
        std::vector<std::uint8_t> data;
        detail::encode_block(s.data(), n, data);
        std::vector<std::uint8_t> out(n);
        ASSERT_TRUE(detail::decode_block(data.data(), data.size(), n, out.data()));
        for (std::size_t i = 0; i < n; ++i) {
            if (s[i] != detail::kDontCare) {
                ASSERT_EQ(out[i], s[i]) << "at " << i << " of " << n;
                ASSERT_EQ(detail::decode_at(data.data(), data.size(), n, i), s[i]);
            }
        }
        // Cut short, the block is refused, never read past its end.
        if (data.size() > 1) {
            EXPECT_FALSE(detail::decode_block(data.data(), data.size() - 1, n, out.data()));
        }
        EXPECT_EQ(detail::decode_at(data.data(), 0, n, 0), -1);
    }
}

// A copy of one real table, damaged in several ways, beside the sound tables of a set.
class EgdbDamagedFiles : public ::testing::Test {
protected:
    void SetUp() override {
        src_ = test_tables(VariantId::American, 3);
        dir_ = std::filesystem::temp_directory_path() /
               ("papan-egdb-damaged-" +
                std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "-" +
                ::testing::UnitTest::GetInstance()->current_test_info()->name());
        std::filesystem::remove_all(dir_);
        std::filesystem::create_directories(dir_ / "american");
        for (const auto& e : std::filesystem::directory_iterator(src_ / "american")) {
            const auto name = e.path().stem().string();
            const Material m{name[1] - '0', name[3] - '0', name[6] - '0', name[8] - '0'};
            if (m.pieces() <= 3) {
                std::filesystem::copy_file(e.path(), dir_ / "american" / e.path().filename());
            }
        }
        victim_ = dir_ / "american" / "m0k2-m0k1.egdb";
        ASSERT_TRUE(std::filesystem::exists(victim_));
    }

    void TearDown() override { std::filesystem::remove_all(dir_); }

    std::vector<char> read_victim() const {
        std::ifstream in(victim_, std::ios::binary);
        return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    }

    void write_victim(const std::vector<char>& bytes) const {
        std::ofstream out(victim_, std::ios::binary | std::ios::trunc);
        out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    }

    // Opens the directory: the victim must be refused with `reason`, the set then incomplete at
    // 3 pieces (so no 3-piece probe answers) and 2-piece probes still answered.
    void expect_refused(const std::string& reason) const {
        OpenReport report;
        const auto db = Database::open(dir_, report);
        ASSERT_EQ(report.problems.size(), 1U) << report.summary;
        EXPECT_NE(report.problems[0].find("m0k2-m0k1.egdb"), std::string::npos);
        EXPECT_NE(report.problems[0].find(reason), std::string::npos) << report.problems[0];
        EXPECT_EQ(db->max_pieces(VariantId::American), 2);
        const auto three = core::parse_fen(VariantId::American, "W:WK1,K2:BK32").value();
        EXPECT_FALSE(db->probe(three).has_value());
        const auto two = core::parse_fen(VariantId::American, "W:WK1:BK32").value();
        EXPECT_TRUE(db->probe(two).has_value());
    }

    std::filesystem::path src_;
    std::filesystem::path dir_;
    std::filesystem::path victim_;
};

TEST_F(EgdbDamagedFiles, SoundCopyIsAccepted) {
    OpenReport report;
    const auto db = Database::open(dir_, report);
    EXPECT_TRUE(report.problems.empty());
    EXPECT_EQ(db->max_pieces(VariantId::American), 3);
    EXPECT_EQ(db->probe(core::parse_fen(VariantId::American, "W:WK1,K2:BK32").value()), Wdl::Win);
}

TEST_F(EgdbDamagedFiles, TruncatedFileIsRefused) {
    auto bytes = read_victim();
    bytes.resize(bytes.size() - 1);
    write_victim(bytes);
    expect_refused("truncated");
    bytes.resize(50);
    write_victim(bytes);
    expect_refused("truncated");
}

TEST_F(EgdbDamagedFiles, FlippedDataByteIsRefused) {
    auto bytes              = read_victim();
    bytes[bytes.size() - 3] = static_cast<char>(bytes[bytes.size() - 3] ^ 0x10);
    write_victim(bytes);
    expect_refused("checksum");
}

TEST_F(EgdbDamagedFiles, FlippedHeaderByteIsRefused) {
    auto bytes = read_victim();
    bytes[40]  = static_cast<char>(bytes[40] ^ 0x01);
    write_victim(bytes);
    expect_refused("header");
}

TEST_F(EgdbDamagedFiles, ForeignFileIsRefused) {
    write_victim(std::vector<char>(4096, 'x'));
    expect_refused("not a Papan endgame table");
    write_victim({});
    expect_refused("empty");
}

TEST_F(EgdbDamagedFiles, TableOfAnotherSliceIsRefused) {
    std::filesystem::copy_file(dir_ / "american" / "m0k1-m0k2.egdb",
                               victim_,
                               std::filesystem::copy_options::overwrite_existing);
    expect_refused("another table");
}

}  // namespace
}  // namespace papan::engine::egdb
