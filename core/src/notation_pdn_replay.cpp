// Replaying a lexed PDN game under one variant (pdn_syntax.hpp): the start from the FEN tag,
// every move through the rules (compact "3228" / "a3b4" moves included), setups, comments,
// variations and marks, an ambiguous capture settled by looking ahead, and the one result of
// the Result tag and the terminator.
#include "pdn_syntax.hpp"

#include <papan/core/notation/encoding.hpp>
#include <papan/core/notation/fen.hpp>
#include <papan/core/notation/move_text.hpp>
#include <papan/core/notation/squares.hpp>
#include <papan/core/rules/registry.hpp>

#include <algorithm>
#include <cctype>

namespace papan::core::pdn {

namespace {

// Branches the look-ahead may explore for one game (ambiguous texts inside the look-ahead
// branch again); past it the choice counts as unsettled.
constexpr int kLookAheadBudget          = 256;
constexpr std::size_t kCompactMaxDigits = 12;

bool has_separator(std::string_view t) noexcept {
    return t.find_first_of("-xX:*") != std::string_view::npos;
}

void add_distinct(std::vector<Move>& list, const Move& m) {
    if (std::none_of(list.begin(), list.end(), [&](const Move& f) { return f.same_as(m); })) {
        list.push_back(m);
    }
}

// Every split of a run of digits into squares of one or two digits ("3228" -> 32-28, 3-2-28,
// ...), joined with '-'.
void digit_splits(std::string_view digits, std::string prefix, std::vector<std::string>& out) {
    if (digits.empty()) {
        out.push_back(std::move(prefix));
        return;
    }
    for (std::size_t len = 1; len <= 2 && len <= digits.size(); ++len) {
        std::string next = prefix;
        if (!next.empty()) {
            next += '-';
        }
        next.append(digits.substr(0, len));
        digit_splits(digits.substr(len), std::move(next), out);
    }
}

// The readings of a move written without separators: "a3b4" -> "a3-b4", "3228" -> "32-28"
// (and the other splits of the digits; the legal ones count).
std::vector<std::string> compact_readings(std::string_view t) {
    std::vector<std::string> out;
    if (t.size() < 3 || has_separator(t)) {
        return out;
    }
    if (std::all_of(t.begin(), t.end(), [](char c) { return is_digit(c); })) {
        if (t.size() <= kCompactMaxDigits) {
            digit_splits(t, "", out);
        }
        return out;
    }
    // Algebraic: a new square at each letter ("a3b4c5"); letters and digits only.
    if (std::isalpha(static_cast<unsigned char>(t.front())) == 0) {
        return out;
    }
    std::string joined;
    for (std::size_t i = 0; i < t.size(); ++i) {
        const auto c = static_cast<unsigned char>(t[i]);
        if (std::isalnum(c) == 0) {
            return {};
        }
        if (std::isalpha(c) != 0 && i > 0) {
            joined += '-';
        }
        joined += t[i];
    }
    out.push_back(std::move(joined));
    return out;
}

// The legal moves a move word can name (compact forms included), or the reader's error.
Expected<std::vector<Move>>
candidates_for(const Position& pos, std::string_view text, MoveGenOptions movegen) {
    auto direct = parse_move_candidates(pos, text, movegen);
    if (direct) {
        return direct;
    }
    std::vector<Move> found;
    for (const std::string& reading : compact_readings(text)) {
        if (auto c = parse_move_candidates(pos, reading, movegen)) {
            for (const Move& m : *c) {
                add_distinct(found, m);
            }
        }
    }
    if (!found.empty()) {
        return found;
    }
    return direct;
}

class Replayer {
public:
    Replayer(const RawGame& raw, VariantId v, const PdnReadOptions& options)
        : raw_(raw)
        , v_(v)
        , options_(options) {}

    Replay run() {
        PdnGame& g = out_.game;
        for (const Tag& t : raw_.tags) {
            g.tags.emplace_back(t.name, t.value);
        }
        g.variant = v_;
        g.line    = raw_.line;
        g.start   = start_position(v_);
        g.comments.assign(1, "");
        if (start_from_fen_tag()) {
            play_tokens();
        }
        g.comments.resize(g.moves.size() + 1);
        settle_result();
        return std::move(out_);
    }

private:
    const RawGame& raw_;
    VariantId v_;
    const PdnReadOptions& options_;
    Replay out_;
    Position pos_;
    int move_number_ = 1;
    int budget_      = kLookAheadBudget;

    [[nodiscard]] const RuleSet& rules_of() const { return rules(v_); }

    [[nodiscard]] FenReadOptions fen_options() const {
        return FenReadOptions{options_.lenient_setup};
    }

    void fail(PdnErrorKind kind, int line, std::string message) {
        out_.error      = std::move(message);
        out_.error_kind = kind;
        out_.error_line = line;
    }

