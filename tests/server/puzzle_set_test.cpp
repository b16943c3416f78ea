// The shipped puzzle set (puzzles/<variant>.jsonl, written by `make puzzles`): every puzzle of
// every variant is checked here, with the rules core and a material minimax of the tests' own
// (puzzle_proof.hpp, not the miner's code):
//   * the set has at least 300 puzzles per variant, ids unique and equal to puzzle_id(fen);
//   * the FEN reads and is written back the same; the solution is a legal line, each move in
//     the variant's move text, ending on the solver's move;
//   * the themes are those puzzle_themes() tells from the line;
//   * the material proof holds: with the pending captures resolved the material is the recorded
//     baseline; the key forces the recorded material within the recorded horizon, at least a man
//     more; every other first move forces less; each wrong move is legal at its step;
//   * the engine's recorded margin is at least the miner's (a man).
// The engine's own proof is repeated on a sample (TheEngineStillPlaysTheKey): a few puzzles per
// variant, evenly spaced through the set and the same on every run, searched at their recorded
// depth.
#include "puzzle_proof.hpp"

#include <papan/core/movegen.hpp>
#include <papan/core/notation/fen.hpp>
#include <papan/core/notation/move_text.hpp>
#include <papan/core/rules/registry.hpp>
#include <papan/engine/engine.hpp>
#include <papan/server/puzzle.hpp>

#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <sstream>

namespace papan::server {
namespace {

constexpr std::size_t kAtLeast   = 300;
constexpr int kMinGain           = 100;
constexpr int kMinMargin         = 100;
constexpr int kSampledPerVariant = 3;

std::vector<Puzzle> load_set(core::VariantId v) {
    const std::string path =
        std::string(PAPAN_PUZZLES_DIR) + "/" + std::string(core::rules(v).key) + ".jsonl";
    std::ifstream f(path, std::ios::binary);
    EXPECT_TRUE(f.good()) << "missing " << path << " (make puzzles writes it)";
    std::stringstream buf;
    buf << f.rdbuf();
    auto set = read_puzzle_set(buf.str());
    EXPECT_TRUE(set.ok()) << path << ": " << set.error();
    return set.ok() ? *set : std::vector<Puzzle>{};
}

class PuzzleSet : public ::testing::TestWithParam<core::VariantId> {};

TEST_P(PuzzleSet, EveryPuzzleIsLegalProvenAndThemed) {
    const core::VariantId v = GetParam();
    const auto set          = load_set(v);
    EXPECT_GE(set.size(), kAtLeast);
    std::set<std::string> ids;
    for (const auto& p : set) {
        test::ProofChecker proof;  // its table holds one puzzle's lines
        SCOPED_TRACE(p.id + " " + p.fen);
        EXPECT_TRUE(ids.insert(p.id).second) << "repeated id";
        EXPECT_EQ(p.variant, v);
        EXPECT_EQ(p.id, puzzle_id(v, p.fen));
        const auto pos = core::parse_fen(v, p.fen);
        ASSERT_TRUE(pos.ok()) << pos.error();
        EXPECT_EQ(core::to_fen(*pos), p.fen);
        const auto line = puzzle_line(p);
        ASSERT_TRUE(line.ok()) << line.error();
        ASSERT_EQ(line->size() % 2, 1U) << "the line ends on the solver's move";
        core::Position at = *pos;
        for (std::size_t i = 0; i < line->size(); ++i) {
            EXPECT_EQ(p.solution[i], core::move_text(at, (*line)[i])) << "move " << i + 1;
            at = core::make_move(at, (*line)[i]);
        }
        EXPECT_EQ(p.themes, puzzle_themes(*pos, *line, p.proof.horizon, p.proof.proven));

        // The material proof.
        const int baseline = proof.exact(*pos, 0);
        EXPECT_EQ(baseline, p.proof.baseline);
        const int horizon = p.proof.horizon;
        ASSERT_GE(horizon, 1);
        const core::Move key = line->front();
        EXPECT_EQ(-proof.exact(core::make_move(*pos, key), horizon - 1), p.proof.proven);
        EXPECT_GE(p.proof.proven, baseline + kMinGain);
        core::MoveList first;
        core::generate_moves(*pos, first);
        EXPECT_GE(first.size(), 2U);
        for (const auto& m : first) {
            if (!m.same_as(key)) {
                EXPECT_FALSE(proof.reaches(*pos, m, horizon, p.proof.proven))
                    << core::move_text(*pos, m) << " forces as much";
            }
        }
        EXPECT_GE(p.proof.score - p.proof.second, kMinMargin);

        // The wrong moves: legal at their step and not the solution's.
        std::vector<core::Position> before{*pos};
        for (const auto& m : *line) {
            before.push_back(core::make_move(before.back(), m));
        }
        for (const auto& w : p.wrong) {
            ASSERT_TRUE(w.step >= 0 && w.step < static_cast<int>(line->size()) && w.step % 2 == 0);
            const auto& here = before[static_cast<std::size_t>(w.step)];
            const auto m     = core::parse_move(here, w.move);
            ASSERT_TRUE(m.ok()) << w.move << ": " << m.error();
            EXPECT_FALSE(m->same_as((*line)[static_cast<std::size_t>(w.step)]));
            if (!w.reply.empty()) {
                const auto after = core::make_move(here, *m);
                const auto reply = core::parse_move(after, w.reply);
                ASSERT_TRUE(reply.ok()) << w.reply << ": " << reply.error();
                EXPECT_EQ(reply->capture_count(), w.captured);
            }
        }
    }
}

// The engine's proof again on a sample: the key is still the engine's choice at the recorded
// depth and every other first move scores at least half a man less. The engine changes (new
// evaluation, new search); a puzzle failing here after such a change is one to mine again.
TEST_P(PuzzleSet, TheEngineStillPlaysTheKey) {
    const core::VariantId v = GetParam();
    const auto set          = load_set(v);
    ASSERT_FALSE(set.empty());
    const std::size_t stride = std::max<std::size_t>(1, set.size() / kSampledPerVariant);
    engine::Engine eng(engine::EngineOptions{.hash_mb = 16, .seed = 0, .egdb_dir = {}});
    for (std::size_t i = 0; i < set.size(); i += stride) {
        const auto& p = set[i];
        SCOPED_TRACE(p.id + " " + p.fen);
        const auto pos  = core::parse_fen(v, p.fen);
        const auto line = puzzle_line(p);
        ASSERT_TRUE(pos.ok() && line.ok());
        const core::Game game(*pos);
        engine::SearchLimits limits;
        limits.depth = p.proof.depth;
        eng.new_game();
        const auto best = eng.search(game, limits);
        ASSERT_TRUE(best.best.has_value());
        EXPECT_TRUE(best.best->same_as(line->front()))
            << "the engine plays " << core::move_text(*pos, *best.best);
        const core::Move key[] = {line->front()};
        const auto second      = eng.search_excluding(game, key, limits);
        EXPECT_GE(best.score - second.score, kMinMargin / 2);
    }
}

INSTANTIATE_TEST_SUITE_P(Variants,
                         PuzzleSet,
                         ::testing::Values(core::VariantId::American,
                                           core::VariantId::International,
                                           core::VariantId::Brazilian,
                                           core::VariantId::Russian,
                                           core::VariantId::Pool,
                                           core::VariantId::Spanish,
                                           core::VariantId::Italian,
                                           core::VariantId::Czech,
                                           core::VariantId::Thai,
                                           core::VariantId::Turkish),
                         [](const auto& param_info) {
                             return std::string(core::rules(param_info.param).key);
                         });

}  // namespace
}  // namespace papan::server
