// Perft benchmark: (1) the speed anchors against published reference timings of strong programs, on
// one core with bulk counting at the last ply and no table; (2) every published perft count of
// tests/data/perft at every depth, checked (a table of counts is used past --table-from nodes).
// Exit code 1 on any mismatch.
#include "perft_data.hpp"

#include <papan/core/notation/fen.hpp>
#include <papan/core/perft.hpp>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

using namespace papan;

namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

struct Anchor {
    core::VariantId variant;
    int depth;
    std::uint64_t nodes;
    double reference_s;
    const char* reference;
};

}  // namespace

int main(int argc, char** argv) {
    std::uint64_t max_nodes  = UINT64_MAX;  // skip published counts above this
    std::uint64_t table_from = 2'000'000'000ULL;
    std::size_t table_mb     = 4096;
    bool anchors_only        = false;
    std::string data_dir     = "tests/data";  // --data: the folder holding perft/*.perft
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--max-nodes") == 0 && i + 1 < argc) {
            max_nodes = std::strtoull(argv[++i], nullptr, 10);
        } else if (std::strcmp(argv[i], "--table-from") == 0 && i + 1 < argc) {
            table_from = std::strtoull(argv[++i], nullptr, 10);
        } else if (std::strcmp(argv[i], "--table-mb") == 0 && i + 1 < argc) {
            table_mb = std::strtoull(argv[++i], nullptr, 10);
        } else if (std::strcmp(argv[i], "--data") == 0 && i + 1 < argc) {
            data_dir = argv[++i];
        } else if (std::strcmp(argv[i], "--anchors") == 0) {
            anchors_only = true;
        }
    }

    const Anchor anchors[] = {
        {core::VariantId::American, 11, 85'242'128, 1.7, "strong reference programs, ~1.7 s"},
        {core::VariantId::Russian, 10, 22'444'032, 0.7, "strong reference programs, ~0.7 s"},
        {core::VariantId::International, 10, 258'895'763, 2.6, "published, 2.6 s"},
    };
    std::printf("== Speed anchors (one core, bulk counting at the last ply, no table)\n");
    std::printf("%-14s %5s %14s %9s %12s %10s\n",
                "variant",
                "depth",
                "nodes",
                "seconds",
                "leaves/s",
                "vs ref");
    int failures = 0;
    for (const Anchor& a : anchors) {
        const core::Position pos = core::start_position(a.variant);
        const auto t0            = std::chrono::steady_clock::now();
        const std::uint64_t n    = core::perft(pos, a.depth);
        const double s           = seconds_since(t0);
        std::printf("%-14s %5d %14llu %9.3f %11.1fM %9.2fx  (%s)\n",
                    std::string(core::rules(a.variant).key).c_str(),
                    a.depth,
                    static_cast<unsigned long long>(n),
                    s,
                    static_cast<double>(n) / s / 1e6,
                    a.reference_s / s,
                    a.reference);
        if (n != a.nodes) {
            std::printf("MISMATCH: expected %llu\n", static_cast<unsigned long long>(a.nodes));
            ++failures;
        }
    }
    if (anchors_only) {
        return failures == 0 ? 0 : 1;
    }

    std::printf("\n== Every published count (tests/data/perft)\n");
    std::printf(
        "%-14s %-16s %5s %16s %9s %s\n", "variant", "position", "depth", "nodes", "seconds", "");
    const auto cases = test::load_all_perft(data_dir + "/perft");
    if (cases.empty()) {
        std::fprintf(stderr,
                     "papan_perft_bench: no perft counts in %s/perft (--data DIR)\n",
                     data_dir.c_str());
        return 1;
    }
    for (const auto& c : cases) {
        const auto pos = core::parse_fen(c.variant, c.fen);
        if (!pos) {
            std::printf("bad FEN %s: %s\n", c.fen.c_str(), pos.error().c_str());
            ++failures;
            continue;
        }
        for (const auto& [depth, expected] : c.counts) {
            if (expected > max_nodes) {
                break;
            }
            const bool hashed     = expected >= table_from;
            const auto t0         = std::chrono::steady_clock::now();
            const std::uint64_t n = core::perft_hashed(*pos, depth, c.mode, hashed ? table_mb : 0);
            const double s        = seconds_since(t0);
            const bool ok         = n == expected;
            failures += ok ? 0 : 1;
            std::printf("%-14s %-16s %5d %16llu %9.3f %s%s%s\n",
                        std::string(core::rules(c.variant).key).c_str(),
                        c.id.c_str(),
                        depth,
                        static_cast<unsigned long long>(n),
                        s,
                        ok ? "ok" : "MISMATCH",
                        hashed ? " (table)" : "",
                        c.mode == core::CountMode::Routes ? " (routes)" : "");
            std::fflush(stdout);
        }
    }
    std::printf("\n%s: %d mismatches\n", failures == 0 ? "PASS" : "FAIL", failures);
    return failures == 0 ? 0 : 1;
}
