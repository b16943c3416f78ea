// Session: what one analysis worker holds: a core::Game (the position with its history, so
// repetitions and the draw-rule counters count as in a real game), the engine, and the PDN
// reading and writing of the analysis board. Every method answers with one JSON text: the result,
// or {"error": "..."} naming what is wrong, in which case nothing changed.
#pragma once

#include "analysis.hpp"

#include <papan/core/game.hpp>
#include <papan/engine/engine.hpp>

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace papan::wasm {

class Session {
public:
    Session();

    // A game of `variant` from `fen` ("" = the start position) with `moves` played: move texts
    // or landing paths ("32-28", "28x19", "22-13-24", "c3-d4"), separated by spaces.
    // draw_rules: 0 standard, 1 American club, 2 Russian federation (the server's numbers).
    std::string load(std::string_view variant,
                     std::string_view fen,
                     std::string_view moves,
                     bool forced_capture,
                     int draw_rules);
    [[nodiscard]] std::string state() const;
    std::string play(std::string_view move);
    std::string undo();

    // A set-up position for the position editor: {"fen"} when a game can start from it, else
    // {"error"} saying why (a bad square, a man on its crowning row, more pieces than a side
    // has, no move for the side to move).
    [[nodiscard]] static std::string check_setup(std::string_view variant, std::string_view fen);

    // A fresh engine with this transposition table (as a new `papan analyse --hash MB`).
    void reset_engine(std::size_t hash_mb);
    std::string analyse(const AnalysisRequest& request, const InfoSink& on_info);

    // Every game of a PDN text: {"games": [{"variant","start_fen","moves","result","tags"}]}.
    [[nodiscard]] static std::string read_pdn(std::string_view text,
                                              std::string_view default_variant);
    // The loaded game as PDN with these tags ("Name\tValue" lines) and the game's result.
    [[nodiscard]] std::string write_pdn(std::string_view tags) const;

private:
    std::optional<core::Game> game_;
    std::unique_ptr<engine::Engine> engine_;
};

[[nodiscard]] std::string error_json(std::string_view message);

}  // namespace papan::wasm
