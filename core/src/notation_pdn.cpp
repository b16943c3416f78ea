#include <papan/core/notation/fen.hpp>
#include <papan/core/notation/move_text.hpp>
#include <papan/core/notation/pdn.hpp>
#include <papan/core/rules/registry.hpp>

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>

namespace papan::core {

namespace {

constexpr std::size_t kLineWidth = 80;

bool is_space(char c) noexcept {
    return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v';
}

bool is_digit(char c) noexcept {
    return c >= '0' && c <= '9';
}

bool is_move_separator(char c) noexcept {
    return c == '-' || c == 'x' || c == 'X' || c == ':' || c == '*';
}

// Characters that end a word of move text.
bool is_delimiter(char c) noexcept {
    return is_space(c) || c == '[' || c == ']' || c == '{' || c == '}' || c == '(' || c == ')' ||
           c == '$' || c == '%';
}

bool iequals(std::string_view a, std::string_view b) noexcept {
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
               return std::tolower(static_cast<unsigned char>(x)) ==
                      std::tolower(static_cast<unsigned char>(y));
           });
}

std::string_view trim(std::string_view s) noexcept {
    while (!s.empty() && is_space(s.front())) {
        s.remove_prefix(1);
    }
    while (!s.empty() && is_space(s.back())) {
        s.remove_suffix(1);
    }
    return s;
}

// Runs of white space become one space; the ends are trimmed.
std::string collapse_space(std::string_view s) {
    std::string out;
    bool pending = false;
    for (const char c : s) {
        if (is_space(c)) {
            pending = !out.empty();
            continue;
        }
        if (pending) {
            out += ' ';
            pending = false;
        }
        out += c;
    }
    return out;
}

const char* color_name(Color c) noexcept {
    return c == Color::White ? "white" : "black";
}

const std::string* find_tag_ci(const PdnGame& g, std::string_view name) {
    for (const auto& [k, v] : g.tags) {
        if (iequals(k, name)) {
            return &v;
        }
    }
    return nullptr;
}

std::optional<int> parse_small_int(std::string_view s) {
    int v = 0;
    if (s.empty() || s.size() > 9) {
        return std::nullopt;
    }
    const auto res = std::from_chars(s.data(), s.data() + s.size(), v);
    if (res.ec != std::errc{} || res.ptr != s.data() + s.size()) {
        return std::nullopt;
    }
    return v;
}

