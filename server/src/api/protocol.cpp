// The decoder of client messages (protocol.hpp): nlohmann's SAX reader hands the tokens of the
// text to a Reader that keeps only the fields of the protocol, shallowly (a value, an array of
// integers, or an object of values); nothing else is built. The fields are then checked in one
// fixed order, so a message with several faults always gets the same error.
#include <papan/core/rules/registry.hpp>
#include <papan/server/protocol.hpp>
#include <papan/server/wire/names.hpp>

#include <nlohmann/json.hpp>

#include <array>
#include <limits>
#include <utility>
#include <vector>

namespace papan::server {

namespace {

using Json = nlohmann::json;

// The message types that are not a game command; those that are take their command's name
// (wire::name(CommandKind)).
constexpr std::array<std::pair<MessageType, std::string_view>, 6> kRequestTypes{{
    {MessageType::Hello, "hello"},
    {MessageType::Create, "create"},
    {MessageType::Join, "join"},
    {MessageType::Resume, "resume"},
    {MessageType::Seek, "seek"},
    {MessageType::CancelSeek, "cancel_seek"},
}};

constexpr std::array<std::pair<MessageType, CommandKind>, 12> kCommandTypes{{
    {MessageType::Move, CommandKind::Move},
    {MessageType::Resign, CommandKind::Resign},
    {MessageType::DrawOffer, CommandKind::DrawOffer},
    {MessageType::DrawAccept, CommandKind::DrawAccept},
    {MessageType::DrawDecline, CommandKind::DrawDecline},
    {MessageType::DrawClaim, CommandKind::DrawClaim},
    {MessageType::Undo, CommandKind::Undo},
    {MessageType::Rematch, CommandKind::Rematch},
    {MessageType::TakebackOffer, CommandKind::TakebackOffer},
    {MessageType::TakebackAccept, CommandKind::TakebackAccept},
    {MessageType::TakebackDecline, CommandKind::TakebackDecline},
    {MessageType::Chat, CommandKind::Chat},
}};

std::optional<CommandKind> command_of(MessageType t) {
    for (const auto& [type, command] : kCommandTypes) {
        if (type == t) {
            return command;
        }
    }
    return std::nullopt;
}

// The fields a message may have: every other key is skipped unread.
constexpr std::array<std::string_view, 23> kFields{
    "type",       "id",  "name",     "secret", "token",        "game",    "ply",   "path",
    "from",       "to",  "captures", "text",   "mode",         "variant", "level", "color",
    "draw_rules", "fen", "rated",    "invite", "last_version", "options", "clock"};

// One field as read: a value, an array (its integer elements), or an object (its members' values;
// anything deeper is only counted).
struct Value {
    enum class Kind : std::uint8_t {
        Null,
        Bool,
        Int,
        Float,
        String,
        Array,
        Object,
        Deep
    };

    Kind kind      = Kind::Null;
    bool boolean   = false;
    std::int64_t i = 0;
    double f       = 0;
    bool int_ok    = true;  // Int: fits an int64
    std::string s;
    std::vector<std::int64_t> ints;  // Array: its integer elements
    bool only_ints    = true;        // Array: every element is an integer that fits
    std::size_t count = 0;           // Array: elements
    std::vector<std::pair<std::string, Value>> members;  // Object

    [[nodiscard]] const Value* member(std::string_view key) const {
        for (auto it = members.rbegin(); it != members.rend(); ++it) {  // the last one wins
            if (it->first == key) {
                return &it->second;
            }
        }
        return nullptr;
    }
};

// The SAX handler: the top-level object's known fields, one level deep.
class Reader {
public:
    std::array<std::optional<Value>, kFields.size()> fields;
    bool top_object = false;
    bool not_object = false;
    bool failed     = false;

    bool null() {
        return scalar([](Value& v) { v.kind = Value::Kind::Null; });
    }

    bool boolean(bool b) {
        return scalar([b](Value& v) {
            v.kind    = Value::Kind::Bool;
            v.boolean = b;
        });
    }

    bool number_integer(Json::number_integer_t n) { return integer(n, true); }

