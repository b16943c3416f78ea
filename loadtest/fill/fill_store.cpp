// papan_fill_store: fills a store with unfinished games for the memory and start-up figures of
// docs/operations.md ("Memory and start-up"): `--games` stored unfinished games, of which
// `--active` are timed friend games in play (their clocks run, so `papan serve` loads them at
// start-up) and the rest untimed computer and hot-seat games (they stay in the store until
// asked for). Every game has `--plies` random legal moves (seeded), stored as the server stores
// them (the full landing path), so that loading a game replays real moves.
//   papan_fill_store --store sqlite:DATA/papan.db --games 50000 --active 2000 --plies 20
#include <papan/core/game.hpp>
#include <papan/core/notation/move_text.hpp>
#include <papan/core/rules/registry.hpp>
#include <papan/server/store.hpp>

#include <CLI/CLI.hpp>

#include <chrono>
#include <cstdio>
#include <random>
#include <string>

namespace {

using namespace papan;

std::string hex(std::mt19937_64& rng, int digits) {
    static constexpr char kHex[] = "0123456789abcdef";
    std::string s;
    for (int i = 0; i < digits; ++i) {
        s += kHex[rng() % 16];
    }
    return s;
}

server::GameRecord make_game(
    std::mt19937_64& rng, core::VariantId variant, bool active, int plies, std::int64_t now_ms) {
    server::GameRecord rec;
    rec.id         = hex(rng, 16);
    rec.variant    = std::string(core::rules(variant).key);
    rec.start_fen  = std::string(core::rules(variant).start_fen);
    rec.status     = server::GameStatus::Playing;
    rec.created_ms = now_ms;
    rec.updated_ms = now_ms;
    // No clocks stored: fresh ones (the room starts the turn when it loads).
    rec.seats[0] = server::SeatRecord{"g" + hex(rng, 16), "White", false, std::nullopt};
    if (active) {
        rec.mode         = server::GameMode::Friend;
        rec.time_control = server::default_time_control();
        rec.seats[1]     = server::SeatRecord{"g" + hex(rng, 16), "Black", false, std::nullopt};
    } else if (rng() % 2 == 0) {
        rec.mode     = server::GameMode::Computer;
        rec.level    = server::Level::Normal;
        rec.seats[1] = server::SeatRecord{"ai", "Computer (normal)", true, std::nullopt};
    } else {
        rec.mode     = server::GameMode::Hotseat;
        rec.seats[1] = rec.seats[0];
    }
    core::Game game(variant);
    for (int ply = 0; ply < plies && !game.legal_moves().empty(); ++ply) {
        const auto& legal  = game.legal_moves();
        const core::Move m = legal[rng() % legal.size()];
        const auto text    = core::move_text_full(game.position(), m);
        if (!game.play(m) || game.is_over()) {
            break;  // an unfinished game: stop before the last move ends it
        }
        rec.moves.push_back(server::MoveRecord{ply, text, now_ms});
    }
    rec.version = static_cast<std::int64_t>(rec.moves.size()) + 1;
    return rec;
}

}  // namespace

int main(int argc, char** argv) {
    CLI::App app{"papan_fill_store: stored unfinished games for the memory and start-up figures"};
    std::string store_spec;
    int games = 50'000, active = 2'000, plies = 20;
    std::uint64_t seed  = 1;
    std::string variant = "international";
    app.add_option("--store", store_spec, "the store (sqlite:PATH or postgresql://...)")
        ->required();
    app.add_option("--games", games, "unfinished games in all")->capture_default_str();
    app.add_option("--active", active, "of which timed games in play")->capture_default_str();
    app.add_option("--plies", plies, "moves per game")->capture_default_str();
    app.add_option("--variant", variant, "variant key")->capture_default_str();
    app.add_option("--seed", seed, "random seed")->capture_default_str();
    CLI11_PARSE(app, argc, argv);
    const auto v = core::variant_from_key(variant);
    if (!v || active > games || games < 0 || plies < 0) {
        std::fprintf(stderr, "papan_fill_store: bad --variant, --games, --active or --plies\n");
        return 2;
    }
    auto store = server::open_store(store_spec, ".");
    std::mt19937_64 rng(seed);
    const auto now_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                            std::chrono::system_clock::now().time_since_epoch())
                            .count();
    const auto t0 = std::chrono::steady_clock::now();
    for (int done = 0; done < games;) {
        const int batch = std::min(1000, games - done);
        store->transaction([&] {
            for (int i = 0; i < batch; ++i) {
                const auto rec = make_game(rng, *v, done + i < active, plies, now_ms);
                store->insert_game(rec);
                for (const auto& m : rec.moves) {
                    store->append_move(rec, m);
                }
            }
        });
        done += batch;
    }
    const std::chrono::duration<double> dt = std::chrono::steady_clock::now() - t0;
    std::printf("%d games (%d timed in play), %d plies each, in %.1f s\n",
                games,
                active,
                plies,
                dt.count());
    return 0;
}
