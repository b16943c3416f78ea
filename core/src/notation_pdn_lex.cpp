// The PDN lexer: text -> games of tags and move-text tokens (pdn_syntax.hpp). No rules here:
// moves are words, setups are FEN text. It decides where games begin and end, and how reading
// recovers from junk and syntax errors (docs/pdn.md, "Recovery").
#include "pdn_syntax.hpp"

#include <papan/core/notation/encoding.hpp>

#include <algorithm>
#include <cctype>

namespace papan::core::pdn {

namespace {

constexpr std::size_t kQuoteBytes = 40;  // junk quoted in a note

bool is_move_separator(char c) noexcept {
    return c == '-' || c == 'x' || c == 'X' || c == ':' || c == '*';
}

// Characters that end a word of move text.
bool is_delimiter(char c) noexcept {
    return is_space(c) || c == '[' || c == ']' || c == '{' || c == '}' || c == '(' || c == ')' ||
           c == '$' || c == '%';
}

// A word that could be (part of) move text: move numbers, squares, separators, strengths.
// Anything else before the move text (a literal "\r", a title line) is junk.
bool is_move_like(std::string_view word) noexcept {
    return std::all_of(word.begin(), word.end(), [](char c) {
        const auto b = static_cast<unsigned char>(c);
        return std::isalnum(b) != 0 || is_move_separator(c) || c == '.' || c == '!' || c == '?';
    });
}

// "12." / "12..." at the start of a word: the number and the length of the prefix.
std::pair<int, std::size_t> move_number_prefix(std::string_view word) noexcept {
    std::size_t k = 0;
    while (k < word.size() && is_digit(word[k])) {
        ++k;
    }
    if (k == 0 || k >= word.size() || word[k] != '.' || k > 6) {
        return {0, 0};
    }
    int n = 0;
    for (std::size_t i = 0; i < k; ++i) {
        n = n * 10 + (word[i] - '0');
    }
    while (k < word.size() && word[k] == '.') {
        ++k;
    }
    return {n, k};
}

bool is_result_word(std::string_view word) noexcept {
    return parse_pdn_result(word).has_value();
}

class Lexer {
public:
    explicit Lexer(std::string_view text) : s_(text) {}

    std::vector<RawGame> run() {
        if (s_.substr(0, 3) == "\xEF\xBB\xBF") {
            i_ = 3;  // UTF-8 byte order mark
        }
        for (;;) {
            skip_space();
            if (i_ >= s_.size()) {
                break;
            }
            if (skipping_ && !resynchronised()) {
                skip_unit();
                continue;
            }
            dispatch();
        }
        finish_game(std::nullopt);
        return std::move(games_);
    }

private:
    std::string_view s_;
    std::size_t i_ = 0;
    int line_      = 1;
    std::vector<RawGame> games_;

    // Junk skipped before the move text: one note per game ("skipped '\r' (line 3) and 4 more").
    struct JunkTally {
        int count = 0;
        int line  = 0;
        std::string first;
    };

    JunkTally pending_junk_;               // seen before a game began
    JunkTally junk_;                       // of the game being read
    std::vector<Token> pending_comments_;  // comments before a game: its own if moves follow

    bool in_game_         = false;
    bool body_seen_       = false;  // a move-text token was read
    bool skipping_        = false;  // after a syntax error in the move text, until a resync
    bool blank_before_    = false;  // the white space just skipped held a blank line
    bool blank_since_tag_ = false;
    int pending_number_   = 0;
    RawGame cur_;

    void dispatch() {
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
            read_nag();
            break;
        case ')':
        case ']':
        case '}':
            begin_game();
            syntax_error(line_, std::string("unexpected '") + c + "'");
            ++i_;
            break;
        default:
            read_word();
            break;
        }
    }

    // --- positions and lines -----------------------------------------------------------------

    void skip_space() {
        int newlines = 0;
        while (i_ < s_.size() && is_space(s_[i_])) {
            if (s_[i_] == '\n') {
                ++line_;
                ++newlines;
            }
            ++i_;
        }
        blank_before_ = newlines >= 2;
        if (blank_before_) {
            blank_since_tag_ = true;
        }
    }

