#include "session.hpp"

#include "game_json.hpp"
#include "json_out.hpp"

#include <papan/core/movegen.hpp>
#include <papan/core/notation/fen.hpp>
#include <papan/core/notation/move_text.hpp>
#include <papan/core/notation/pdn.hpp>
#include <papan/core/rules/registry.hpp>

#include <string>
#include <vector>

namespace papan::wasm {

namespace {

// The browser's default table: small enough for a phone, and what the tests compare with.
constexpr std::size_t kDefaultHashMb = 16;

std::vector<std::string_view> words(std::string_view s) {
    std::vector<std::string_view> out;
    std::size_t i = 0;
    while (i < s.size()) {
        while (i < s.size() && (s[i] == ' ' || s[i] == '\n' || s[i] == '\t' || s[i] == '\r')) {
            ++i;
        }
        const std::size_t start = i;
        while (i < s.size() && s[i] != ' ' && s[i] != '\n' && s[i] != '\t' && s[i] != '\r') {
            ++i;
        }
        if (i > start) {
            out.push_back(s.substr(start, i - start));
        }
    }
    return out;
}

std::optional<core::VariantId> variant_of(std::string_view key, std::string& error) {
    const auto v = core::variant_from_key(key);
    if (!v) {
        error = "unknown variant '" + std::string(key) + "'";
    }
    return v;
}

std::optional<core::DrawRuleSet> draw_rules_of(int n) {
    switch (n) {
    case 0:
        return core::DrawRuleSet::Standard;
    case 1:
        return core::DrawRuleSet::AmericanClub;
    case 2:
        return core::DrawRuleSet::RussianOfficial;
    default:
        return std::nullopt;
    }
}

core::PdnResult pdn_result_of(const core::GameResult& r) {
    switch (r.outcome) {
    case core::Outcome::WhiteWins:
        return core::PdnResult::FirstWins;
    case core::Outcome::BlackWins:
        return core::PdnResult::SecondWins;
    case core::Outcome::Draw:
        return core::PdnResult::Draw;
    case core::Outcome::Ongoing:
        return core::PdnResult::Unknown;
    }
    return core::PdnResult::Unknown;
}

std::string game_json(const core::Game& game) {
    JsonOut out;
    write_game(out, game);
    return out.str();
}

}  // namespace

std::string error_json(std::string_view message) {
    JsonOut out;
    out.begin_object().field("error", message).end_object();
    return out.str();
}

Session::Session()
    : engine_(std::make_unique<engine::Engine>(engine::EngineOptions{
          .hash_mb = kDefaultHashMb, .seed = 0, .weights = nullptr, .egdb_dir = {}})) {}

std::string Session::load(std::string_view variant,
                          std::string_view fen,
                          std::string_view moves,
                          bool forced_capture,
                          int draw_rules) {
    std::string error;
    const auto v = variant_of(variant, error);
    if (!v) {
        return error_json(error);
    }
    const auto rule_set = draw_rules_of(draw_rules);
    if (!rule_set) {
        return error_json("unknown draw rule set " + std::to_string(draw_rules));
    }
    core::GameOptions options;
    options.forced_capture = forced_capture;
    options.draw_rules     = *rule_set;
    if (const auto bad = core::validate_game_options(*v, options)) {
        return error_json(bad->message);
    }
    const std::string_view start_fen = fen.empty() ? core::rules(*v).start_fen : fen;
    const auto pos                   = core::parse_fen(*v, start_fen);
    if (!pos) {
        return error_json(pos.error());
    }
    auto game = core::Game::create(*pos, options);
    if (!game) {
        return error_json(game.error());
    }
    int number = 0;
    for (const std::string_view w : words(moves)) {
        ++number;
        const auto played = game.value().play(w);
        if (!played) {
            return error_json("move " + std::to_string(number) + " '" + std::string(w) +
                              "': " + played.error());
        }
    }
    game_ = std::move(game).value();
    return game_json(*game_);
}

std::string Session::state() const {
    if (!game_) {
        return error_json("no game loaded");
    }
    return game_json(*game_);
}

std::string Session::play(std::string_view move) {
    if (!game_) {
        return error_json("no game loaded");
    }
    const auto played = game_->play(move);
    if (!played) {
        return error_json(played.error());
    }
    return game_json(*game_);
}

std::string Session::undo() {
    if (!game_) {
        return error_json("no game loaded");
    }
    const auto undone = game_->undo();
    if (!undone) {
        return error_json(undone.error());
    }
    return game_json(*game_);
}

std::string Session::check_setup(std::string_view variant, std::string_view fen) {
    std::string error;
    const auto v = variant_of(variant, error);
    if (!v) {
        return error_json(error);
    }
    const auto pos = core::parse_fen(*v, fen);
    if (!pos) {
        return error_json(pos.error());
    }
    const int most = core::rules(*v).men_per_side;
    for (const core::Color c : {core::Color::White, core::Color::Black}) {
        const int n = core::popcount(pos->of(c));
        if (n > most) {
            return error_json(std::string(c == core::Color::White ? "White" : "Black") + " has " +
                              std::to_string(n) + " pieces; a side has at most " +
                              std::to_string(most) + " in " + std::string(core::rules(*v).name));
        }
    }
    const auto game = core::Game::create(*pos);
    if (!game) {
        return error_json(game.error());
    }
    if (game->is_over()) {
        return error_json("the game would be over at once: " + game->result_text());
    }
    JsonOut out;
    out.begin_object().field("fen", core::to_fen(*pos)).end_object();
    return out.str();
}

void Session::reset_engine(std::size_t hash_mb) {
    engine_ = std::make_unique<engine::Engine>(
        engine::EngineOptions{.hash_mb = hash_mb, .seed = 0, .weights = nullptr, .egdb_dir = {}});
}

std::string Session::analyse(const AnalysisRequest& request, const InfoSink& on_info) {
    if (!game_) {
        return error_json("no game loaded");
    }
    if (request.depth <= 0 && request.seconds <= 0 && request.nodes == 0) {
        return error_json("give a depth, a time or a node budget");
    }
    return wasm::analyse(*engine_, *game_, request, on_info);
}

std::string Session::read_pdn(std::string_view text, std::string_view default_variant) {
    std::string error;
    const auto v = variant_of(default_variant, error);
    if (!v) {
        return error_json(error);
    }
    // A game without a GameType gets its variant detected (its setup, its moves), as the server's
    // import and `papan pdn check` do; the board's variant is only the last resort.
    core::PdnReadOptions options;
    options.default_variant = *v;
    options.detect_variant  = true;
    const auto games        = core::read_pdn(text, options);
    if (!games) {
        return error_json(games.error());
    }
    if (games->empty()) {
        return error_json("no game in this PDN text");
    }
    JsonOut out;
    out.begin_object().key("games").begin_array();
    for (const core::PdnGame& g : *games) {
        if (!g.setups.empty()) {
            return error_json("a game of this PDN sets up a new position in its middle (/FEN/), "
                              "which the analysis board cannot follow");
        }
        out.begin_object()
            .field("variant", core::rules(g.variant).key)
            .field("start_fen", core::to_fen(g.start))
            .field("result", g.result);
        std::vector<std::string> moves;
        core::Position pos = g.start;
        for (const core::Move& m : g.moves) {
            moves.push_back(core::move_text_full(pos, m));
            pos = core::make_move(pos, m);
        }
        out.field("moves", moves);
        out.key("tags").begin_array();
        for (const auto& [name, value] : g.tags) {
            out.begin_array().value(name).value(value).end_array();
        }
        out.end_array().end_object();
    }
    out.end_array().end_object();
    return out.str();
}

std::string Session::write_pdn(std::string_view tags) const {
    if (!game_) {
        return error_json("no game loaded");
    }
    core::PdnGame pdn = core::make_pdn_game(game_->variant());
    pdn.start         = game_->start_position();
    pdn.moves.assign(game_->moves().begin(), game_->moves().end());
    pdn.comments.assign(pdn.moves.size() + 1, "");
    std::size_t i = 0;
    while (i < tags.size()) {
        std::size_t end = tags.find('\n', i);
        if (end == std::string_view::npos) {
            end = tags.size();
        }
        const std::string_view line = tags.substr(i, end - i);
        const std::size_t tab       = line.find('\t');
        if (tab != std::string_view::npos && tab > 0) {
            pdn.set_tag(line.substr(0, tab), std::string(line.substr(tab + 1)));
        }
        i = end + 1;
    }
    if (pdn.start != core::start_position(game_->variant())) {
        pdn.set_tag("FEN", core::to_fen(pdn.start));
    }
    pdn.result =
        std::string(core::pdn_result_text(pdn_result_of(game_->result()), game_->variant()));
    pdn.set_tag("Result", pdn.result);
    JsonOut out;
    out.begin_object().field("pdn", core::write_pdn_game(pdn)).end_object();
    return out.str();
}

}  // namespace papan::wasm