// A FEN whose piece lists are all empty ("B::", "W:W:B") is PDN's null move: only the side to
// move changes. Returns that side, or nullopt for an ordinary FEN.
std::optional<Color> null_move_side(std::string_view fen) {
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

// The reader: one pass over the text, game by game.
class Reader {
public:
    Reader(std::string_view text, const PdnReadOptions& options, bool stop_at_first)
        : s_(text)
        , options_(options)
        , stop_(stop_at_first) {}

    std::vector<PdnEntry> run() {
        if (s_.substr(0, 3) == "\xEF\xBB\xBF") {
            i_ = 3;  // UTF-8 byte order mark
        }
        while (!fatal_) {
            skip_space();
            if (i_ >= s_.size()) {
                break;
            }
            const char c = s_[i_];
            switch (c) {
            case '%':
                skip_to_line_end();
                break;
            case '[':
                read_tag();
                break;
            case '{':
                read_comment();
                break;
            case '(':
                read_parenthesis();
                break;
            case '/':
                read_setup();
                break;
            case '$':
                ++i_;
                while (i_ < s_.size() && is_digit(s_[i_])) {
                    ++i_;
                }
                break;
            case ')':
            case ']':
            case '}':
                begin_game();
                parse_error(line_, std::string("unexpected '") + c + "'");
                ++i_;
                break;
            default:
                read_word();
                break;
            }
        }
        finish_game(std::nullopt);
        return std::move(out_);
    }

private:
    std::string_view s_;
    std::size_t i_ = 0;
    int line_      = 1;
    const PdnReadOptions& options_;
    bool stop_;
    bool fatal_ = false;
    std::vector<PdnEntry> out_;

    // The game being read.
    bool in_game_         = false;
    bool body_seen_       = false;  // a move-text token was read
    bool started_         = false;  // variant and start position resolved
    bool failed_          = false;
    bool blank_since_tag_ = false;
    int game_type_line_   = 0;
    int fen_line_         = 0;
    PdnEntry cur_;
    Position pos_;
    int move_number_ = 1;
    std::string pending_comment_;

    void skip_space() {
        int newlines = 0;
        while (i_ < s_.size() && is_space(s_[i_])) {
            if (s_[i_] == '\n') {
                ++line_;
                if (++newlines >= 2) {
                    blank_since_tag_ = true;
                }
            }
            ++i_;
        }
    }

    void skip_to_line_end() {
        while (i_ < s_.size() && s_[i_] != '\n') {
            ++i_;
        }
    }

    // --- games -------------------------------------------------------------------------------

    void begin_game() {
        if (in_game_) {
            return;
        }
        in_game_         = true;
        body_seen_       = false;
        started_         = false;
        failed_          = false;
        blank_since_tag_ = false;
        game_type_line_  = 0;
        fen_line_        = 0;
        cur_             = PdnEntry{};
        cur_.number      = static_cast<int>(out_.size()) + 1;
        cur_.game.line   = line_;
        move_number_     = 1;
        pending_comment_.clear();
    }

    void finish_game(std::optional<std::string> result) {
        if (!in_game_) {
            return;
        }
        if (!started_ && !failed_) {
            start_game();
        }
        PdnGame& g = cur_.game;
        if (!started_) {
            g.comments.assign(1, "");
        }
        g.comments.resize(g.moves.size() + 1);
        if (result) {
            g.result = *result;
        } else if (const std::string* tag = find_tag_ci(g, "Result");
                   tag != nullptr && parse_pdn_result(*tag)) {
            g.result = std::string(trim(*tag));
        } else {
            g.result = "*";
        }
        out_.push_back(std::move(cur_));
        in_game_ = false;
    }

    // Resolves the variant and the start position from the tags, before the first body token.
    void start_game() {
        started_   = true;
        PdnGame& g = cur_.game;
        g.variant  = options_.default_variant;
        g.comments.assign(1, "");
        if (const std::string* gt = find_tag_ci(g, "GameType")) {
            const auto v = variant_from_game_type(*gt);
            if (!v) {
                parse_error(game_type_line_, "unknown GameType \"" + *gt + "\"");
                return;
            }
            g.variant = *v;
        }
        g.start = start_position(g.variant);
        if (const std::string* fen = find_tag_ci(g, "FEN")) {
            auto p = parse_fen(g.variant, *fen);
            if (!p) {
                parse_error(fen_line_,
                            "bad FEN tag for " + std::string(rules(g.variant).name) + ": " +
                                p.error());
                return;
            }
            g.start = *p;
        }
        pos_ = g.start;
        if (!pending_comment_.empty()) {
            g.comments[0] = pending_comment_;
            pending_comment_.clear();
        }
    }

    // A move-text token: the header is over.
    void body_token() {
        begin_game();
        body_seen_ = true;
        if (!started_ && !failed_) {
            start_game();
        }
    }

    void record_error(std::string message) {
        if (cur_.error.empty()) {
            cur_.error = std::move(message);
        }
        failed_ = true;
        if (stop_) {
            fatal_ = true;
        }
    }

    void parse_error(int line, const std::string& what) {
        record_error("game " + std::to_string(cur_.number) + ", line " + std::to_string(line) +
                     ": " + what);
    }

    void fatal_error(int line, const std::string& what) {
        begin_game();
        parse_error(line, what);
        fatal_ = true;
    }

    void move_error(int line, const std::string& what) {
        const RuleSet& r = rules(cur_.game.variant);
        record_error("game " + std::to_string(cur_.number) + ", move " +
                     std::to_string(move_number_) + " (" + color_name(pos_.side) + "): " + what +
                     " (" + std::string(r.name) + ", line " + std::to_string(line) + ")");
    }

    // --- tokens ------------------------------------------------------------------------------

    void read_tag() {
        const int line = line_;
        if (in_game_ && body_seen_) {
            finish_game(std::nullopt);
        }
        ++i_;  // '['
        while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\t')) {
            ++i_;
        }
        const std::size_t name_start = i_;
        while (i_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[i_])) != 0 ||
                                  s_[i_] == '_' || s_[i_] == '-')) {
            ++i_;
        }
        const std::string name(s_.substr(name_start, i_ - name_start));
        while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\t')) {
            ++i_;
        }
        std::string value;
        bool ok = !name.empty();
        if (ok && i_ < s_.size() && s_[i_] == '"') {
            ++i_;
            ok = false;
            while (i_ < s_.size() && s_[i_] != '\n') {
                const char c = s_[i_];
                if (c == '\\' && i_ + 1 < s_.size() && (s_[i_ + 1] == '"' || s_[i_ + 1] == '\\')) {
                    value += s_[i_ + 1];
                    i_ += 2;
                    continue;
                }
                ++i_;
                if (c == '"') {
                    ok = true;
                    break;
                }
                value += c;
            }
        } else if (ok) {
            // Unquoted value (seen in the wild): up to ']' on the same line.
            while (i_ < s_.size() && s_[i_] != ']' && s_[i_] != '\n') {
                value += s_[i_++];
            }
            value = std::string(trim(value));
        }
        while (ok && i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\t' || s_[i_] == '\r')) {
            ++i_;
        }
        if (!ok || i_ >= s_.size() || s_[i_] != ']') {
            begin_game();
            parse_error(line,
                        name.empty() ? std::string("malformed tag") : "unterminated tag [" + name);
            skip_to_line_end();
            return;
        }
        ++i_;  // ']'
        if (in_game_ && !body_seen_ && blank_since_tag_ &&
            find_tag_ci(cur_.game, name) != nullptr) {
            finish_game(std::nullopt);  // a header without move text, then the next game's header
        }
        begin_game();
        blank_since_tag_ = false;
        if (iequals(name, "GameType")) {
            game_type_line_ = line;
        } else if (iequals(name, "FEN")) {
            fen_line_ = line;
        }
        cur_.game.tags.emplace_back(name, std::move(value));
    }

    void read_comment() {
        const int line          = line_;
        const std::size_t close = s_.find('}', i_ + 1);
        if (close == std::string_view::npos) {
            fatal_error(line, "unterminated comment '{'");
            i_ = s_.size();
            return;
        }
        const std::string_view body = s_.substr(i_ + 1, close - i_ - 1);
        line_ += static_cast<int>(std::count(body.begin(), body.end(), '\n'));
        i_ = close + 1;
        if (!in_game_) {
            return;  // a comment before any game: file commentary, dropped
        }
        std::string text = collapse_space(body);
        if (text.empty()) {
            return;
        }
        std::string& target =
            started_ ? cur_.game.comments[cur_.game.moves.size()] : pending_comment_;
        if (!target.empty()) {
            target += ' ';
        }
        target += text;
    }

    // "(!)", "(?)", "(!?)": a move strength; anything else opens a variation, skipped.
    void read_parenthesis() {
        std::size_t j = i_ + 1;
        while (j < s_.size() && (s_[j] == '!' || s_[j] == '?')) {
            ++j;
        }
        if (j > i_ + 1 && j < s_.size() && s_[j] == ')') {
            i_ = j + 1;
            return;
        }
        const int line = line_;
        int depth      = 0;
        while (i_ < s_.size()) {
            const char c = s_[i_];
            if (c == '\n') {
                ++line_;
            } else if (c == '(') {
                ++depth;
            } else if (c == ')') {
                if (--depth == 0) {
                    ++i_;
                    return;
                }
            } else if (c == '{') {
                const int comment_line  = line_;
                const std::size_t close = s_.find('}', i_ + 1);
                if (close == std::string_view::npos) {
                    fatal_error(comment_line, "unterminated comment '{'");
                    i_ = s_.size();
                    return;
                }
                line_ +=
                    static_cast<int>(std::count(s_.begin() + static_cast<std::ptrdiff_t>(i_),
                                                s_.begin() + static_cast<std::ptrdiff_t>(close),
                                                '\n'));
                i_ = close;
            }
            ++i_;
        }
        fatal_error(line, "unterminated variation '('");
    }

    void read_setup() {
        const int line          = line_;
        const std::size_t close = s_.find('/', i_ + 1);
        if (close == std::string_view::npos) {
            fatal_error(line, "unterminated setup '/'");
            i_ = s_.size();
            return;
        }
        const std::string_view body = s_.substr(i_ + 1, close - i_ - 1);
        line_ += static_cast<int>(std::count(body.begin(), body.end(), '\n'));
        i_ = close + 1;
        body_token();
        if (failed_) {
            return;
        }
        std::string_view fen = trim(body);
        const std::size_t q1 = fen.find('"');
        const std::size_t q2 = q1 == std::string_view::npos ? q1 : fen.find('"', q1 + 1);
        if (q2 != std::string_view::npos) {
            fen = fen.substr(q1 + 1, q2 - q1 - 1);
        } else if (fen.size() >= 3 && iequals(fen.substr(0, 3), "FEN")) {
            fen = trim(fen.substr(3));
        }
        PdnGame& g = cur_.game;
        Position p = pos_;
        if (const auto side = null_move_side(fen)) {
            p.side = *side;
        } else {
            auto parsed = parse_fen(g.variant, fen);
            if (!parsed) {
                parse_error(line,
                            "bad setup for " + std::string(rules(g.variant).name) + ": " +
                                parsed.error());
                return;
            }
            p = *parsed;
        }
        pos_ = p;
        if (g.moves.empty()) {
            g.start = p;
        } else if (!g.setups.empty() && g.setups.back().ply == g.moves.size()) {
            g.setups.back().position = p;
        } else {
            g.setups.push_back(PdnSetup{g.moves.size(), p});
        }
    }

    std::string_view next_word() {
        const std::size_t start = i_;
        while (i_ < s_.size() && !is_delimiter(s_[i_])) {
            ++i_;
        }
        return s_.substr(start, i_ - start);
    }

    void read_word() {
        const int line = line_;
        std::string word(next_word());
        if (word.empty()) {
            ++i_;  // cannot happen (delimiters are handled by the caller); never loop
            return;
        }
        if (parse_pdn_result(word)) {
            if (in_game_) {
                body_token();
                finish_game(word);
            }
            return;  // a lone separator between games
        }
        // Move number: "12." "12..." "12.32-28".
        std::size_t k = 0;
        while (k < word.size() && is_digit(word[k])) {
            ++k;
        }
        if (k > 0 && k < word.size() && word[k] == '.') {
            const auto n = parse_small_int(std::string_view(word).substr(0, k));
            while (k < word.size() && word[k] == '.') {
                ++k;
            }
            body_token();
            if (n) {
                move_number_ = *n;
            }
            word.erase(0, k);
        }
        if (word.find_first_not_of('.') == std::string::npos) {
            return;  // "..." on its own, or the number alone
        }
        // Strength suffix: "!", "?", "!?", "??", ...
        while (!word.empty() && (word.back() == '!' || word.back() == '?')) {
            word.pop_back();
        }
        if (word.empty()) {
            return;
        }
        // "1- 7", "18x 9": a separator followed by spaces inside a move (old files).
        while (is_move_separator(word.back())) {
            std::size_t j = i_;
            while (j < s_.size() && (s_[j] == ' ' || s_[j] == '\t')) {
                ++j;
            }
            if (j >= s_.size() || is_delimiter(s_[j])) {
                break;
            }
            i_ = j;
            word += next_word();
            while (!word.empty() && (word.back() == '!' || word.back() == '?')) {
                word.pop_back();
            }
            if (word.empty()) {
                return;
            }
        }
        body_token();
        if (failed_) {
            return;
        }
        PdnGame& g   = cur_.game;
        const auto m = parse_move(pos_, word, options_.movegen);
        if (!m) {
            move_error(line, m.error());
            return;
        }
        const Color mover = pos_.side;
        g.moves.push_back(*m);
        g.comments.emplace_back();
        pos_ = make_move(pos_, *m);
        if (mover != rules(g.variant).first_to_move) {
            ++move_number_;
        }
    }
};