    void skip_to_line_end() {
        while (i_ < s_.size() && s_[i_] != '\n') {
            ++i_;
        }
    }

    // Moves to `to`, counting the lines passed.
    void advance_to(std::size_t to) {
        to = std::min(to, s_.size());
        line_ += static_cast<int>(std::count(s_.begin() + static_cast<std::ptrdiff_t>(i_),
                                             s_.begin() + static_cast<std::ptrdiff_t>(to),
                                             '\n'));
        i_ = to;
    }

    // Whether a tag line ("[Name "value"]" alone on its line) starts at `pos`.
    [[nodiscard]] bool tag_line_at(std::size_t pos) const {
        if (pos >= s_.size() || s_[pos] != '[') {
            return false;
        }
        const std::size_t end       = std::min(s_.find('\n', pos), s_.size());
        const std::string_view line = trim(s_.substr(pos, end - pos));
        const std::size_t quote     = line.find('"');
        return line.size() >= 4 && line.back() == ']' && quote != std::string_view::npos &&
               quote > 1 && line.find('"', quote + 1) != std::string_view::npos;
    }

    // The first line after `from` that is a tag line (its '[' position), or npos. Comments,
    // variations and setups never run across one: a missing '}' or ')' ends there.
    [[nodiscard]] std::size_t next_tag_line(std::size_t from) const {
        std::size_t nl = s_.find('\n', from);
        while (nl != std::string_view::npos) {
            std::size_t k = nl + 1;
            while (k < s_.size() && (s_[k] == ' ' || s_[k] == '\t')) {
                ++k;
            }
            if (tag_line_at(k)) {
                return k;
            }
            nl = s_.find('\n', nl + 1);
        }
        return std::string_view::npos;
    }

    // --- games -------------------------------------------------------------------------------

    void begin_game() {
        if (in_game_) {
            return;
        }
        in_game_         = true;
        body_seen_       = false;
        skipping_        = false;
        blank_since_tag_ = false;
        pending_number_  = 0;
        cur_             = RawGame{};
        cur_.number      = static_cast<int>(games_.size()) + 1;
        cur_.line        = line_;
        junk_            = std::move(pending_junk_);
        pending_junk_    = JunkTally{};
    }

    void begin_body() {
        if (!in_game_) {
            begin_game();
            cur_.tokens = std::move(pending_comments_);
        }
        pending_comments_.clear();
        body_seen_ = true;
    }

    void finish_game(std::optional<std::string> terminator) {
        if (!in_game_) {
            return;
        }
        cur_.terminator = std::move(terminator);
        if (junk_.count > 0) {
            std::string text = "line " + std::to_string(junk_.line) + ": skipped '" + junk_.first +
                               "' before the move text";
            if (junk_.count > 1) {
                text += " (and " + std::to_string(junk_.count - 1) + " more like it)";
            }
            cur_.notes.insert(cur_.notes.begin(), std::move(text));
            junk_ = JunkTally{};
        }
        games_.push_back(std::move(cur_));
        cur_       = RawGame{};
        in_game_   = false;
        body_seen_ = false;
        skipping_  = false;
    }

    void syntax_error(int line, std::string what) {
        if (!cur_.error) {
            cur_.error = SyntaxError{std::move(what), line};
        }
        // In the move text nothing after a syntax error can be trusted: skip to a resync point.
        // In the header the next tags still belong to this game.
        if (body_seen_) {
            skipping_ = true;
        }
    }

    void note_junk(int line, std::string_view word) {
        JunkTally& t = in_game_ ? junk_ : pending_junk_;
        if (t.count++ == 0) {
            t.line  = line;
            t.first = std::string(utf8_prefix(word, kQuoteBytes));
        }
    }

    // --- recovery ----------------------------------------------------------------------------

    // While skipping: a tag, or a blank line followed by a first move number, starts a new game.
    bool resynchronised() {
        const bool new_game = s_[i_] == '[' || (blank_before_ && first_move_number_here());
        if (new_game) {
            finish_game(std::nullopt);
        }
        return new_game;
    }

    [[nodiscard]] bool first_move_number_here() const {
        std::size_t j = i_;
        while (j < s_.size() && !is_delimiter(s_[j])) {
            ++j;
        }
        return move_number_prefix(s_.substr(i_, j - i_)).first == 1;
    }