    bool number_unsigned(Json::number_unsigned_t n) {
        const bool fits = n <= static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
        return integer(fits ? static_cast<std::int64_t>(n) : 0, fits);
    }

    bool number_float(Json::number_float_t d, const std::string&) {
        return scalar([d](Value& v) {
            v.kind = Value::Kind::Float;
            v.f    = d;
        });
    }

    bool string(std::string& s) {
        return scalar([&s](Value& v) {
            v.kind = Value::Kind::String;
            v.s    = std::move(s);
        });
    }

    bool binary(Json::binary_t&) {
        return scalar([](Value& v) { v.kind = Value::Kind::Deep; });
    }

    bool start_object(std::size_t) { return open(Value::Kind::Object); }

    bool start_array(std::size_t) { return open(Value::Kind::Array); }

    bool end_object() { return close(); }

    bool end_array() { return close(); }

    bool key(std::string& k) {
        if (depth_ == 1) {
            field_ = nullptr;
            for (std::size_t i = 0; i < kFields.size(); ++i) {
                if (kFields[i] == k) {
                    fields[i].emplace();  // a repeated key: the last one wins
                    field_ = &*fields[i];
                }
            }
        } else if (depth_ == 2 && field_ != nullptr && field_->kind == Value::Kind::Object) {
            field_->members.emplace_back(std::move(k), Value{});
        }
        return true;
    }

    bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) {
        failed = true;
        return false;
    }

private:
    // The value a scalar at the current place is: a top-level field, an element of a field's
    // array, or a member of a field's object; nullptr when it is none of these.
    template <class F>
    bool scalar(F set) {
        if (depth_ == 0) {
            not_object = true;
            return true;
        }
        if (field_ == nullptr) {
            return true;
        }
        if (depth_ == 1) {
            set(*field_);
        } else if (depth_ == 2 && field_->kind == Value::Kind::Array) {
            Value v;
            set(v);
            ++field_->count;
            if (v.kind == Value::Kind::Int && v.int_ok) {
                field_->ints.push_back(v.i);
            } else {
                field_->only_ints = false;
            }
        } else if (depth_ == 2 && field_->kind == Value::Kind::Object && !field_->members.empty()) {
            set(field_->members.back().second);
        }
        return true;
    }

    bool integer(std::int64_t n, bool fits) {
        return scalar([n, fits](Value& v) {
            v.kind   = Value::Kind::Int;
            v.i      = n;
            v.int_ok = fits;
        });
    }

    bool open(Value::Kind kind) {
        if (depth_ == 0 && kind != Value::Kind::Object) {
            not_object = true;
        } else if (depth_ == 0) {
            top_object = true;
        } else if (field_ != nullptr) {
            if (depth_ == 1) {
                field_->kind = kind;
            } else if (depth_ == 2) {
                if (field_->kind == Value::Kind::Array) {
                    ++field_->count;
                    field_->only_ints = false;
                } else if (field_->kind == Value::Kind::Object && !field_->members.empty()) {
                    field_->members.back().second.kind = Value::Kind::Deep;
                }
            }
        }
        ++depth_;
        return true;
    }

    bool close() {
        --depth_;
        if (depth_ == 1) {
            field_ = nullptr;  // the next key names the next field
        }
        return true;
    }

    int depth_    = 0;
    Value* field_ = nullptr;
};

struct FieldError {
    std::string message;
};

class Fields {
public:
    explicit Fields(const Reader& r) : r_(r) {}

    [[nodiscard]] const Value* get(std::string_view key) const {
        for (std::size_t i = 0; i < kFields.size(); ++i) {
            if (kFields[i] == key) {
                const auto& f = r_.fields[i];
                return f && f->kind != Value::Kind::Null ? &*f : nullptr;
            }
        }
        return nullptr;
    }

