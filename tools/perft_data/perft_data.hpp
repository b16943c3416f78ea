// Reader of tests/data/perft/<variant>.perft, shared by the core tests and the perft benchmark:
// blocks of "id", "source", "fen", optional "count routes|distinct" and "perft <depth> <nodes>"
// lines; '#' starts a comment line.
#pragma once

#include <papan/core/movegen.hpp>
#include <papan/core/rules/registry.hpp>

#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace papan::test {

struct PerftCase {
    core::VariantId variant{};
    std::string id;
    std::string source;
    std::string fen;
    core::CountMode mode = core::CountMode::Distinct;
    std::vector<std::pair<int, std::uint64_t>> counts;
};

inline std::vector<PerftCase> load_perft_file(const std::string& path, core::VariantId v) {
    std::ifstream in(path);
    std::vector<PerftCase> cases;
    std::string line;
    while (std::getline(in, line)) {
        if (line.empty() || line[0] == '#') {
            continue;
        }
        std::istringstream ls(line);
        std::string key;
        ls >> key;
        std::string rest;
        std::getline(ls, rest);
        if (!rest.empty() && rest[0] == ' ') {
            rest.erase(0, 1);
        }
        if (key == "id") {
            cases.push_back({});
            cases.back().variant = v;
            cases.back().id      = rest;
        } else if (cases.empty()) {
            continue;
        } else if (key == "source") {
            cases.back().source = rest;
        } else if (key == "fen") {
            cases.back().fen = rest;
        } else if (key == "count") {
            cases.back().mode =
                rest == "routes" ? core::CountMode::Routes : core::CountMode::Distinct;
        } else if (key == "perft") {
            std::istringstream rs(rest);
            int d           = 0;
            std::uint64_t n = 0;
            rs >> d >> n;
            cases.back().counts.emplace_back(d, n);
        }
    }
    return cases;
}

inline std::vector<PerftCase> load_all_perft(const std::string& dir) {
    std::vector<PerftCase> all;
    for (const core::RuleSet& r : core::all_variants()) {
        auto c = load_perft_file(dir + "/" + std::string(r.key) + ".perft", r.id);
        all.insert(all.end(), c.begin(), c.end());
    }
    return all;
}

}  // namespace papan::test
