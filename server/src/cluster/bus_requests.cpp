#include "cluster/bus_requests.hpp"

#include <papan/server/wire/names.hpp>

namespace papan::server {

using Json = nlohmann::json;

namespace {

Json move_json(const MoveRequest& m) {
    Json j = Json::object();
    if (m.ply) {
        j["ply"] = *m.ply;
    }
    if (!m.path.empty()) {
        j["path"] = m.path;
    }
    if (m.from) {
        j["from"] = *m.from;
    }
    if (m.to) {
        j["to"] = *m.to;
    }
    if (!m.captures.empty()) {
        j["captures"] = m.captures;
    }
    if (!m.text.empty()) {
        j["text"] = m.text;
    }
    return j;
}

std::optional<int> small_int(const Json& j, const char* key) {
    const auto it = j.find(key);
    if (it == j.end() || !it->is_number_integer()) {
        return std::nullopt;
    }
    const auto v = it->get<std::int64_t>();
    return v >= 0 && v <= 1'000'000 ? std::optional<int>(static_cast<int>(v)) : std::nullopt;
}

std::vector<int> squares(const Json& j, const char* key) {
    std::vector<int> out;
    const auto it = j.find(key);
    if (it == j.end() || !it->is_array() || it->size() > 64) {
        return out;
    }
    for (const auto& v : *it) {
        if (v.is_number_integer() && v.get<std::int64_t>() >= 0 && v.get<std::int64_t>() <= 999) {
            out.push_back(v.get<int>());
        }
    }
    return out;
}

std::string text(const Json& j, const char* key) {
    const auto it = j.find(key);
    return it != j.end() && it->is_string() ? it->get<std::string>() : std::string{};
}

}  // namespace

Json request_json(const GameRequest& r) {
    Json j{{"game", r.game}};
    if (r.ref) {
        j["ref"] = *r.ref;
    }
    if (const auto* c = std::get_if<GameCommand>(&r.what)) {
        Json cmd{{"kind", wire::name(c->kind)}};
        if (c->kind == CommandKind::Chat) {
            cmd["text"] = c->text;
        } else if (c->kind == CommandKind::Move) {
            cmd["move"] = move_json(c->move);
        }
        j["command"] = std::move(cmd);
    } else if (const auto* join = std::get_if<JoinRequest>(&r.what)) {
        j["join"] = {{"invite_hash", join->invite_hash}, {"name", join->name}};
    } else if (const auto* resume = std::get_if<ResumeRequest>(&r.what)) {
        j["resume"] =
            resume->last_version ? Json{{"last_version", *resume->last_version}} : Json::object();
    }
    return j;
}

std::optional<GameRequest> request_from_json(const Json& j) {
    if (!j.is_object() || !j.contains("game") || !j["game"].is_string()) {
        return std::nullopt;
    }
    GameRequest r;
    r.game = j["game"].get<std::string>();
    if (const auto it = j.find("ref"); it != j.end() && it->is_number_integer()) {
        r.ref = it->get<std::int64_t>();
    }
    if (const auto it = j.find("command"); it != j.end() && it->is_object()) {
        const auto kind = wire::parse_command(text(*it, "kind"));
        if (!kind) {
            return std::nullopt;
        }
        GameCommand c;
        c.kind = *kind;
        if (*kind == CommandKind::Chat) {
            c.text = text(*it, "text");
        } else if (const auto m = it->find("move"); m != it->end() && m->is_object()) {
            c.move.ply      = small_int(*m, "ply");
            c.move.path     = squares(*m, "path");
            c.move.from     = small_int(*m, "from");
            c.move.to       = small_int(*m, "to");
            c.move.captures = squares(*m, "captures");
            c.move.text     = text(*m, "text");
        }
        r.what = std::move(c);
        return r;
    }
    if (const auto it = j.find("join"); it != j.end() && it->is_object()) {
        r.what = JoinRequest{r.game, text(*it, "invite_hash"), text(*it, "name")};
        return r;
    }
    if (const auto it = j.find("resume"); it != j.end() && it->is_object()) {
        ResumeRequest resume;
        if (const auto v = it->find("last_version"); v != it->end() && v->is_number_integer()) {
            resume.last_version = v->get<std::int64_t>();
        }
        r.what = resume;
        return r;
    }
    return std::nullopt;
}

}  // namespace papan::server
