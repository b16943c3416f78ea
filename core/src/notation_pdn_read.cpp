// Reading PDN (notation/pdn.hpp): lex the text into games, settle each game's variant, replay
// it, and report the first error of each game (a syntax error or a move error, whichever comes
// first in the file).
#include "pdn_syntax.hpp"

namespace papan::core {

std::vector<PdnEntry> read_pdn_entries(std::string_view text, const PdnReadOptions& options) {
    const std::vector<pdn::RawGame> raws = pdn::lex(text);
    std::vector<pdn::Decision> decisions;
    decisions.reserve(raws.size());
    for (const pdn::RawGame& raw : raws) {
        decisions.push_back(pdn::decide(raw, options));
    }
    if (options.detect_variant) {
        pdn::settle_ties(raws, decisions);
    }
    std::vector<PdnEntry> entries;
    entries.reserve(raws.size());
    for (std::size_t i = 0; i < raws.size(); ++i) {
        const pdn::RawGame& raw = raws[i];
        pdn::Decision& d        = decisions[i];
        PdnEntry e;
        e.number        = raw.number;
        e.game          = std::move(d.replay.game);
        e.variant_basis = d.basis;
        for (const pdn::Replay& r : d.tied) {
            e.tied_variants.push_back(r.game.variant);
        }
        e.notes = raw.notes;
        e.notes.insert(e.notes.end(), d.notes.begin(), d.notes.end());
        e.notes.insert(e.notes.end(), d.replay.notes.begin(), d.replay.notes.end());
        const bool syntax_first =
            raw.error && (d.replay.ok() || raw.error->line <= d.replay.error_line);
        if (syntax_first) {
            e.error      = pdn::syntax_message(raw.number, raw.error->line, raw.error->message);
            e.error_kind = PdnErrorKind::Syntax;
            e.error_line = raw.error->line;
        } else if (!d.replay.ok()) {
            e.error      = std::move(d.replay.error);
            e.error_kind = d.replay.error_kind;
            e.error_line = d.replay.error_line;
            e.error_move = d.replay.error_move;
        }
        entries.push_back(std::move(e));
    }
    return entries;
}

Expected<std::vector<PdnGame>> read_pdn(std::string_view text, const PdnReadOptions& options) {
    auto entries = read_pdn_entries(text, options);
    std::vector<PdnGame> games;
    games.reserve(entries.size());
    for (PdnEntry& e : entries) {
        if (!e.ok()) {
            return Error{e.error};
        }
        games.push_back(std::move(e.game));
    }
    return games;
}

Expected<std::vector<PdnGame>> read_pdn(std::string_view text, VariantId default_variant) {
    PdnReadOptions options;
    options.default_variant = default_variant;
    return read_pdn(text, options);
}

PdnDocument read_pdn_document(std::string_view bytes, const PdnReadOptions& options) {
    DecodedText decoded = decode_text(bytes);
    return PdnDocument{decoded.encoding, read_pdn_entries(decoded.text, options)};
}

PdnDocument
read_pdn_document(std::string_view bytes, TextEncoding encoding, const PdnReadOptions& options) {
    DecodedText decoded = decode_text_as(bytes, encoding);
    return PdnDocument{decoded.encoding, read_pdn_entries(decoded.text, options)};
}

}  // namespace papan::core