    // Skips one comment, bracket or word of a game being skipped; a result word ends the game.
    void skip_unit() {
        const char c = s_[i_];
        if (c == '{') {
            const std::size_t close = s_.find('}', i_ + 1);
            const std::size_t bound = next_tag_line(i_ + 1);
            advance_to(close == std::string_view::npos ||
                               (bound != std::string_view::npos && bound < close)
                           ? bound
                           : close + 1);
            return;
        }
        if (is_delimiter(c)) {
            ++i_;
            return;
        }
        const std::size_t start = i_;
        while (i_ < s_.size() && !is_delimiter(s_[i_])) {
            ++i_;
        }
        const std::string_view word = s_.substr(start, i_ - start);
        if (is_result_word(word)) {
            finish_game(std::string(word));
        }
    }

    // --- tags --------------------------------------------------------------------------------

    struct TagRead {
        std::string name;
        std::string value;
        std::size_t end = 0;  // after the ']'
        std::string error;    // empty when the tag reads
    };

    // Unescapes \" and \\ in a quoted value.
    static std::string unescape(std::string_view v) {
        std::string out;
        for (std::size_t k = 0; k < v.size(); ++k) {
            if (v[k] == '\\' && k + 1 < v.size() && (v[k + 1] == '"' || v[k + 1] == '\\')) {
                out += v[++k];
            } else {
                out += v[k];
            }
        }
        return out;
    }

    // A tag on one line: `[Name "value"]`, read liberally: a name of any characters but
    // white space, quotes and brackets (several words when a quoted value follows), an
    // unquoted value, quotes inside the value when the line ends in `"]`.
    [[nodiscard]] TagRead parse_tag(std::size_t at) const {
        TagRead t;
        const std::size_t eol       = std::min(s_.find('\n', at), s_.size());
        const std::string_view line = s_.substr(at, eol - at);  // starts with '['
        std::size_t j               = 1;
        while (j < line.size() && (line[j] == ' ' || line[j] == '\t')) {
            ++j;
        }
        const std::size_t name_start = j;
        while (j < line.size() && !is_space(line[j]) && line[j] != '"' && line[j] != ']' &&
               line[j] != '[' && line[j] != '{' && line[j] != '}') {
            ++j;
        }
        const std::string first_word(line.substr(name_start, j - name_start));
        if (first_word.empty()) {
            t.error = "malformed tag";
            return t;
        }
        const std::size_t quote   = line.find('"', j);
        const std::size_t bracket = line.find(']', j);
        if (quote != std::string_view::npos &&
            (bracket == std::string_view::npos || quote < bracket)) {
            const std::string_view name = trim(line.substr(name_start, quote - name_start));
            if (name.find_first_of("[]{}") != std::string_view::npos) {
                t.error = "malformed tag";
                return t;
            }
            t.name = std::string(name);
            // The closing quote: the first unescaped one.
            std::size_t k = quote + 1;
            while (k < line.size() && line[k] != '"') {
                k += (line[k] == '\\' && k + 1 < line.size()) ? 2U : 1U;
            }
            if (k >= line.size()) {
                t.error = "unterminated tag [" + std::string(utf8_prefix(t.name, kQuoteBytes));
                return t;
            }
            std::size_t after = k + 1;
            while (after < line.size() &&
                   (line[after] == ' ' || line[after] == '\t' || line[after] == '\r')) {
                ++after;
            }
            if (after < line.size() && line[after] == ']') {
                t.value = unescape(line.substr(quote + 1, k - quote - 1));
                t.end   = at + after + 1;
                return t;
            }
            // Unescaped quotes inside the value: the value ends at the last `"` before `]`.
            const std::size_t last_bracket = line.rfind(']');
            if (last_bracket != std::string_view::npos && last_bracket > k) {
                std::size_t q = last_bracket;
                while (q > k && (line[q - 1] == ' ' || line[q - 1] == '\t')) {
                    --q;
                }
                if (q > k && line[q - 1] == '"') {
                    t.value = unescape(line.substr(quote + 1, q - 1 - quote - 1));
                    t.end   = at + last_bracket + 1;
                    return t;
                }
            }
            t.error = "unterminated tag [" + std::string(utf8_prefix(t.name, kQuoteBytes));
            return t;
        }
        t.name = first_word;
        if (bracket == std::string_view::npos) {
            t.error = "unterminated tag [" + std::string(utf8_prefix(t.name, kQuoteBytes));
            return t;
        }
        // Unquoted value (seen in the wild): up to ']'.
        t.value = std::string(trim(line.substr(j, bracket - j)));
        t.end   = at + bracket + 1;
        return t;
    }