// --- writing -----------------------------------------------------------------------------------

constexpr std::array<std::string_view, 7> kSevenTags = {
    "Event", "Site", "Date", "Round", "White", "Black", "Result"};

bool is_written_specially(std::string_view name) {
    return std::any_of(kSevenTags.begin(),
                       kSevenTags.end(),
                       [&](std::string_view t) { return iequals(t, name); }) ||
           iequals(name, "GameType") || iequals(name, "FEN");
}

std::string escape_tag_value(std::string_view v) {
    std::string out;
    for (const char c : v) {
        if (c == '"' || c == '\\') {
            out += '\\';
            out += c;
        } else if (c == '\n' || c == '\r' || c == '\t') {
            out += ' ';
        } else {
            out += c;
        }
    }
    return out;
}

std::string tag_line(std::string_view name, std::string_view value) {
    return "[" + std::string(name) + " \"" + escape_tag_value(value) + "\"]\n";
}

// Identifier characters only (a tag name as PDN allows it).
std::string clean_tag_name(std::string_view name) {
    std::string out;
    for (const char c : name) {
        if (std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_') {
            out += c;
        }
    }
    return out;
}

void add_comment_units(std::vector<std::string>& units, std::string_view comment) {
    std::string text = collapse_space(comment);
    std::replace(text.begin(), text.end(), '}', ')');
    if (text.empty()) {
        return;
    }
    std::vector<std::string> words;
    std::size_t start = 0;
    while (start < text.size()) {
        const std::size_t end = std::min(text.find(' ', start), text.size());
        words.emplace_back(text.substr(start, end - start));
        start = end + 1;
    }
    words.front().insert(0, "{");
    words.back() += '}';
    for (auto& w : words) {
        units.push_back(std::move(w));
    }
}

