// Opening suites: loading and generation (see openings.hpp).
#include "openings.hpp"

#include <papan/core/game.hpp>
#include <papan/core/notation/move_text.hpp>
#include <papan/engine/engine.hpp>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <unordered_set>

namespace papan::selfplay {

namespace {

std::string trim(const std::string& s) {
    const auto b = s.find_first_not_of(" \t\r");
    if (b == std::string::npos) {
        return "";
    }
    const auto e = s.find_last_not_of(" \t\r");
    return s.substr(b, e - b + 1);
}

std::uint64_t next_random(std::uint64_t& x) noexcept {
    x += 0x9e3779b97f4a7c15ULL;
    std::uint64_t z = x;
    z               = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z               = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

struct Line {
    std::vector<core::Move> moves;
    std::string text;
};

void enumerate(const core::Game& g,
               int plies_left,
               Line& line,
               std::unordered_set<std::uint64_t>& seen,
               std::vector<Line>& out) {
    if (g.is_over()) {
        return;
    }
    if (plies_left == 0) {
        if (seen.insert(g.position().key()).second) {
            out.push_back(line);
        }
        return;
    }
    for (const core::Move& m : g.legal_moves()) {
        const std::string text = core::move_text(g.position(), m, g.legal_moves());
        core::Game next        = g;
        (void)next.play(m);
        const std::size_t len = line.text.size();
        line.moves.push_back(m);
        if (!line.text.empty()) {
            line.text += ' ';
        }
        line.text += text;
        enumerate(next, plies_left - 1, line, seen, out);
        line.moves.pop_back();
        line.text.resize(len);
    }
}

}  // namespace

core::Expected<std::vector<Opening>> load_openings(core::VariantId variant,
                                                   const std::string& path) {
    std::ifstream in(path);
    if (!in) {
        return core::Error{"cannot read " + path};
    }
    std::vector<Opening> out;
    std::string raw;
    int line_no = 0;
    while (std::getline(in, raw)) {
        ++line_no;
        const auto hash        = raw.find('#');
        const std::string text = trim(hash == std::string::npos ? raw : raw.substr(0, hash));
        if (text.empty()) {
            continue;
        }
        const std::string where = path + ":" + std::to_string(line_no) + ": ";
        core::Game g(variant);
        Opening o;
        o.text = text;
        std::istringstream words(text);
        std::string word;
        while (words >> word) {
            if (g.is_over()) {
                return core::Error{where + "the game is over before " + word};
            }
            const auto m = core::parse_move(g.position(), word, g.movegen_options());
            if (!m) {
                return core::Error{where + word + ": " + m.error()};
            }
            (void)g.play(*m);
            o.moves.push_back(*m);
        }
        if (g.is_over()) {
            return core::Error{where + "the game is over after the opening"};
        }
        out.push_back(std::move(o));
    }
    if (out.empty()) {
        return core::Error{path + ": no openings"};
    }
    return out;
}

GeneratedSuite generate_openings(core::VariantId variant, const GenerateOptions& o) {
    GeneratedSuite suite;
    std::vector<Line> lines;
    std::unordered_set<std::uint64_t> seen;
    Line line;
    enumerate(core::Game(variant), o.plies, line, seen, lines);
    suite.candidates = lines.size();

    std::uint64_t x = o.seed;
    for (std::size_t i = lines.size(); i > 1; --i) {
        std::swap(lines[i - 1], lines[next_random(x) % i]);
    }
    for (const Line& l : lines) {
        if (suite.openings.size() >= o.count || suite.searched >= o.sample) {
            break;
        }
        core::Game g(variant);
        for (const core::Move& m : l.moves) {
            (void)g.play(m);
        }
        engine::Engine eng(engine::EngineOptions{.hash_mb = 16, .seed = 0});
        engine::SearchLimits limits;
        limits.depth = o.depth;
        const auto r = eng.search(g, limits, engine::Level::Max);
        ++suite.searched;
        if (std::abs(r.score) <= o.max_score) {
            suite.openings.push_back({l.text, l.moves});
            suite.scores.push_back(r.score);
        }
    }
    return suite;
}

}  // namespace papan::selfplay