    void read_tag() {
        const int line = line_;
        if (in_game_ && body_seen_) {
            finish_game(std::nullopt);  // a new header: the game before had no terminator
        }
        TagRead t = parse_tag(i_);
        if (!t.error.empty()) {
            begin_game();
            syntax_error(line, t.error);
            skip_to_line_end();
            return;
        }
        // A header without move text, then the next game's header: a repeated tag after a
        // blank line starts a new game (without the blank line it stays: files repeat Event).
        if (in_game_ && !body_seen_ && blank_since_tag_ && cur_.find_tag(t.name) != nullptr) {
            finish_game(std::nullopt);
        }
        pending_comments_.clear();  // comments before a header: the file's, dropped
        begin_game();
        blank_since_tag_ = false;
        i_               = t.end;
        cur_.tags.push_back(Tag{std::move(t.name), std::move(t.value), line});
    }

    // --- comments, variations, setups, NAGs --------------------------------------------------

    void read_comment() {
        const int line          = line_;
        const std::size_t close = s_.find('}', i_ + 1);
        const std::size_t bound = next_tag_line(i_ + 1);
        if (close == std::string_view::npos || (bound != std::string_view::npos && bound < close)) {
            begin_game();
            syntax_error(line, "unterminated comment '{'");
            advance_to(bound);  // npos: the end of the text
            skipping_ = false;  // the next tag (if any) starts the next game
            return;
        }
        const std::string_view body = s_.substr(i_ + 1, close - i_ - 1);
        advance_to(close + 1);
        std::string text = collapse_space(body);
        if (text.empty()) {
            return;
        }
        // Before any game: the file's commentary (dropped) unless move text follows.
        (in_game_ ? cur_.tokens : pending_comments_)
            .push_back(Token{TokenKind::Comment, std::move(text), line, 0});
    }

    // The text of a variation starting at '(' (nesting and comments included), or nullopt
    // when it is not closed before the end or the next tag line. `end` is set after the ')'.
    [[nodiscard]] std::optional<std::string> variation_text(std::size_t& end) const {
        const std::size_t bound = std::min(next_tag_line(i_ + 1), s_.size());
        std::string text;
        int depth     = 0;
        std::size_t k = i_;
        while (k < bound) {
            const char c = s_[k];
            if (c == '{') {
                const std::size_t close = s_.find('}', k + 1);
                if (close == std::string_view::npos || close >= bound) {
                    return std::nullopt;
                }
                text.append(s_.substr(k, close + 1 - k));
                k = close + 1;
                continue;
            }
            if (c == '%' && k > 0 && s_[k - 1] == '\n') {
                while (k < bound && s_[k] != '\n') {
                    ++k;  // a line comment inside the variation: dropped
                }
                continue;
            }
            if (c == '[') {
                return std::nullopt;  // no tags inside move text
            }
            if (c == '(') {
                ++depth;
                if (depth == 1) {
                    ++k;
                    continue;
                }
            } else if (c == ')') {
                if (--depth == 0) {
                    end = k + 1;
                    return collapse_space(text);
                }
            }
            text += c;
            ++k;
        }
        return std::nullopt;
    }

    // "(!)", "(?)", "(!?)": a move strength; anything else is a variation.
    void read_parenthesis() {
        std::size_t j = i_ + 1;
        while (j < s_.size() && (s_[j] == '!' || s_[j] == '?')) {
            ++j;
        }
        if (j > i_ + 1 && j < s_.size() && s_[j] == ')') {
            if (in_game_) {
                cur_.tokens.push_back(
                    Token{TokenKind::Mark, std::string(s_.substr(i_, j + 1 - i_)), line_, 0});
            }
            i_ = j + 1;
            return;
        }
        const int line  = line_;
        std::size_t end = 0;
        auto text       = variation_text(end);
        begin_body();
        if (!text) {
            syntax_error(line, "unterminated variation '('");
            advance_to(next_tag_line(i_ + 1));
            skipping_ = false;
            return;
        }
        advance_to(end);
        cur_.tokens.push_back(Token{TokenKind::Variation, std::move(*text), line, 0});
    }