std::string wrap(const std::vector<std::string>& units) {
    std::string out;
    std::string line;
    for (const std::string& u : units) {
        if (line.empty()) {
            line = u;
        } else if (line.size() + 1 + u.size() <= kLineWidth) {
            line += ' ';
            line += u;
        } else {
            out += line;
            out += '\n';
            line = u;
        }
    }
    if (!line.empty()) {
        out += line;
        out += '\n';
    }
    return out;
}

}  // namespace

// --- PdnGame -------------------------------------------------------------------------------------

const std::string* PdnGame::tag(std::string_view name) const {
    for (const auto& [k, v] : tags) {
        if (k == name) {
            return &v;
        }
    }
    return nullptr;
}

void PdnGame::set_tag(std::string_view name, std::string value) {
    for (auto& [k, v] : tags) {
        if (k == name) {
            v = std::move(value);
            return;
        }
    }
    tags.emplace_back(std::string(name), std::move(value));
}

Position PdnGame::position_before(std::size_t ply) const {
    Position p    = start;
    std::size_t s = 0;
    for (std::size_t k = 0;; ++k) {
        while (s < setups.size() && setups[s].ply == k) {
            p = setups[s++].position;
        }
        if (k >= ply || k >= moves.size()) {
            return p;
        }
        p = make_move(p, moves[k]);
    }
}