    [[nodiscard]] bool present(std::string_view key) const {
        for (std::size_t i = 0; i < kFields.size(); ++i) {
            if (kFields[i] == key) {
                return r_.fields[i].has_value();
            }
        }
        return false;
    }

private:
    const Reader& r_;
};

std::string text_of(const Value* v, std::string_view key, std::size_t max_len) {
    if (v == nullptr || v->kind == Value::Kind::Null) {
        return {};
    }
    if (v->kind != Value::Kind::String) {
        throw FieldError{"field '" + std::string(key) + "' must be a string"};
    }
    if (v->s.size() > max_len) {
        throw FieldError{"field '" + std::string(key) + "' is too long"};
    }
    return v->s;
}

std::optional<std::int64_t> int_of(const Value* v, std::string_view key) {
    if (v == nullptr || v->kind == Value::Kind::Null) {
        return std::nullopt;
    }
    if (v->kind != Value::Kind::Int || !v->int_ok) {
        throw FieldError{"field '" + std::string(key) + "' must be an integer"};
    }
    return v->i;
}

std::optional<int> small_int_of(const Value* v, std::string_view key) {
    const auto n = int_of(v, key);
    if (!n) {
        return std::nullopt;
    }
    if (*n < 0 || *n > 1'000'000) {
        throw FieldError{"field '" + std::string(key) + "' is out of range"};
    }
    return static_cast<int>(*n);
}

std::vector<int> squares_of(const Value* v, std::string_view key) {
    if (v == nullptr || v->kind == Value::Kind::Null) {
        return {};
    }
    const auto bad = [&] {
        return FieldError{"field '" + std::string(key) + "' must be a list of square numbers"};
    };
    if (v->kind != Value::Kind::Array || v->count > 64 || !v->only_ints) {
        throw bad();
    }
    std::vector<int> out;
    out.reserve(v->ints.size());
    for (const auto n : v->ints) {
        if (n < 0 || n > 999) {
            throw bad();
        }
        out.push_back(static_cast<int>(n));
    }
    return out;
}

bool bool_of(const Value* v, std::string_view key) {
    if (v == nullptr || v->kind == Value::Kind::Null) {
        return false;
    }
    if (v->kind != Value::Kind::Bool) {
        throw FieldError{"field '" + std::string(key) + "' must be true or false"};
    }
    return v->boolean;
}

std::int64_t seconds_ms(const Value& clock, const char* key, std::int64_t def_seconds) {
    const Value* v = clock.member(key);
    if (v == nullptr || v->kind == Value::Kind::Null) {
        return def_seconds * 1000;
    }
    double s = 0;
    if (v->kind == Value::Kind::Int && v->int_ok) {
        s = static_cast<double>(v->i);
    } else if (v->kind == Value::Kind::Float) {
        s = v->f;
    } else {
        s = -1;
    }
    if (s < 0 || s > 24 * 3600) {
        throw FieldError{std::string("clock field '") + key + "' must be seconds (0..86400)"};
    }
    return static_cast<std::int64_t>(s * 1000.0);
}

TimeControl clock_of(const Value& c) {
    if (c.kind != Value::Kind::Object) {
        throw FieldError{"field 'clock' must be an object or null"};
    }
    const std::string kind = text_of(c.member("kind"), "kind", 256);
    TimeControl tc;
    if (kind == "byoyomi" || kind.empty()) {
        tc.kind      = TimeKind::ByoYomi;
        tc.main_ms   = seconds_ms(c, "main", 300);
        tc.period_ms = seconds_ms(c, "period", 30);
        tc.periods   = small_int_of(c.member("periods"), "periods").value_or(3);
        if (tc.periods > 10 || (tc.periods > 0 && tc.period_ms <= 0)) {
            throw FieldError{"clock: periods must be 0..10 with a positive period"};
        }
    } else if (kind == "fischer") {
        tc.kind         = TimeKind::Fischer;
        tc.main_ms      = seconds_ms(c, "main", 180);
        tc.increment_ms = seconds_ms(c, "increment", 2);
    } else {
        throw FieldError{"clock kind must be 'byoyomi' or 'fischer'"};
    }
    if (tc.main_ms <= 0 && tc.periods == 0) {
        throw FieldError{"clock: no time at all"};
    }
    return tc;
}

// Every field a message of any type may carry, checked for its type and bounds (the errors a
// client gets at once, as bad_message).
struct Decoded {
    std::optional<std::int64_t> id;
    std::string name, secret, token, game;
    MoveRequest move;
    std::string text, mode, variant, level, color, draw_rules, fen, invite;
    bool rated             = false;
    bool no_forced_capture = false;
    std::optional<std::int64_t> last_version;
    std::optional<TimeControl> clock;
    bool no_clock = false;
};

Decoded decode_fields(const Fields& f, MessageType type) {
    Decoded d;
    d.id            = int_of(f.get("id"), "id");
    d.name          = text_of(f.get("name"), "name", 64);
    d.secret        = text_of(f.get("secret"), "secret", 128);
    d.token         = text_of(f.get("token"), "token", 128);
    d.game          = text_of(f.get("game"), "game", 64);
    d.move.ply      = small_int_of(f.get("ply"), "ply");
    d.move.path     = squares_of(f.get("path"), "path");
    d.move.from     = small_int_of(f.get("from"), "from");
    d.move.to       = small_int_of(f.get("to"), "to");
    d.move.captures = squares_of(f.get("captures"), "captures");
    // A chat line is measured in characters once cleaned (the game: chat_too_long); the frame
    // limit bounds its bytes.
    d.text = text_of(f.get("text"), "text", type == MessageType::Chat ? kMaxMessageBytes : 200);
    d.move.text    = type == MessageType::Chat ? std::string{} : d.text;
    d.mode         = text_of(f.get("mode"), "mode", 32);
    d.variant      = text_of(f.get("variant"), "variant", 32);
    d.level        = text_of(f.get("level"), "level", 32);
    d.color        = text_of(f.get("color"), "color", 32);
    d.draw_rules   = text_of(f.get("draw_rules"), "draw_rules", 32);
    d.fen          = text_of(f.get("fen"), "fen", 400);
    d.rated        = bool_of(f.get("rated"), "rated");
    d.invite       = text_of(f.get("invite"), "invite", 128);
    d.last_version = int_of(f.get("last_version"), "last_version");
    if (const Value* o = f.get("options")) {
        if (o->kind != Value::Kind::Object) {
            throw FieldError{"field 'options' must be an object"};
        }
        d.no_forced_capture = bool_of(o->member("no_forced_capture"), "no_forced_capture");
        if (d.draw_rules.empty()) {
            d.draw_rules = text_of(o->member("draw_rules"), "draw_rules", 32);
        }
    }
    if (f.present("clock")) {
        if (const Value* c = f.get("clock")) {
            d.clock = clock_of(*c);
        } else {
            d.no_clock = true;
        }
    }
    return d;
}

std::optional<core::VariantId> variant_of(const std::string& key) {
    return core::variant_from_key(key.empty() ? "international" : key);
}

std::variant<CreateRequest, ProtocolError> create_of(const Decoded& d) {
    CreateRequest c;
    const auto v = variant_of(d.variant);
    if (!v) {
        return ProtocolError{ErrorCode::BadVariant, "unknown variant '" + d.variant + "'"};
    }
    c.variant       = *v;
    const auto mode = wire::parse_mode(d.mode.empty() ? "computer" : d.mode);
    if (!mode || *mode == GameMode::Random || *mode == GameMode::Imported) {
        return ProtocolError{ErrorCode::BadMode,
                             "mode must be computer, friend or hotseat (random games: 'seek')"};
    }
    c.mode                   = *mode;
    c.options.forced_capture = !d.no_forced_capture;
    const auto rules = wire::parse_draw_rules(d.draw_rules.empty() ? "standard" : d.draw_rules);
    if (!rules) {
        return ProtocolError{ErrorCode::BadOptions, "unknown draw rule set '" + d.draw_rules + "'"};
    }
    c.options.draw_rules = *rules;
    const auto level     = wire::parse_level(d.level.empty() ? "normal" : d.level);
    if (!level || *level == Level::None) {
        return ProtocolError{ErrorCode::BadLevel, "level must be easy, normal or hard"};
    }
    c.level = *level;
    if (d.color == "random") {
        c.random_color = true;
    } else if (!d.color.empty()) {
        const auto color = wire::parse_color(d.color);
        if (!color) {
            return ProtocolError{ErrorCode::BadColor, "color must be white, black or random"};
        }
        c.color = *color;
    }
    if (d.no_clock) {
        c.clock = TimeControl{};
    } else if (d.clock) {
        c.clock = *d.clock;
    }
    c.fen   = d.fen;
    c.rated = d.rated;
    return c;
}

void fill_request(ClientRequest& r, Decoded d) {
    switch (r.type) {
    case MessageType::Hello:
        r.what = Hello{std::move(d.name), std::move(d.secret), std::move(d.token)};
        return;
    case MessageType::Create:
        std::visit([&r](auto&& v) { r.what = std::move(v); }, create_of(d));
        return;
    case MessageType::Seek: {
        const auto v = variant_of(d.variant);
        if (!v) {
            r.what = ProtocolError{ErrorCode::BadVariant, "unknown variant '" + d.variant + "'"};
            return;
        }
        r.what = SeekRequest{*v, d.clock.value_or(default_time_control())};
        return;
    }
    case MessageType::CancelSeek:
        r.what = CancelSeek{};
        return;
    case MessageType::Join:
        if (d.invite.empty()) {
            r.what = ProtocolError{ErrorCode::BadMessage, "join needs the invite token ('invite')"};
            return;
        }
        r.what = JoinInvite{std::move(d.invite), std::move(d.name)};
        return;
    case MessageType::Resume:
    case MessageType::Move:
    case MessageType::Resign:
    case MessageType::DrawOffer:
    case MessageType::DrawAccept:
    case MessageType::DrawDecline:
    case MessageType::DrawClaim:
    case MessageType::Undo:
    case MessageType::Rematch:
    case MessageType::TakebackOffer:
    case MessageType::TakebackAccept:
    case MessageType::TakebackDecline:
    case MessageType::Chat:
        break;
    }
    if (d.game.empty()) {
        r.what = ProtocolError{ErrorCode::BadMessage, "this message needs the game id ('game')"};
        return;
    }
    GameRequest g;
    g.game = std::move(d.game);
    g.ref  = r.ref;
    if (r.type == MessageType::Resume) {
        g.what = ResumeRequest{d.last_version};
    } else {
        GameCommand c;
        c.kind = *command_of(r.type);
        if (c.kind == CommandKind::Chat) {
            c.text = std::move(d.text);
        } else {
            c.move = std::move(d.move);
        }
        g.what = std::move(c);
    }
    r.what = std::move(g);
}

}  // namespace

