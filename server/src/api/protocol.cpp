#include <papan/server/protocol.hpp>

#include <nlohmann/json.hpp>

#include <array>
#include <utility>

namespace papan::server {

namespace {

using Json = nlohmann::json;

constexpr std::array<std::pair<MessageType, std::string_view>, 18> kTypes{{
    {MessageType::Hello, "hello"},
    {MessageType::Create, "create"},
    {MessageType::Join, "join"},
    {MessageType::Resume, "resume"},
    {MessageType::Move, "move"},
    {MessageType::Resign, "resign"},
    {MessageType::DrawOffer, "draw_offer"},
    {MessageType::DrawAccept, "draw_accept"},
    {MessageType::DrawDecline, "draw_decline"},
    {MessageType::DrawClaim, "draw_claim"},
    {MessageType::Undo, "undo"},
    {MessageType::Rematch, "rematch"},
    {MessageType::Seek, "seek"},
    {MessageType::CancelSeek, "cancel_seek"},
    {MessageType::TakebackOffer, "takeback_offer"},
    {MessageType::TakebackAccept, "takeback_accept"},
    {MessageType::TakebackDecline, "takeback_decline"},
    {MessageType::Chat, "chat"},
}};

struct FieldError {
    std::string message;
};

std::string get_string(const Json& j, const char* key, std::size_t max_len = 256) {
    const auto it = j.find(key);
    if (it == j.end() || it->is_null()) {
        return {};
    }
    if (!it->is_string()) {
        throw FieldError{std::string("field '") + key + "' must be a string"};
    }
    auto s = it->get<std::string>();
    if (s.size() > max_len) {
        throw FieldError{std::string("field '") + key + "' is too long"};
    }
    return s;
}

std::optional<std::int64_t> get_int(const Json& j, const char* key) {
    const auto it = j.find(key);
    if (it == j.end() || it->is_null()) {
        return std::nullopt;
    }
    if (!it->is_number_integer()) {
        throw FieldError{std::string("field '") + key + "' must be an integer"};
    }
    return it->get<std::int64_t>();
}

std::optional<int> get_small_int(const Json& j, const char* key) {
    const auto v = get_int(j, key);
    if (!v) {
        return std::nullopt;
    }
    if (*v < 0 || *v > 1'000'000) {
        throw FieldError{std::string("field '") + key + "' is out of range"};
    }
    return static_cast<int>(*v);
}

std::vector<int> get_int_list(const Json& j, const char* key) {
    const auto it = j.find(key);
    if (it == j.end() || it->is_null()) {
        return {};
    }
    if (!it->is_array() || it->size() > 64) {
        throw FieldError{std::string("field '") + key + "' must be a list of square numbers"};
    }
    std::vector<int> out;
    for (const auto& v : *it) {
        if (!v.is_number_integer() || v.get<std::int64_t>() < 0 || v.get<std::int64_t>() > 999) {
            throw FieldError{std::string("field '") + key + "' must be a list of square numbers"};
        }
        out.push_back(v.get<int>());
    }
    return out;
}

bool get_bool(const Json& j, const char* key) {
    const auto it = j.find(key);
    if (it == j.end() || it->is_null()) {
        return false;
    }
    if (!it->is_boolean()) {
        throw FieldError{std::string("field '") + key + "' must be true or false"};
    }
    return it->get<bool>();
}

std::int64_t seconds_ms(const Json& c, const char* key, std::int64_t def) {
    const auto it = c.find(key);
    if (it == c.end() || it->is_null()) {
        return def;
    }
    if (!it->is_number() || it->get<double>() < 0 || it->get<double>() > 24 * 3600) {
        throw FieldError{std::string("clock field '") + key + "' must be seconds (0..86400)"};
    }
    return static_cast<std::int64_t>(it->get<double>() * 1000.0);
}

TimeControl get_clock(const Json& c) {
    if (!c.is_object()) {
        throw FieldError{"field 'clock' must be an object or null"};
    }
    const std::string kind = get_string(c, "kind");
    TimeControl tc;
    if (kind == "byoyomi" || kind.empty()) {
        tc.kind      = TimeKind::ByoYomi;
        tc.main_ms   = seconds_ms(c, "main", 300);
        tc.period_ms = seconds_ms(c, "period", 30);
        const auto p = get_small_int(c, "periods");
        tc.periods   = p.value_or(3);
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

}  // namespace

std::string_view message_type_name(MessageType t) noexcept {
    for (const auto& [type, name] : kTypes) {
        if (type == t) {
            return name;
        }
    }
    return "?";
}

std::optional<MessageType> message_type_from_name(std::string_view s) noexcept {
    for (const auto& [type, name] : kTypes) {
        if (name == s) {
            return type;
        }
    }
    return std::nullopt;
}

std::variant<ClientMessage, ProtocolError> decode_client_message(std::string_view text) {
    Json j = Json::parse(text, nullptr, false);
    if (j.is_discarded()) {
        return ProtocolError{"bad_json", "the message is not valid JSON"};
    }
    if (!j.is_object()) {
        return ProtocolError{"bad_message", "a message must be a JSON object"};
    }
    const auto t = j.find("type");
    if (t == j.end() || !t->is_string()) {
        return ProtocolError{"bad_message", "a message needs a string field 'type'"};
    }
    const auto type = message_type_from_name(t->get<std::string>());
    if (!type) {
        return ProtocolError{"unknown_type",
                             "unknown message type '" + t->get<std::string>().substr(0, 40) + "'"};
    }
    ClientMessage m;
    m.type = *type;
    try {
        m.id       = get_int(j, "id");
        m.name     = get_string(j, "name", 64);
        m.secret   = get_string(j, "secret", 128);
        m.token    = get_string(j, "token", 128);
        m.game     = get_string(j, "game", 64);
        m.ply      = get_small_int(j, "ply");
        m.path     = get_int_list(j, "path");
        m.from     = get_small_int(j, "from");
        m.to       = get_small_int(j, "to");
        m.captures = get_int_list(j, "captures");
        // A chat line is measured in characters once cleaned (the room: chat_too_long); the
        // frame limit bounds its bytes.
        m.text       = get_string(j, "text", m.type == MessageType::Chat ? kMaxMessageBytes : 200);
        m.mode       = get_string(j, "mode", 32);
        m.variant    = get_string(j, "variant", 32);
        m.level      = get_string(j, "level", 32);
        m.color      = get_string(j, "color", 32);
        m.draw_rules = get_string(j, "draw_rules", 32);
        m.fen        = get_string(j, "fen", 400);
        m.rated      = get_bool(j, "rated");
        m.invite     = get_string(j, "invite", 128);
        m.last_version = get_int(j, "last_version");
        if (const auto o = j.find("options"); o != j.end() && !o->is_null()) {
            if (!o->is_object()) {
                throw FieldError{"field 'options' must be an object"};
            }
            m.no_forced_capture = get_bool(*o, "no_forced_capture");
            if (m.draw_rules.empty()) {
                m.draw_rules = get_string(*o, "draw_rules", 32);
            }
        }
        if (const auto c = j.find("clock"); c != j.end()) {
            if (c->is_null()) {
                m.no_clock = true;
            } else {
                m.clock = get_clock(*c);
            }
        }
    } catch (const FieldError& e) {
        return ProtocolError{"bad_message", e.message};
    }
    return m;
}

}  // namespace papan::server