    void setup_error(int line, const std::string& what, const std::string& fen_error) {
        const bool promotion = fen_error.find("stands on its promotion row") != std::string::npos;
        std::string message  = syntax_message(
            raw_.number, line, what + " for " + std::string(rules_of().name) + ": " + fen_error);
        if (promotion) {
            message += " (a problem position? reading setups leniently crowns such a man)";
        }
        fail(promotion ? PdnErrorKind::SetupPromotionRow : PdnErrorKind::Setup, line, message);
    }

    void note_crowned(int line, const FenInfo& info) {
        for (const int square : info.crowned) {
            out_.notes.push_back("line " + std::to_string(line) + ": the man on " +
                                 square_text(v_, square) +
                                 " stands on its promotion row: read as a king (lenient setup)");
        }
    }

    bool start_from_fen_tag() {
        PdnGame& g = out_.game;
        if (const Tag* fen = raw_.find_tag("FEN")) {
            auto p = parse_fen_info(v_, fen->value, fen_options());
            if (!p) {
                setup_error(fen->line, "bad FEN tag", p.error());
                return false;
            }
            note_crowned(fen->line, *p);
            g.start = p->position;
        }
        pos_ = g.start;
        return true;
    }

    void move_error(const Token& t, PdnErrorKind kind, const std::string& what) {
        fail(kind,
             t.line,
             "game " + std::to_string(raw_.number) + ", move " + std::to_string(move_number_) +
                 " (" + color_name(pos_.side) + "): " + what + " (" + std::string(rules_of().name) +
                 ", line " + std::to_string(t.line) + ")");
        out_.error_move = move_number_;
    }

    // The position a setup token gives, from `before`; nullopt after reporting the error.
    std::optional<Position> setup_position(const Token& t, const Position& before, bool report) {
        std::string_view fen = trim(t.text);
        const std::size_t q1 = fen.find('"');
        const std::size_t q2 = q1 == std::string_view::npos ? q1 : fen.find('"', q1 + 1);
        if (q2 != std::string_view::npos) {
            fen = fen.substr(q1 + 1, q2 - q1 - 1);
        } else if (fen.size() >= 3 && iequals(fen.substr(0, 3), "FEN")) {
            fen = trim(fen.substr(3));
        }
        if (const auto side = null_move_side(fen)) {
            Position p = before;
            p.side     = *side;
            return p;
        }
        auto parsed = parse_fen_info(v_, fen, fen_options());
        if (!parsed) {
            if (report) {
                setup_error(t.line, "bad setup", parsed.error());
            }
            return std::nullopt;
        }
        if (report) {
            note_crowned(t.line, *parsed);
        }
        return parsed->position;
    }

    // A FEN whose piece lists are all empty ("B::", "W:W:B") is PDN's null move: only the side
    // to move changes. Returns that side, or nullopt for an ordinary FEN.
    static std::optional<Color> null_move_side(std::string_view fen) {
        fen = trim(fen);
        if (!fen.empty() && fen.back() == '.') {
            fen.remove_suffix(1);
        }
        if (fen.empty() || (fen[0] != 'W' && fen[0] != 'B' && fen[0] != 'w' && fen[0] != 'b')) {
            return std::nullopt;
        }
        for (std::size_t i = 1; i < fen.size(); ++i) {
            const char c = fen[i];
            if (c != ':' && c != 'W' && c != 'B' && c != 'w' && c != 'b' && !is_space(c)) {
                return std::nullopt;
            }
        }
        return (fen[0] == 'W' || fen[0] == 'w') ? Color::White : Color::Black;
    }

    // Whether every move from token `from` on stays legal after reaching `pos` (a later
    // ambiguous text branches; an exhausted budget counts as legal, leaving the choice open).
    bool continues_legally(std::size_t from, Position pos) {
        for (std::size_t k = from; k < raw_.tokens.size(); ++k) {
            const Token& t = raw_.tokens[k];
            if (t.kind == TokenKind::Setup) {
                const auto p = setup_position(t, pos, false);
                if (!p) {
                    return true;  // the setup is an error of its own, whatever was chosen
                }
                if (p->pieces != pos.pieces || p->kings != pos.kings) {
                    return true;  // a new position: the choice no longer matters
                }
                pos = *p;
                continue;
            }
            if (t.kind != TokenKind::Move) {
                continue;
            }
            auto c = candidates_for(pos, t.text, options_.movegen);
            if (!c) {
                return false;
            }
            if (c->size() == 1) {
                pos = make_move(pos, c->front());
                continue;
            }
            for (const Move& m : *c) {
                if (--budget_ < 0 || continues_legally(k + 1, make_move(pos, m))) {
                    return true;
                }
            }
            return false;
        }
        return true;
    }

    std::string captured_text(const Move& m) const {
        std::string s;
        for (const int sq : captured_squares(v_, m)) {
            s += (s.empty() ? "" : ", ") + square_text(v_, sq);
        }
        return s;
    }

