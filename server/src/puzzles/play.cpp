#include "puzzles/play.hpp"

#include <papan/core/notation/fen.hpp>
#include <papan/core/notation/move_text.hpp>
#include <papan/core/rules/registry.hpp>

#include <cmath>
#include <ctime>

namespace papan::server::puzzles {

AttemptCheck check_attempt(const Puzzle& p, const std::vector<std::string>& moves, bool gave_up) {
    AttemptCheck out;
    const auto line = puzzle_line(p);
    if (!line) {
        out.error = "the puzzle's line does not replay";
        return out;
    }
    auto at = core::parse_fen(p.variant, p.fen);
    if (!at) {
        out.error = "the puzzle's position does not read";
        return out;
    }
    const std::size_t solver_moves = (line->size() + 1) / 2;
    if (moves.size() > solver_moves) {
        out.error = "more moves than the solution has";
        return out;
    }
    core::Position pos = *at;
    for (std::size_t i = 0; i < moves.size(); ++i) {
        const std::size_t step = 2 * i;
        const auto played      = core::parse_move(pos, moves[i]);
        if (!played) {
            out.error = "move " + std::to_string(i + 1) + ": " + played.error();
            return out;
        }
        if (!played->same_as((*line)[step])) {
            if (i + 1 != moves.size()) {
                out.error = "moves after a wrong one";
                return out;
            }
            out.wrong_step = static_cast<int>(step);
            return out;
        }
        pos = core::make_move(pos, (*line)[step]);
        if (step + 1 < line->size()) {
            pos = core::make_move(pos, (*line)[step + 1]);
        }
    }
    out.solved = !gave_up && moves.size() == solver_moves;
    return out;
}

std::string daily_candidate(const std::vector<std::string>& ids,
                            const std::string& variant,
                            const std::string& day) {
    if (ids.empty()) {
        return {};
    }
    std::uint64_t h = 1469598103934665603ULL;
    for (const char c : variant + "|" + day) {
        h ^= static_cast<unsigned char>(c);
        h *= 1099511628211ULL;
    }
    return ids[static_cast<std::size_t>(h % ids.size())];
}

std::string utc_day(std::int64_t ms) {
    const std::time_t t = static_cast<std::time_t>(ms / 1000);
    std::tm tm{};
    gmtime_r(&t, &tm);
    char buf[16];
    std::strftime(buf, sizeof buf, "%Y-%m-%d", &tm);
    return buf;
}

double streak_target(int step) {
    return 800.0 + 60.0 * std::max(0, step);
}

std::vector<double> rating_windows() {
    return {100, 200, 400, 800, 10000};
}

nlohmann::json puzzle_json(const Puzzle& p, const Glicko& rating, int plays, int solved) {
    using Json  = nlohmann::json;
    Json themes = Json::array();
    for (const Theme t : p.themes) {
        themes.push_back(theme_name(t));
    }
    Json wrong = Json::array();
    for (const auto& w : p.wrong) {
        wrong.push_back({{"step", w.step},
                         {"move", w.move},
                         {"reply", w.reply},
                         {"captured", w.captured},
                         {"crowns", w.crowns},
                         {"value", w.value}});
    }
    const auto& f   = p.proof;
    const auto side = core::parse_fen(p.variant, p.fen);
    return Json{{"id", p.id},
                {"variant", core::rules(p.variant).key},
                {"fen", p.fen},
                {"color", side && side->side == core::Color::Black ? "black" : "white"},
                {"solution", p.solution},
                {"themes", themes},
                {"rating", static_cast<int>(std::lround(rating.rating))},
                {"deviation", static_cast<int>(std::lround(rating.deviation))},
                {"plays", plays},
                {"solved", solved},
                {"source", p.source},
                {"proof",
                 {{"depth", f.depth},
                  {"score", f.score},
                  {"second", f.second},
                  {"horizon", f.horizon},
                  {"baseline", f.baseline},
                  {"proven", f.proven},
                  {"alternative", f.alternative}}},
                {"wrong", wrong}};
}

}  // namespace papan::server::puzzles
