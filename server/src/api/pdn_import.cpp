#include "api/pdn_import.hpp"

#include "support/text.hpp"

#include <papan/core/game.hpp>
#include <papan/core/notation/encoding.hpp>
#include <papan/core/notation/fen.hpp>
#include <papan/core/notation/move_text.hpp>
#include <papan/core/notation/pdn.hpp>
#include <papan/core/rules/registry.hpp>

namespace papan::server {

namespace {

constexpr std::size_t kMaxReasonBytes = 300;

std::string short_reason(std::string_view text) {
    const auto cut = core::utf8_prefix(text, kMaxReasonBytes);
    return cut.size() < text.size() ? std::string(cut) + "..." : std::string(cut);
}

// The reader's error without its leading "game N, " (the answer names the game apart).
std::string reader_reason(std::string_view error) {
    constexpr std::string_view kGame = "game ";
    if (error.substr(0, kGame.size()) == kGame) {
        std::size_t i = kGame.size();
        while (i < error.size() && error[i] >= '0' && error[i] <= '9') {
            ++i;
        }
        if (i > kGame.size() && error.substr(i, 2) == ", ") {
            error.remove_prefix(i + 2);
        }
    }
    return short_reason(error);
}

std::string player_name(const core::PdnGame& g, std::string_view tag) {
    const std::string* v = g.tag(tag);
    if (v == nullptr || v->empty() || *v == "?") {
        return "?";
    }
    const std::string name = clean_nickname(*v, kMaxImportedName);
    return name.empty() ? "?" : name;
}

// The outcome key and English head of a PDN result ("" and "Result unknown" for *, 0-0).
std::pair<core::Outcome, std::string> outcome_of(std::string_view result) {
    switch (core::parse_pdn_result(result).value_or(core::PdnResult::Unknown)) {
    case core::PdnResult::FirstWins:
        return {core::Outcome::WhiteWins, "White wins"};
    case core::PdnResult::SecondWins:
        return {core::Outcome::BlackWins, "Black wins"};
    case core::PdnResult::Draw:
        return {core::Outcome::Draw, "Draw"};
    case core::PdnResult::BothLose:
    case core::PdnResult::Unknown:
        break;
    }
    return {core::Outcome::Ongoing, "Result unknown"};
}

// The move number of ply `ply` counted from the game's first move (as the reader counts).
int move_number(std::size_t ply) {
    return static_cast<int>(ply / 2) + 1;
}

struct Built {
    std::optional<GameRecord> record;
    RejectedGame rejected;
};

// The record of a game the reader accepted, or why it cannot be stored; `result` is the game's
// result as the file gives it (Result tag and move-text terminator resolved).
Built build_record(const core::PdnEntry& e, const std::string& result) {
    const core::PdnGame& pdn = e.game;
    Built out;
    out.rejected.number = e.number;
    out.rejected.line   = pdn.line;
    if (!pdn.setups.empty()) {
        out.rejected.kind = "setup_in_game";
        out.rejected.move = move_number(pdn.setups.front().ply);
        out.rejected.reason =
            "the game sets up a new position in its middle (a /FEN/ setup), which "
            "a stored game cannot hold";
        return out;
    }
    auto created = core::Game::create(pdn.start, core::GameOptions{});
    if (!created) {
        out.rejected.kind   = "setup";
        out.rejected.reason = short_reason(created.error());
        return out;
    }
    core::Game game = std::move(created).value();
    GameRecord rec;
    for (std::size_t i = 0; i < pdn.moves.size(); ++i) {
        if (game.is_over()) {
            out.rejected.kind   = "replay";
            out.rejected.move   = move_number(i);
            out.rejected.reason = "the rules end the game before this move (" +
                                  short_reason(game.result_text()) + "), but the file goes on";
            return out;
        }
        const auto before      = game.position();
        const std::string text = core::move_text_full(before, pdn.moves[i]);
        if (!game.play(pdn.moves[i])) {
            out.rejected.kind   = "replay";
            out.rejected.move   = move_number(i);
            out.rejected.reason = "move '" + short_reason(text) + "' does not replay";
            return out;
        }
        rec.moves.push_back(MoveRecord{static_cast<int>(i), text, 0});
    }
    rec.variant        = std::string(core::rules(pdn.variant).key);
    rec.mode           = GameMode::Imported;
    rec.forced_capture = true;
    rec.draw_rules     = core::DrawRuleSet::Standard;
    // The variant's own start text when the game starts there (as games played here store it).
    const std::string_view standard = core::rules(pdn.variant).start_fen;
    const auto standard_start       = core::parse_fen(pdn.variant, standard);
    rec.start_fen                   = core::to_fen(pdn.start);
    if (standard_start && core::to_fen(*standard_start) == rec.start_fen) {
        rec.start_fen = std::string(standard);
    }
    for (int c = 0; c < 2; ++c) {
        rec.seats[static_cast<std::size_t>(c)] =
            SeatRecord{std::string(kImportedPlayerId),
                       player_name(pdn, c == 0 ? "White" : "Black"),
                       false,
                       std::nullopt};
    }
    rec.status = GameStatus::Over;
    rec.rated  = false;
    if (game.is_over()) {
        // The rules ended the game with its last move: their result is the game's.
        rec.outcome     = game.result().outcome;
        rec.reason      = static_cast<EndReason>(game.result().reason);
        rec.result_text = game.result_text();
    } else {
        auto [outcome, head] = outcome_of(result);
        rec.outcome          = outcome;
        rec.reason           = EndReason::Imported;
        rec.result_text      = head + " (imported: " + result + ")";
    }
    out.record = std::move(rec);
    return out;
}

}  // namespace

ImportReport import_pdn(std::string_view bytes,
                        std::int64_t now_ms,
                        const std::function<std::string()>& new_id) {
    core::PdnReadOptions options;
    options.detect_variant      = true;
    const core::PdnDocument doc = core::read_pdn_document(bytes, options);
    ImportReport report;
    report.encoding = std::string(core::encoding_key(doc.encoding));
    report.games    = static_cast<int>(doc.entries.size());
    for (const core::PdnEntry& e : doc.entries) {
        if (!e.ok()) {
            report.rejected.push_back(
                RejectedGame{e.number,
                             e.error_move,
                             e.error_line,
                             std::string(core::pdn_error_kind_key(e.error_kind)),
                             reader_reason(e.error)});
            continue;
        }
        if (static_cast<int>(report.good.size()) >= kMaxImportGames) {
            report.rejected.push_back(RejectedGame{
                e.number,
                0,
                e.game.line,
                "too_many_games",
                "over the limit of " + std::to_string(kMaxImportGames) + " games per import"});
            continue;
        }
        const std::string result = core::resolve_pdn_result(e.game.tag("Result"), e.game.result);
        Built b                  = build_record(e, result);
        if (!b.record) {
            report.rejected.push_back(std::move(b.rejected));
            continue;
        }
        GameRecord& rec = *b.record;
        rec.id          = new_id();
        rec.created_ms  = now_ms;
        rec.updated_ms  = now_ms;
        for (auto& m : rec.moves) {
            m.at_ms = now_ms;
        }
        report.good.push_back(ImportedGame{
            e.number, std::move(rec), core::convert_pdn_result(result, e.game.variant)});
    }
    return report;
}

}  // namespace papan::server
