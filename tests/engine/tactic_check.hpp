// What both tactics tests (tactics_test.cpp: self-play shots proven by exhaustive search;
// tactics_published_test .cpp: shots from books and columns) check for one position: the claim
// about the position, with our own move generator, and that the engine finds the key move.
// Header-only: the engine tests' executable is built from tests/engine/*_test.cpp alone.
#pragma once

#include <papan/core/game.hpp>
#include <papan/core/movegen.hpp>
#include <papan/core/notation/fen.hpp>
#include <papan/core/notation/move_text.hpp>
#include <papan/core/rules/registry.hpp>
#include <papan/engine/engine.hpp>

#include <gtest/gtest.h>

#include <limits>
#include <string>
#include <vector>

namespace papan::test {

// A position and its key move.
struct Tactic {
    core::VariantId variant = core::VariantId::International;
    const char* fen         = "";
    // The key move first, then any equivalent winning moves, in the variant's notation (null
    // entries are skipped).
    std::vector<const char*> keys;
    // The key is a sacrifice: nothing can be captured before it, the key is quiet and the
    // opponent's reply is a forced capture.
    bool sacrifice = true;
    int depth      = 10;                               // the engine's search depth (Level::Max)
    int min_score  = std::numeric_limits<int>::min();  // the engine's score must reach this
};

// Checks the tactic: the FEN parses and every key is legal (a sacrifice as said above); the engine
// (8 MB table, seed 0) plays one of the keys and scores at least min_score.
inline void check_tactic(const Tactic& t) {
    SCOPED_TRACE(std::string(core::rules(t.variant).key) + " " + t.fen + " key " +
                 (t.keys.empty() || t.keys[0] == nullptr ? "?" : t.keys[0]));
    const auto pos = core::parse_fen(t.variant, t.fen);
    ASSERT_TRUE(pos.ok()) << pos.error();

    std::vector<core::Move> keys;
    for (const char* text : t.keys) {
        if (text == nullptr) {
            continue;
        }
        const auto key = core::parse_move(*pos, text);
        ASSERT_TRUE(key.ok()) << text << ": " << key.error();
        if (t.sacrifice) {
            EXPECT_FALSE(key->is_capture()) << text;
            EXPECT_TRUE(core::has_capture(core::make_move(*pos, *key))) << text;  // forced reply
        }
        keys.push_back(*key);
    }
    ASSERT_FALSE(keys.empty());
    if (t.sacrifice) {
        EXPECT_FALSE(core::has_capture(*pos));  // the key is a free choice
    }

    const core::Game game(*pos);
    engine::Engine eng(engine::EngineOptions{.hash_mb = 8, .seed = 0, .egdb_dir = {}});
    engine::SearchLimits limits;
    limits.depth                 = t.depth;
    const engine::SearchResult r = eng.search(game, limits, engine::Level::Max);
    ASSERT_TRUE(r.best.has_value());
    bool found = false;
    for (const core::Move& k : keys) {
        found = found || r.best->same_as(k);
    }
    EXPECT_TRUE(found) << "played " << core::move_text(*pos, *r.best);
    EXPECT_GE(r.score, t.min_score);
}

// Checks every tactic of a board family; a family has at least ten.
inline void check_tactics(const std::vector<Tactic>& family, std::size_t at_least = 10) {
    EXPECT_GE(family.size(), at_least);
    for (const Tactic& t : family) {
        check_tactic(t);
    }
}

}  // namespace papan::test
