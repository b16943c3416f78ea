// Shared helpers of the endgame database tests: small table sets built once into the build tree
// (a test process that finds them there verifies and reuses them), and random positions.
#pragma once

#include <papan/core/position.hpp>
#include <papan/core/rules/registry.hpp>
#include <papan/engine/egdb.hpp>

#include <gtest/gtest.h>

#include <filesystem>
#include <random>
#include <string>

namespace papan::engine::egdb::testing {

// The directory of the test tables (every variant's set up to the pieces asked for so far).
inline std::filesystem::path test_table_dir() {
    return std::filesystem::path(PAPAN_TEST_EGDB_DIR);
}

// Builds (or verifies and reuses) the set of v up to `pieces` in test_table_dir().
inline std::filesystem::path test_tables(core::VariantId v, int pieces) {
    BuildOptions o;
    o.variant    = v;
    o.pieces     = pieces;
    o.dir        = test_table_dir();
    o.threads    = 2;
    const auto r = build(o);
    EXPECT_TRUE(r.error.empty()) << r.error;
    return o.dir;
}

// A random consistent position of v with `pieces` pieces, both sides with at least one, either
// side to move.
inline core::Position random_position(core::VariantId v, int pieces, std::mt19937_64& rng) {
    const core::Geometry& g = core::rules(v).board();
    for (;;) {
        core::Position p;
        p.variant = v;
        p.side    = (rng() & 1U) != 0 ? core::Color::White : core::Color::Black;
        for (int i = 0; i < pieces; ++i) {
            const int s         = static_cast<int>(rng() % static_cast<std::uint64_t>(g.squares));
            const int b         = g.bit_of[static_cast<std::size_t>(s)];
            const std::size_t c = i == 0 ? 0 : (i == 1 ? 1 : rng() & 1U);
            if (core::has(p.occupied(), b)) {
                break;
            }
            p.pieces[c] |= core::bit(b);
            if ((rng() & 1U) != 0) {
                p.kings |= core::bit(b);
            }
        }
        if (core::popcount(p.occupied()) == pieces && p.is_consistent()) {
            return p;
        }
    }
}

}  // namespace papan::engine::egdb::testing