std::string_view message_type_name(MessageType t) noexcept {
    for (const auto& [type, name] : kRequestTypes) {
        if (type == t) {
            return name;
        }
    }
    if (const auto c = command_of(t)) {
        return wire::name(*c);
    }
    return "?";
}

std::optional<MessageType> message_type_from_name(std::string_view s) noexcept {
    for (const auto& [type, name] : kRequestTypes) {
        if (name == s) {
            return type;
        }
    }
    if (const auto c = wire::parse_command(s)) {
        for (const auto& [type, command] : kCommandTypes) {
            if (command == *c) {
                return type;
            }
        }
    }
    return std::nullopt;
}

std::variant<ClientRequest, ProtocolError> decode_client_message(std::string_view text) {
    Reader reader;
    const bool ok = Json::sax_parse(text, &reader);
    if (!ok || reader.failed) {
        return ProtocolError{ErrorCode::BadJson, "the message is not valid JSON"};
    }
    if (reader.not_object || !reader.top_object) {
        return ProtocolError{ErrorCode::BadMessage, "a message must be a JSON object"};
    }
    const Fields fields(reader);
    const Value* t = fields.get("type");
    if (t == nullptr || t->kind != Value::Kind::String) {
        return ProtocolError{ErrorCode::BadMessage, "a message needs a string field 'type'"};
    }
    const auto type = message_type_from_name(t->s);
    if (!type) {
        return ProtocolError{ErrorCode::UnknownType,
                             "unknown message type '" + t->s.substr(0, 40) + "'"};
    }
    ClientRequest r;
    r.type = *type;
    try {
        Decoded d = decode_fields(fields, *type);
        r.ref     = d.id;
        fill_request(r, std::move(d));
    } catch (const FieldError& e) {
        return ProtocolError{ErrorCode::BadMessage, e.message};
    }
    return r;
}

}  // namespace papan::server