    void read_setup() {
        const int line          = line_;
        const std::size_t close = s_.find('/', i_ + 1);
        const std::size_t bound = next_tag_line(i_ + 1);
        begin_body();
        if (close == std::string_view::npos || (bound != std::string_view::npos && bound < close)) {
            syntax_error(line, "unterminated setup '/'");
            skip_to_line_end();
            return;
        }
        const std::string_view body = s_.substr(i_ + 1, close - i_ - 1);
        advance_to(close + 1);
        cur_.tokens.push_back(Token{TokenKind::Setup, std::string(body), line, 0});
    }

    void read_nag() {
        const std::size_t start = i_++;
        while (i_ < s_.size() && is_digit(s_[i_])) {
            ++i_;
        }
        if (in_game_ && i_ > start + 1) {
            cur_.tokens.push_back(
                Token{TokenKind::Mark, std::string(s_.substr(start, i_ - start)), line_, 0});
        }
    }

    // --- words -------------------------------------------------------------------------------

    std::string_view next_word() {
        const std::size_t start = i_;
        while (i_ < s_.size() && !is_delimiter(s_[i_])) {
            ++i_;
        }
        return s_.substr(start, i_ - start);
    }

    static std::string strip_strength(std::string& word) {
        std::size_t k = word.size();
        while (k > 0 && (word[k - 1] == '!' || word[k - 1] == '?')) {
            --k;
        }
        std::string mark = word.substr(k);
        word.resize(k);
        return mark;
    }

    [[nodiscard]] bool has_move_token() const {
        return std::any_of(cur_.tokens.begin(), cur_.tokens.end(), [](const Token& t) {
            return t.kind == TokenKind::Move;
        });
    }

    void read_word() {
        const int line             = line_;
        const bool blank           = blank_before_;
        const std::string_view raw = next_word();
        if (raw.empty()) {
            ++i_;  // cannot happen (delimiters are handled by the caller); never loop
            return;
        }
        if (is_result_word(raw)) {
            if (in_game_) {
                begin_body();
                finish_game(std::string(raw));
            }
            pending_comments_.clear();
            return;  // a lone separator between games
        }
        if (!body_seen_ && !is_move_like(raw)) {
            note_junk(line, raw);
            return;
        }
        std::string word(raw);
        if (const auto [number, length] = move_number_prefix(word); length > 0) {
            if (in_game_ && body_seen_ && blank && number == 1 && has_move_token()) {
                finish_game(std::nullopt);  // a blank line, then "1.": the next game
            }
            begin_body();
            pending_number_ = number;
            word.erase(0, length);
        }
        if (word.find_first_not_of('.') == std::string::npos) {
            return;  // "..." on its own, or the number alone
        }
        std::string mark = strip_strength(word);
        // "1- 7", "18x 9": a separator followed by spaces inside a move (old files).
        while (!word.empty() && is_move_separator(word.back())) {
            std::size_t j = i_;
            while (j < s_.size() && (s_[j] == ' ' || s_[j] == '\t')) {
                ++j;
            }
            if (j >= s_.size() || is_delimiter(s_[j])) {
                break;
            }
            i_ = j;
            word += next_word();
            mark = strip_strength(word);
        }
        if (word.empty()) {
            return;
        }
        begin_body();
        cur_.tokens.push_back(Token{TokenKind::Move, std::move(word), line, pending_number_});
        pending_number_ = 0;
        if (!mark.empty()) {
            cur_.tokens.push_back(Token{TokenKind::Mark, std::move(mark), line, 0});
        }
    }
};

}  // namespace

const Tag* RawGame::find_tag(std::string_view name) const {
    for (const Tag& t : tags) {
        if (iequals(t.name, name)) {
            return &t;
        }
    }
    return nullptr;
}

std::vector<RawGame> lex(std::string_view text) {
    return Lexer(text).run();
}

}  // namespace papan::core::pdn