    // The move of an ambiguous text: the one choice under which the rest stays legal.
    std::optional<Move> settle(std::size_t k, const Token& t, const std::vector<Move>& cands) {
        std::vector<Move> viable;
        for (const Move& m : cands) {
            if (continues_legally(k + 1, make_move(pos_, m))) {
                viable.push_back(m);
            }
        }
        if (viable.empty()) {
            return cands.front();  // the game goes wrong later whatever is chosen: show where
        }
        const std::string shown(utf8_prefix(t.text, 64));
        if (viable.size() > 1 || budget_ < 0) {
            move_error(t,
                       PdnErrorKind::AmbiguousMove,
                       "ambiguous move '" + shown + "': " + std::to_string(cands.size()) +
                           " legal moves fit it and " + std::to_string(viable.size()) +
                           " of them keep the rest of the game legal; write the full path");
            return std::nullopt;
        }
        out_.notes.push_back("move " + std::to_string(move_number_) + " (" + color_name(pos_.side) +
                             "), line " + std::to_string(t.line) + ": '" + shown + "' fits " +
                             std::to_string(cands.size()) + " legal moves; only " +
                             move_text_full(pos_, viable.front()) + " (taking " +
                             captured_text(viable.front()) + ") keeps the rest of the game legal");
        return viable.front();
    }

    void play_tokens() {
        PdnGame& g = out_.game;
        for (std::size_t k = 0; k < raw_.tokens.size(); ++k) {
            const Token& t = raw_.tokens[k];
            switch (t.kind) {
            case TokenKind::Comment: {
                std::string& target = g.comments[g.moves.size()];
                target += (target.empty() ? "" : " ") + t.text;
                break;
            }
            case TokenKind::Variation:
                g.variations.push_back(PdnVariation{g.moves.size(), t.text});
                break;
            case TokenKind::Mark:
                if (!g.moves.empty()) {
                    g.marks.resize(g.moves.size());
                    std::string& target = g.marks.back();
                    target += (target.empty() ? "" : " ") + t.text;
                }
                break;
            case TokenKind::Setup: {
                const auto p = setup_position(t, pos_, true);
                if (!p) {
                    return;
                }
                pos_ = *p;
                if (g.moves.empty()) {
                    g.start = *p;
                } else if (!g.setups.empty() && g.setups.back().ply == g.moves.size()) {
                    g.setups.back().position = *p;
                } else {
                    g.setups.push_back(PdnSetup{g.moves.size(), *p});
                }
                break;
            }
            case TokenKind::Move:
                if (!play_move(k, t)) {
                    return;
                }
                break;
            }
        }
    }

    bool play_move(std::size_t k, const Token& t) {
        PdnGame& g = out_.game;
        if (t.move_number > 0) {
            move_number_ = t.move_number;
        }
        auto cands = candidates_for(pos_, t.text, options_.movegen);
        if (!cands) {
            move_error(t, PdnErrorKind::Move, cands.error());
            return false;
        }
        std::optional<Move> m = cands->front();
        if (cands->size() > 1) {
            m = settle(k, t, *cands);
            if (!m) {
                return false;
            }
        }
        const Color mover = pos_.side;
        g.moves.push_back(*m);
        g.comments.emplace_back();
        pos_ = make_move(pos_, *m);
        ++out_.moves_read;
        if (mover != rules_of().first_to_move) {
            ++move_number_;
        }
        return true;
    }

    // The Result tag and the terminator give one result (resolve_pdn_result); the tag is made
    // to agree, with a note, when they differed.
    void settle_result() {
        PdnGame& g              = out_.game;
        const Tag* tag          = raw_.find_tag("Result");
        const std::string* text = tag != nullptr ? &tag->value : nullptr;
        const std::string term  = raw_.terminator.value_or("*");
        g.result                = resolve_pdn_result(text, term);
        const auto result       = parse_pdn_result(g.result);
        if (tag != nullptr && parse_pdn_result(tag->value) != result) {
            out_.notes.push_back("line " + std::to_string(tag->line) + ": the Result tag \"" +
                                 std::string(utf8_prefix(tag->value, 40)) +
                                 "\" disagrees with the move text's " + g.result +
                                 ": the tag now says " + g.result);
            for (auto& [name, value] : g.tags) {
                if (iequals(name, "Result")) {
                    value = g.result;
                    break;
                }
            }
        }
        if (raw_.terminator && parse_pdn_result(*raw_.terminator) != result) {
            out_.notes.push_back("the move text ends in " + *raw_.terminator +
                                 " but the Result tag says " + g.result + ": read as " + g.result);
        }
    }
};

}  // namespace

Replay replay(const RawGame& raw, VariantId v, const PdnReadOptions& options) {
    return Replayer(raw, v, options).run();
}

}  // namespace papan::core::pdn
