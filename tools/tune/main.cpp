// papan_tune: the evaluation's training pipeline (docs/engine.md, "Training";
// tools/tune/README.md).
//
//   papan_tune gen    --variant V --games N --nodes N --seed S --threads T --out FILE
//   papan_tune fit    --variant V --data FILE... --epochs E --seed S --threads T --out W.bin
//   papan_tune export --weights W.bin --record W.bin.txt   (-> engine/weights/<variant>.bin, .txt)
//   papan_tune init   --variant V --out W.bin        (the hand-set starting point)
//   papan_tune show   W.bin | VARIANT                (scalar terms, pattern summary)
//
// Long runs: `nice -n 10`, at most two threads on the shared machine.
#include "export.hpp"
#include "fit.hpp"
#include "generate.hpp"
#include "samples.hpp"

#include <papan/core/notation/fen.hpp>
#include <papan/core/rules/registry.hpp>
#include <papan/engine/evaluation.hpp>
#include <papan/engine/weights.hpp>

#include <CLI/CLI.hpp>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

namespace {

using namespace papan;

struct GenArgs {
    std::string variant = "international";
    std::string out;
    std::string weights;
    tune::GenerateOptions o;
};

std::optional<core::VariantId> variant_or_complain(const std::string& key) {
    const auto v = core::variant_from_key(key);
    if (!v) {
        std::cerr << "papan_tune: unknown variant '" << key << "'\n";
    }
    return v;
}

// A weight file, or a variant key for that variant's compiled-in set (so a later round can
// start from the set in the tree without a copy of its file); null after saying why not.
std::shared_ptr<const engine::EvalWeights> weights_path_or_key(const std::string& path) {
    if (const auto key = core::variant_from_key(path)) {
        return {&engine::EvalWeights::builtin(*key), [](const engine::EvalWeights*) {}};
    }
    auto loaded = engine::load_weights(path);
    if (!loaded) {
        std::cerr << "papan_tune: " << loaded.error() << '\n';
        return nullptr;
    }
    return *loaded;
}

// A weight file (or a variant key) as the starting values of `variant`: a set of any variant
// with the same layout (a family's set fine-tuned for one of its variants).
std::optional<std::vector<std::int16_t>> weights_for(core::VariantId variant,
                                                     const std::string& path) {
    const auto w = weights_path_or_key(path);
    if (!w) {
        return std::nullopt;
    }
    if (engine::eval_layout(w->variant()).id != engine::eval_layout(variant).id) {
        std::cerr << "papan_tune: " << path << " is a " << core::rules(w->variant()).key
                  << " set; its layout differs from " << core::rules(variant).key << "'s\n";
        return std::nullopt;
    }
    const auto values = w->values();
    return std::vector<std::int16_t>(values.begin(), values.end());
}

int run_gen(const GenArgs& a) {
    tune::GenerateOptions o = a.o;
    const auto v            = variant_or_complain(a.variant);
    if (!v) {
        return 2;
    }
    o.variant = *v;
    if (!a.weights.empty()) {
        // A set of any variant of the same layout (a family's set playing another member).
        auto values = weights_for(*v, a.weights);
        if (!values) {
            return 1;
        }
        auto w = engine::EvalWeights::from_values(*v, std::move(*values));
        if (!w) {
            std::cerr << "papan_tune: " << w.error() << '\n';
            return 1;
        }
        o.weights = std::make_shared<const engine::EvalWeights>(std::move(w).value());
    }
    const auto start = std::chrono::steady_clock::now();
    const auto since = [&] {
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    };
    tune::GenerateStats stats;
    const auto set =
        tune::generate(o, stats, [&](std::uint32_t done, const tune::GenerateStats& s) {
            if (done % 100 == 0 || done == o.games) {
                std::fprintf(stderr,
                             "gen %s: %u/%u games, %.0f plies/game, %.0f s\n",
                             a.variant.c_str(),
                             done,
                             o.games,
                             static_cast<double>(s.plies) / std::max(1U, s.games),
                             since());
            }
        });
    if (const auto w = tune::write_samples(a.out, set); !w) {
        std::cerr << "papan_tune: " << w.error() << '\n';
        return 1;
    }
    std::printf("gen %s: games %u (first %u), nodes/move %llu, seed %llu: white %u, black %u, "
                "draws %u (capped %u), %.1f plies/game, %zu positions, %.0f s -> %s\n",
                a.variant.c_str(),
                stats.games,
                o.first_game,
                static_cast<unsigned long long>(o.nodes),
                static_cast<unsigned long long>(o.seed),
                stats.white_wins,
                stats.black_wins,
                stats.draws,
                stats.capped,
                static_cast<double>(stats.plies) / std::max(1U, stats.games),
                set.samples.size(),
                since(),
                a.out.c_str());
    return 0;
}

struct FitArgs {
    std::string variant;
    std::vector<std::string> data;
    std::string init;
    std::string out;
    tune::FitOptions o;
};

int run_fit(const FitArgs& a, const std::string& command) {
    const auto v = variant_or_complain(a.variant);
    if (!v) {
        return 2;
    }
    std::vector<tune::SampleSet> sets;
    std::ostringstream record;
    record << "command: " << command << '\n';
    std::size_t total = 0;
    for (const std::string& path : a.data) {
        auto set = tune::read_samples(path);
        if (!set) {
            std::cerr << "papan_tune: " << set.error() << '\n';
            return 1;
        }
        if (engine::eval_layout(set->variant).id != engine::eval_layout(*v).id) {
            std::cerr << "papan_tune: " << path << " holds " << core::rules(set->variant).key
                      << " games, whose layout differs from " << a.variant << "'s\n";
            return 1;
        }
        std::uint32_t games = 0;
        for (const auto& s : set->samples) {
            games = std::max(games, s.game + 1);
        }
        record << "data: " << path << " (" << core::rules(set->variant).key << ", "
               << set->samples.size() << " positions, game indices < " << games << ")\n";
        total += set->samples.size();
        sets.push_back(std::move(set).value());
    }
    std::vector<std::int16_t> init = engine::initial_weights(*v);
    if (!a.init.empty()) {
        auto w = weights_for(*v, a.init);
        if (!w) {
            return 1;
        }
        init = std::move(*w);
    }
    record << "init: "
           << (a.init.empty()                               ? "hand-set values, patterns 0"
               : core::variant_from_key(a.init).has_value() ? "the built-in set of " + a.init
                                                            : a.init)
           << '\n';
    const auto start = std::chrono::steady_clock::now();
    std::fprintf(stderr, "fit %s: %zu positions\n", a.variant.c_str(), total);
    const auto result = tune::fit(*v, sets, init, a.o, [&](const tune::EpochReport& r) {
        const double s =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        std::printf("epoch %3d  train %.6f  validation %.6f  k %.6f  rate %.3g  (%.0f s)\n",
                    r.epoch,
                    r.train_loss,
                    r.validation_loss,
                    r.k,
                    r.rate,
                    s);
        std::fflush(stdout);
    });
    auto weights      = engine::EvalWeights::from_values(*v, result.weights);
    if (!weights) {
        std::cerr << "papan_tune: " << weights.error() << '\n';
        return 1;
    }
    if (const auto saved = engine::save_weights(a.out, *weights); !saved) {
        std::cerr << "papan_tune: " << saved.error() << '\n';
        return 1;
    }
    const auto& last = result.epochs.back();
    record << "positions: " << result.train_positions << " training, "
           << result.validation_positions << " validation (held out by game); "
           << result.duplicate_games << " repeated games left out\n"
           << "seed " << a.o.seed << ", threads " << a.o.threads << ", epochs " << a.o.epochs
           << ", rate " << a.o.learning_rate << ", momentum " << a.o.momentum << ", prior "
           << a.o.prior << '\n'
           << "loss: epoch 0 train " << result.epochs.front().train_loss << " validation "
           << result.epochs.front().validation_loss << "; final train " << last.train_loss
           << " validation " << last.validation_loss << "; k " << result.k
           << " per hundredth after scaling the weights by " << result.unit_factor
           << " (man = 100)\n";
    std::ofstream(a.out + ".txt") << record.str();
    std::printf("%s", record.str().c_str());
    return 0;
}

int run_export(const std::string& weights_path,
               const std::string& dir,
               const std::string& rec,
               const std::string& as_variant,
               const std::string& command) {
    auto w = weights_path_or_key(weights_path);
    if (!w) {
        return 1;
    }
    if (!as_variant.empty()) {
        // A family's set as another member's default (the same layout, e.g. Russian's for
        // Brazilian).
        const auto v = variant_or_complain(as_variant);
        if (!v) {
            return 2;
        }
        auto values = weights_for(*v, weights_path);
        if (!values) {
            return 1;
        }
        auto relabelled = engine::EvalWeights::from_values(*v, std::move(*values));
        if (!relabelled) {
            std::cerr << "papan_tune: " << relabelled.error() << '\n';
            return 1;
        }
        w = std::make_shared<const engine::EvalWeights>(std::move(relabelled).value());
    }
    std::string record;
    if (!rec.empty()) {
        std::ifstream in(rec);
        if (!in) {
            std::cerr << "papan_tune: cannot read " << rec << '\n';
            return 1;
        }
        std::ostringstream text;
        text << in.rdbuf();
        record = text.str();
    }
    if (const auto e = tune::export_weights(*w, dir, record, command); !e) {
        std::cerr << "papan_tune: " << e.error() << '\n';
        return 1;
    }
    return 0;
}

int run_init(const std::string& variant, const std::string& out) {
    const auto v = variant_or_complain(variant);
    if (!v) {
        return 2;
    }
    auto w = engine::EvalWeights::from_values(*v, engine::initial_weights(*v));
    if (const auto saved = engine::save_weights(out, *w); !saved) {
        std::cerr << "papan_tune: " << saved.error() << '\n';
        return 1;
    }
    return 0;
}

// The scalar terms and a summary of the pattern tables, in hundredths of a man.
int run_show(const std::string& path) {
    const auto w = weights_path_or_key(path);
    if (!w) {
        return 1;
    }
    const auto info   = engine::eval_layout(w->variant());
    const auto values = w->values();
    const double unit = info.fine_units;
    std::printf("%s weights (layout %08x), middle game / endgame:\n",
                std::string(core::rules(w->variant()).key).c_str(),
                info.id);
    for (std::size_t t = 0; t < info.terms; ++t) {
        std::printf("  %-20s %8.2f %8.2f\n",
                    std::string(info.term_names[t]).c_str(),
                    values[2 * t] / unit,
                    values[2 * t + 1] / unit);
    }
    for (std::size_t kind = 0; kind < 2; ++kind) {
        std::printf("  %s by square (middle game):", kind == 0 ? "men" : "kings");
        for (std::size_t sq = 0; sq < info.squares; ++sq) {
            std::printf("%s%6.1f",
                        sq % 8 == 0 ? "\n   " : "",
                        values[2 * (info.terms + kind * info.squares + sq)] / unit);
        }
        std::printf("\n");
    }
    for (std::size_t r = 0; r < info.regions; ++r) {
        std::size_t nonzero = 0;
        double max_abs      = 0;
        double sum_abs      = 0;
        for (std::size_t i = 0; i < 2 * info.region_entries; ++i) {
            const double x = values[2 * info.first_region + 2 * r * info.region_entries + i] / unit;
            nonzero += x != 0 ? 1 : 0;
            max_abs = std::max(max_abs, std::abs(x));
            sum_abs += std::abs(x);
        }
        std::printf("  region %2zu: %5zu non-zero, max |w| %.1f, mean |w| (non-zero) %.2f\n",
                    r,
                    nonzero,
                    max_abs,
                    nonzero ? sum_abs / static_cast<double>(nonzero) : 0.0);
    }
    return 0;
}

// The static evaluation of a position term by term (White's view), for checking a weight set.
int run_eval(const std::string& variant, const std::string& fen, const std::string& path) {
    const auto v = variant_or_complain(variant);
    if (!v) {
        return 2;
    }
    const auto pos = core::parse_fen(*v, fen);
    if (!pos) {
        std::cerr << "papan_tune: " << pos.error() << '\n';
        return 1;
    }
    std::shared_ptr<const engine::EvalWeights> w;
    if (!path.empty()) {
        auto loaded = engine::load_weights(path);
        if (!loaded) {
            std::cerr << "papan_tune: " << loaded.error() << '\n';
            return 1;
        }
        w = *loaded;
    }
    const auto values = (w ? *w : engine::EvalWeights::builtin(*v)).values();
    const auto info   = engine::eval_layout(*v);
    engine::EvalFeatures f;
    engine::eval_features(*pos, f);
    const double a    = static_cast<double>(f.phase) / f.phase_total;
    const double unit = info.fine_units;
    double terms = 0, squares = 0, patterns = 0;
    for (std::size_t i = 0; i < f.count; ++i) {
        const auto& e = f.entries[i];
        const double x =
            e.coef * (values[2 * e.pair] * a + values[2 * e.pair + 1] * (1 - a)) / unit;
        if (e.pair < info.terms) {
            terms += x;
            std::printf("  %-20s %4d x -> %8.2f\n",
                        std::string(info.term_names[e.pair]).c_str(),
                        e.coef,
                        x);
        } else if (e.pair < info.first_region) {
            squares += x;
        } else {
            patterns += x;
        }
    }
    std::printf("  terms %.2f, piece squares %.2f, patterns %.2f; phase %d/%d; scale %d/%d "
                "(White ahead / Black ahead, of 16)\n",
                terms,
                squares,
                patterns,
                f.phase,
                f.phase_total,
                f.scale_white,
                f.scale_black);
    std::printf("static_eval (side to move): %d\n", engine::static_eval(*pos, w.get()));
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    CLI::App app{"papan_tune: self-play games, logistic fit and export of evaluation weights"};
    app.require_subcommand(1);

    GenArgs gen;
    auto* g = app.add_subcommand("gen", "Self-play games -> sample file of quiet positions");
    g->add_option("--variant,-v", gen.variant, "Variant key")->required();
    g->add_option("--out,-o", gen.out, "Sample file to write")->required();
    g->add_option("--games", gen.o.games, "Number of games");
    g->add_option("--first-game", gen.o.first_game, "Index of the first game (to extend a set)");
    g->add_option("--nodes", gen.o.nodes, "Node budget per move");
    g->add_option("--seed", gen.o.seed, "Seed of the openings");
    g->add_option("--threads", gen.o.threads, "Threads")->check(CLI::Range(1, 64));
    g->add_option("--opening-min", gen.o.opening_min_plies, "Fewest random opening plies");
    g->add_option("--opening-max", gen.o.opening_max_plies, "Most random opening plies");
    g->add_option("--max-plies", gen.o.max_plies, "Plies after which a game is a draw");
    g->add_option("--hash", gen.o.hash_mb, "Table size per engine in MB");

    g->add_option("--weights", gen.weights, "Weight file the engine plays with (default built-in)");

    FitArgs fa;
    auto* f = app.add_subcommand("fit", "Logistic fit of the weights on sample files");
    f->add_option("--variant,-v", fa.variant, "Variant whose weight set is fitted")->required();
    f->add_option("--data", fa.data, "Sample files (variants of the same layout)")->required();
    f->add_option("--init",
                  fa.init,
                  "Starting weight file, or a variant key for its built-in set (default: the "
                  "hand-set values)");
    f->add_option("--out,-o", fa.out, "Weight file to write (and FILE.txt, the record)")
        ->required();
    f->add_option("--epochs", fa.o.epochs, "Passes over the training set");
    f->add_option("--seed", fa.o.seed, "Seed of the split and the shuffles");
    f->add_option("--threads", fa.o.threads, "Threads")->check(CLI::Range(1, tune::kLanes));
    f->add_option("--rate", fa.o.learning_rate, "Share of the diagonal Newton step");
    f->add_option("--momentum", fa.o.momentum, "Momentum of the steps");
    f->add_option("--prior", fa.o.prior, "Ridge prior of a pattern entry, in positions");
    f->add_option("--validation", fa.o.validation_fraction, "Share of games held out");

    std::string ex_weights, ex_dir = "engine/weights", ex_record, ex_variant;
    auto* ex = app.add_subcommand("export",
                                  "Weight file -> the compiled-in default (DIR/<variant>.bin and "
                                  "its record DIR/<variant>.txt)");
    ex->add_option("--weights", ex_weights, "Weight file, or a variant key for its built-in set")
        ->required();
    ex->add_option("--dir", ex_dir, "Folder of the compiled-in sets (default engine/weights)");
    ex->add_option("--record", ex_record, "The fit's record (W.bin.txt), copied beside");
    ex->add_option("--variant,-v",
                   ex_variant,
                   "Export as this variant's default (a set of the same layout; default: the "
                   "file's own variant)");

    std::string in_variant, in_out;
    auto* in = app.add_subcommand("init", "Write the hand-set starting weights of a variant");
    in->add_option("--variant,-v", in_variant, "Variant key")->required();
    in->add_option("--out,-o", in_out, "Weight file to write")->required();

    std::string show_path;
    auto* sh = app.add_subcommand("show",
                                  "Print a weight file's scalar terms (or a variant's "
                                  "built-in set)");
    sh->add_option("weights", show_path, "Weight file or variant key")->required();

    std::string ev_variant, ev_fen, ev_weights;
    auto* ev = app.add_subcommand("eval", "Print a position's static evaluation term by term");
    ev->add_option("--variant,-v", ev_variant, "Variant key")->required();
    ev->add_option("--fen", ev_fen, "Position")->required();
    ev->add_option("--weights", ev_weights, "Weight file (default: the built-in set)");

    std::string command;
    for (int i = 0; i < argc; ++i) {
        command += (i ? " " : "") + std::string(argv[i]);
    }
    int code = 0;
    g->callback([&] { code = run_gen(gen); });
    f->callback([&] { code = run_fit(fa, command); });
    ex->callback([&] { code = run_export(ex_weights, ex_dir, ex_record, ex_variant, command); });
    in->callback([&] { code = run_init(in_variant, in_out); });
    sh->callback([&] { code = run_show(show_path); });
    ev->callback([&] { code = run_eval(ev_variant, ev_fen, ev_weights); });
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        return app.exit(e);
    }
    return code;
}
