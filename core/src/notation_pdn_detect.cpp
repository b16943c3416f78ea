// Which variant a PDN game is (pdn_syntax.hpp, docs/pdn.md "Variant detection"): its GameType
// tag; else the default when detection is off; else the FEN setup (the variants that read it,
// on the smallest board that holds its squares), then the moves (the variants under which every
// move is legal), then the file (the variant most of the file's other games were found to be),
// then the notation (numeric or algebraic squares). Two variants that still fit equally are
// refused with a message naming them.
#include "pdn_syntax.hpp"

#include <papan/core/notation/fen.hpp>
#include <papan/core/rules/registry.hpp>

#include <algorithm>
#include <array>
#include <cctype>
#include <map>

namespace papan::core::pdn {

namespace {

std::string variant_list(const std::vector<Replay>& fits) {
    std::string s;
    for (std::size_t i = 0; i < fits.size(); ++i) {
        if (i > 0) {
            s += i + 1 == fits.size() ? " and " : ", ";
        }
        s += rules(fits[i].game.variant).name;
    }
    return s;
}

// The FEN of a game's start: its FEN tag, else a setup before its first move (nullptr if none).
const std::string* start_fen(const RawGame& raw) {
    if (const Tag* fen = raw.find_tag("FEN")) {
        return &fen->value;
    }
    for (const Token& t : raw.tokens) {
        if (t.kind == TokenKind::Move) {
            break;
        }
        if (t.kind == TokenKind::Setup) {
            return &t.text;
        }
    }
    return nullptr;
}

// The FEN text of a setup body (`FEN "..."`) or of a tag value.
std::string_view fen_text(std::string_view body) {
    body                 = trim(body);
    const std::size_t q1 = body.find('"');
    const std::size_t q2 = q1 == std::string_view::npos ? q1 : body.find('"', q1 + 1);
    if (q2 != std::string_view::npos) {
        return body.substr(q1 + 1, q2 - q1 - 1);
    }
    if (body.size() >= 3 && iequals(body.substr(0, 3), "FEN")) {
        return trim(body.substr(3));
    }
    return body;
}

// The candidate variants, grouped by board size (smallest first). Without a FEN: every variant
// in one group (the start positions differ; the moves decide).
std::vector<std::vector<VariantId>> candidate_groups(const RawGame& raw,
                                                     const PdnReadOptions& options) {
    std::vector<std::vector<VariantId>> groups;
    const std::string* fen = start_fen(raw);
    if (fen == nullptr) {
        groups.emplace_back();
        for (const RuleSet& r : all_variants()) {
            groups.back().push_back(r.id);
        }
        return groups;
    }
    std::map<int, std::vector<VariantId>> by_size;
    const FenReadOptions fen_options{options.lenient_setup};
    for (const RuleSet& r : all_variants()) {
        if (parse_fen(r.id, fen_text(*fen), fen_options)) {
            by_size[r.board().squares].push_back(r.id);
        }
    }
    for (auto& [size, ids] : by_size) {
        groups.push_back(std::move(ids));
    }
    return groups;
}

// The notation of the move text: its squares (algebraic when a move names a square by letter)
// and its capture separator (':' or 'x', when a move uses one).
struct TextNotation {
    std::optional<NotationStyle> squares;
    std::optional<char> capture_separator;
};

TextNotation text_notation(const RawGame& raw) {
    TextNotation n;
    for (const Token& t : raw.tokens) {
        if (t.kind != TokenKind::Move) {
            continue;
        }
        const bool letters = std::any_of(t.text.begin(), t.text.end(), [](char c) {
            return std::isalpha(static_cast<unsigned char>(c)) != 0 && c != 'x' && c != 'X';
        });
        if (!n.squares || letters) {
            n.squares = letters ? NotationStyle::Algebraic : NotationStyle::Numeric;
        }
        if (!n.capture_separator) {
            if (t.text.find(':') != std::string::npos) {
                n.capture_separator = ':';
            } else if (t.text.find_first_of("xX") != std::string::npos) {
                n.capture_separator = 'x';
            }
        }
    }
    return n;
}

// The tied variants that write the text's notation: first its squares, then its capture
// separator; empty when the notation tells none of them apart.
std::vector<Replay> by_notation(const RawGame& raw, std::vector<Replay>& tied) {
    const TextNotation n     = text_notation(raw);
    std::vector<Replay> same = tied;
    const auto keep          = [&](auto pred) {
        std::vector<Replay> kept;
        for (const Replay& r : same) {
            if (pred(rules(r.game.variant))) {
                kept.push_back(r);
            }
        }
        if (!kept.empty()) {
            same = std::move(kept);
        }
    };
    if (n.squares) {
        keep([&](const RuleSet& r) { return r.notation == *n.squares; });
    }
    if (n.capture_separator && same.size() > 1) {
        keep([&](const RuleSet& r) { return r.capture_separator == *n.capture_separator; });
    }
    return same.size() < tied.size() ? same : std::vector<Replay>{};
}

Decision detect(const RawGame& raw, const PdnReadOptions& options, std::string note) {
    Decision d;
    const auto groups = candidate_groups(raw, options);
    if (groups.empty()) {
        // No variant reads the setup: report it as the default variant sees it.
        d.replay = replay(raw, VariantId::International, options);
        if (d.replay.ok()) {  // cannot happen (International rejects it too); stay safe
            d.basis = PdnVariantBasis::Setup;
        }
        d.replay.error += " (no GameType tag, and no variant reads this setup)";
        return d;
    }
    std::vector<Replay> failed;
    for (const auto& group : groups) {
        std::vector<Replay> fits;
        for (const VariantId v : group) {
            Replay r = replay(raw, v, options);
            (r.ok() ? fits : failed).push_back(std::move(r));
        }
        if (fits.size() == 1) {
            d.replay = std::move(fits.front());
            d.basis  = start_fen(raw) != nullptr && group.size() == 1 ? PdnVariantBasis::Setup
                                                                      : PdnVariantBasis::Moves;
            break;
        }
        if (fits.size() > 1) {
            d.replay = fits.front();
            d.tied   = std::move(fits);
            break;
        }
    }
    if (d.basis == PdnVariantBasis::None && d.tied.empty()) {
        // Nothing fits: report the variant that read furthest (the first such in table order).
        const auto best =
            std::max_element(failed.begin(), failed.end(), [](const Replay& a, const Replay& b) {
                return a.moves_read < b.moves_read;
            });
        d.replay = std::move(*best);
        d.replay.error += "; no variant accepts every move (no GameType tag; " +
                          std::string(rules(d.replay.game.variant).name) + " read furthest)";
        if (d.replay.error_kind == PdnErrorKind::Move) {
            d.replay.error_kind = PdnErrorKind::NoVariant;
        }
    }
    if (!note.empty()) {
        d.notes.push_back(std::move(note));
    }
    return d;
}

}  // namespace

Decision decide(const RawGame& raw, const PdnReadOptions& options) {
    if (const Tag* gt = raw.find_tag("GameType")) {
        if (const auto v = variant_from_game_type(gt->value)) {
            return Decision{replay(raw, *v, options), PdnVariantBasis::GameType, {}, {}};
        }
        std::string shown(1, '"');
        shown.append(utf8_prefix(gt->value, 40));
        shown += '"';
        if (options.detect_variant) {
            return detect(raw,
                          options,
                          "line " + std::to_string(gt->line) + ": unknown GameType " + shown +
                              ": the variant was detected instead");
        }
        Decision d;
        d.replay.game.variant = options.default_variant;
        d.replay.game.line    = raw.line;
        d.replay.game.start   = start_position(options.default_variant);
        d.replay.game.comments.assign(1, "");
        for (const Tag& t : raw.tags) {
            d.replay.game.tags.emplace_back(t.name, t.value);
        }
        d.replay.error      = syntax_message(raw.number, gt->line, "unknown GameType " + shown);
        d.replay.error_kind = PdnErrorKind::GameType;
        d.replay.error_line = gt->line;
        return d;
    }
    if (!options.detect_variant) {
        return Decision{
            replay(raw, options.default_variant, options), PdnVariantBasis::Default, {}, {}};
    }
    return detect(raw, options, "");
}

void settle_ties(const std::vector<RawGame>& raws, std::vector<Decision>& decisions) {
    // The variant most of the file's games were found to be (by their own evidence).
    std::array<int, kVariantCount> votes{};
    for (const Decision& d : decisions) {
        if (d.tied.empty() && d.replay.ok() && d.basis != PdnVariantBasis::None) {
            ++votes[static_cast<std::size_t>(d.replay.game.variant)];
        }
    }
    const auto top          = std::max_element(votes.begin(), votes.end());
    const bool unique_top   = *top > 0 && std::count(votes.begin(), votes.end(), *top) == 1;
    const auto file_variant = static_cast<VariantId>(top - votes.begin());

    for (std::size_t i = 0; i < decisions.size(); ++i) {
        Decision& d = decisions[i];
        if (d.tied.empty()) {
            continue;
        }
        std::vector<Replay> tied = std::move(d.tied);
        d.tied.clear();
        const auto pick = [&](VariantId v) {
            return std::find_if(
                tied.begin(), tied.end(), [&](const Replay& r) { return r.game.variant == v; });
        };
        if (unique_top && pick(file_variant) != tied.end()) {
            d.replay = std::move(*pick(file_variant));
            d.basis  = PdnVariantBasis::File;
            continue;
        }
        if (std::vector<Replay> same = by_notation(raws[i], tied); !same.empty()) {
            if (same.size() == 1) {
                d.replay = std::move(same.front());
                d.basis  = PdnVariantBasis::Notation;
                continue;
            }
            tied = std::move(same);
        }
        d.replay       = tied.front();
        d.basis        = PdnVariantBasis::None;
        d.replay.error = "game " + std::to_string(raws[i].number) +
                         ": no GameType tag, and the moves fit " + variant_list(tied) +
                         " equally: name the variant";
        d.replay.error_kind = PdnErrorKind::VariantTie;
        d.replay.error_line = raws[i].line;
        d.tied              = std::move(tied);
    }
}

}  // namespace papan::core::pdn
