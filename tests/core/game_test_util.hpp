// Helpers shared by the Game tests: build a game from a FEN and play moves by text, failing the
// test with the reason when either is refused.
#pragma once

#include <papan/core/game.hpp>
#include <papan/core/notation/fen.hpp>

#include <gtest/gtest.h>

#include <string_view>
#include <utility>

namespace papan::core::game_test {

inline Game setup(VariantId v, std::string_view fen, GameOptions options = {}) {
    const auto pos = parse_fen(v, fen);
    EXPECT_TRUE(pos.ok()) << fen << ": " << pos.error();
    auto game = Game::create(*pos, options);
    EXPECT_TRUE(game.ok()) << game.error();
    return std::move(game).value();
}

inline void play(Game& g, std::string_view text) {
    const auto r = g.play(text);
    ASSERT_TRUE(r.ok()) << text << ": " << r.error();
}

}  // namespace papan::core::game_test