PdnGame make_pdn_game(VariantId v) {
    PdnGame g;
    g.variant  = v;
    g.start    = start_position(v);
    g.comments = {""};
    return g;
}

// --- reading -------------------------------------------------------------------------------------

std::vector<PdnEntry> read_pdn_entries(std::string_view text, const PdnReadOptions& options) {
    return Reader(text, options, false).run();
}

Expected<std::vector<PdnGame>> read_pdn(std::string_view text, const PdnReadOptions& options) {
    auto entries = Reader(text, options, true).run();
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

// --- results -------------------------------------------------------------------------------------

std::optional<PdnResult> parse_pdn_result(std::string_view text) noexcept {
    text = trim(text);
    if (text == "1-0" || text == "2-0") {
        return PdnResult::FirstWins;
    }
    if (text == "0-1" || text == "0-2") {
        return PdnResult::SecondWins;
    }
    if (text == "1/2-1/2" || text == "1-1" || text == "\xC2\xBD-\xC2\xBD") {
        return PdnResult::Draw;
    }
    if (text == "0-0") {
        return PdnResult::BothLose;
    }
    if (text == "*") {
        return PdnResult::Unknown;
    }
    return std::nullopt;
}

bool uses_international_results(VariantId v) noexcept {
    return rules(v).topology == Topology::Diagonal10;
}

std::string_view pdn_result_text(PdnResult r, VariantId v) noexcept {
    const bool intl = uses_international_results(v);
    switch (r) {
    case PdnResult::FirstWins:
        return intl ? "2-0" : "1-0";
    case PdnResult::SecondWins:
        return intl ? "0-2" : "0-1";
    case PdnResult::Draw:
        return intl ? "1-1" : "1/2-1/2";
    case PdnResult::BothLose:
        return "0-0";
    case PdnResult::Unknown:
        return "*";
    }
    return "*";
}

std::string convert_pdn_result(std::string_view text, VariantId v) {
    const auto r = parse_pdn_result(text);
    return std::string(pdn_result_text(r ? *r : PdnResult::Unknown, v));
}

std::string normalize_pdn_date(std::string_view date) {
    date = trim(date);
    std::vector<std::string_view> parts;
    std::size_t start = 0;
    for (std::size_t i = 0; i <= date.size() && parts.size() < 3; ++i) {
        if (i == date.size() || date[i] == '.' || date[i] == '-' || date[i] == '/') {
            parts.push_back(date.substr(start, i - start));
            start = i + 1;
        }
    }
    parts.resize(3);
    const auto all_digits = [](std::string_view s) {
        return !s.empty() && std::all_of(s.begin(), s.end(), is_digit);
    };
    if (!(all_digits(parts[0]) && parts[0].size() == 4) && all_digits(parts[2]) &&
        parts[2].size() == 4) {
        std::swap(parts[0], parts[2]);  // DD.MM.YYYY
    }
    std::string out = all_digits(parts[0]) && parts[0].size() == 4 ? std::string(parts[0]) : "????";
    const auto two  = [&](std::string_view s, int max) -> std::string {
        if (!all_digits(s) || s.size() > 2) {
            return "??";
        }
        const int n = *parse_small_int(s);
        if (n < 1 || n > max) {
            return "??";
        }
        return (n < 10 ? "0" : "") + std::to_string(n);
    };
    out += '.';
    out += two(parts[1], 12);
    out += '.';
    out += two(parts[2], 31);
    return out;
}

// --- writing -------------------------------------------------------------------------------------

std::string write_pdn_game(const PdnGame& g) {
    const RuleSet& r = rules(g.variant);
    std::string out;

    const std::string* result_tag = g.tag("Result");
    if (result_tag == nullptr) {
        result_tag = find_tag_ci(g, "Result");
    }
    const std::string result_value =
        (result_tag != nullptr && parse_pdn_result(*result_tag)) ? *result_tag : g.result;
    for (const std::string_view name : kSevenTags) {
        const std::string* v = find_tag_ci(g, name);
        std::string value    = v != nullptr ? std::string(trim(*v)) : std::string();
        if (name == "Date") {
            value = normalize_pdn_date(value);
        } else if (name == "Result") {
            value = convert_pdn_result(result_value, g.variant);
        } else if (value.empty()) {
            value = "?";
        }
        out += tag_line(name, value);
    }
    out += tag_line("GameType", r.game_type);
    const bool standard_start = g.start == start_position(g.variant);
    if (!standard_start) {
        out += tag_line("FEN", to_fen(g.start));
    }
    for (const auto& [name, value] : g.tags) {
        const std::string clean = clean_tag_name(name);
        if (clean.empty() || is_written_specially(clean) || trim(value).empty()) {
            continue;
        }
        if (standard_start && iequals(clean, "SetUp")) {
            continue;
        }
        out += tag_line(clean, value);
    }
    out += '\n';

    std::vector<std::string> units;
    if (!g.comments.empty()) {
        add_comment_units(units, g.comments[0]);
    }
    Position pos     = g.start;
    int number       = 1;
    bool need_number = true;
    std::size_t s    = 0;
    std::optional<Color> last_mover;
    for (std::size_t k = 0;; ++k) {
        while (s < g.setups.size() && g.setups[s].ply == k) {
            pos = g.setups[s++].position;
            units.push_back("/FEN \"" + to_fen(pos) + "\"/");
            need_number = true;
        }
        if (k >= g.moves.size()) {
            break;
        }
        const Move& m     = g.moves[k];
        const Color mover = pos.side;
        std::string text  = move_text(pos, m);
        if (mover == r.first_to_move && last_mover == r.first_to_move) {
            ++number;  // the first mover moves twice in a row (after a setup)
        }
        last_mover = mover;
        if (mover == r.first_to_move) {
            units.push_back(std::to_string(number) + ". " + text);
        } else if (need_number) {
            units.push_back(std::to_string(number) + "... " + text);
        } else {
            units.push_back(std::move(text));
        }
        need_number = false;
        if (k + 1 < g.comments.size() && !g.comments[k + 1].empty()) {
            add_comment_units(units, g.comments[k + 1]);
            need_number = true;
        }
        if (mover != r.first_to_move) {
            ++number;
        }
        pos = make_move(pos, m);
    }
    units.push_back(convert_pdn_result(g.result, g.variant));
    out += wrap(units);
    return out;
}

std::string write_pdn(const std::vector<PdnGame>& games) {
    std::string out;
    for (std::size_t i = 0; i < games.size(); ++i) {
        if (i > 0) {
            out += '\n';
        }
        out += write_pdn_game(games[i]);
    }
    return out;
}

}  // namespace papan::core
