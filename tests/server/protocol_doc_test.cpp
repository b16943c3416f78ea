// docs/protocol.md and the code agree: every client example is accepted by the decoder, every
// server example has the fields the running server emits, and every message type is documented.
#include "api/router.hpp"
#include "harness.hpp"

#include <papan/server/protocol.hpp>

#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <memory>
#include <set>
#include <sstream>

namespace papan::test {
namespace {

std::vector<Json> doc_examples() {
    std::ifstream in(PAPAN_PROTOCOL_DOC);
    std::stringstream ss;
    ss << in.rdbuf();
    const std::string doc = ss.str();
    std::vector<Json> out;
    std::size_t at = 0;
    while ((at = doc.find("```json\n", at)) != std::string::npos) {
        const auto start = at + 8;
        const auto end   = doc.find("```", start);
        const auto text  = doc.substr(start, end - start);
        Json j           = Json::parse(text, nullptr, false);
        EXPECT_FALSE(j.is_discarded()) << "not valid JSON in docs/protocol.md:\n" << text;
        out.push_back(j);
        at = end + 3;
    }
    return out;
}

std::set<std::string> keys(const Json& j) {
    std::set<std::string> k;
    for (const auto& [key, value] : j.items()) {
        if (key != "ref") {
            k.insert(key);
        }
    }
    return k;
}

std::string join(const std::set<std::string>& s) {
    std::string out;
    for (const auto& x : s) {
        out += x + " ";
    }
    return out;
}

TEST(ProtocolDoc, ExamplesMatchTheServer) {
    const auto examples = doc_examples();
    ASSERT_GT(examples.size(), 20U);

    // What the server really sends: one session that exercises every server message.
    TempDir dir;
    ServerProcess server(dir.path(), {"--pairing-wait", "0.3"});
    WsClient a(server.port());
    WsClient b(server.port());
    a.hello("Ann");
    b.hello("Bob");
    const Json st =
        a.create({{"mode", "friend"}, {"variant", "international"}, {"color", "white"}});
    const std::string game = st["game"];
    b.send(Json{{"type", "join"}, {"invite", st["created"]["invite"]}});
    b.wait_state(game, [](const Json& s) { return s["status"] == "playing"; });
    a.send(move_msg(a.wait_state(game, [](const Json& s) { return s["status"] == "playing"; })));
    b.wait_state(game, [](const Json& s) { return s["ply"] == 1; });
    b.send(Json{{"type", "chat"}, {"game", game}, {"text", "good luck!"}});
    a.recv_until(
        [](const Json& j) { return j["type"] == "event" && j["event"]["kind"] == "chat"; });
    b.send(Json{{"type", "resume"}, {"game", game}, {"last_version", 1000}});
    b.recv_until([](const Json& j) { return j["type"] == "state"; });
    const auto v =
        b.wait_state(game, [](const Json&) { return true; })["version"].get<std::int64_t>();
    b.send(Json{{"type", "resume"}, {"game", game}, {"last_version", v}});
    b.recv_until([](const Json& j) { return j["type"] == "resumed"; });
    b.send(Json{{"type", "resign"}, {"game", game}, {"id", 5}});
    a.recv_until(
        [](const Json& j) { return j["type"] == "event" && j["event"]["kind"] == "resign"; });
    {
        // presence: Cid makes a game Ann joins, and leaves it.
        auto c = std::make_unique<WsClient>(server.port());
        c->hello("Cid");
        const Json cs =
            c->create({{"mode", "friend"}, {"variant", "international"}, {"color", "white"}});
        a.send(Json{{"type", "join"}, {"invite", cs["created"]["invite"]}});
        a.wait_state(cs["game"], [](const Json& s) { return s["status"] == "playing"; });
        c.reset();
        a.recv_until([](const Json& j) { return j["type"] == "presence"; },
                     std::chrono::seconds(15));
    }
    a.send(Json{{"type", "seek"}, {"variant", "brazilian"}});
    a.recv_until([](const Json& j) { return j["type"] == "paired"; });
    b.send(Json{{"type", "seek"}, {"variant", "russian"}});
    b.recv_until([](const Json& j) { return j["type"] == "seeking"; });
    b.send(Json{{"type", "cancel_seek"}});
    b.recv_until([](const Json& j) { return j["type"] == "seek_cancelled"; });
    b.send(Json{{"type", "nonsense"}});
    b.recv_until([](const Json& j) { return j["type"] == "error"; });

    std::map<std::string, std::set<std::string>> all_keys;   // union over messages of a type
    std::map<std::string, std::set<std::string>> must_keys;  // intersection
    std::set<std::string> state_keys;
    std::set<std::string> clock_keys;  // of a timed game's state.clock
    for (const auto* c : {&a, &b}) {
        for (const auto& j : c->seen) {
            const std::string t = j["type"];
            auto k              = keys(j);
            if (t == "event" && j.contains("delta")) {
                k.erase("state");  // the full state the harness built from the delta
            }
            all_keys[t].insert(k.begin(), k.end());
            if (!must_keys.contains(t)) {
                must_keys[t] = k;
            } else {
                std::set<std::string> both;
                for (const auto& x : must_keys[t]) {
                    if (k.contains(x)) {
                        both.insert(x);
                    }
                }
                must_keys[t] = both;
            }
            if (j.contains("state")) {
                state_keys = keys(j["state"]);
                if (j["state"]["clock"].is_object()) {
                    clock_keys = keys(j["state"]["clock"]);
                }
            }
        }
    }

    std::set<std::string> documented;
    for (const auto& ex : examples) {
        if (!ex.is_object() || !ex.contains("type")) {
            continue;  // an HTTP body
        }
        const std::string t = ex["type"];
        documented.insert(t);
        if (server::message_type_from_name(t)) {
            const auto r  = server::decode_client_message(ex.dump());
            const auto* m = std::get_if<server::ClientRequest>(&r);
            const auto* e = m != nullptr ? std::get_if<server::ProtocolError>(&m->what)
                                         : std::get_if<server::ProtocolError>(&r);
            EXPECT_TRUE(e == nullptr) << "the decoder rejects the documented " << ex.dump() << ": "
                                      << (e != nullptr ? e->message : "");
            continue;
        }
        ASSERT_TRUE(all_keys.contains(t)) << "documented server message '" << t << "' was not seen";
        const auto k = keys(ex);
        for (const auto& x : k) {
            EXPECT_TRUE(all_keys[t].contains(x))
                << "'" << t << "' example has field '" << x << "' the server does not send";
        }
        for (const auto& x : must_keys[t]) {
            EXPECT_TRUE(k.contains(x)) << "'" << t << "' example lacks field '" << x << "'";
        }
        if (ex.contains("delta")) {
            for (const auto& [x, value] : ex["delta"].items()) {
                EXPECT_TRUE(state_keys.contains(x) || x == "moves_keep" || x == "moves_add" ||
                            x == "chat_add")
                    << "the documented delta has '" << x << "', which is not a state field";
                EXPECT_NE(x, "moves") << "a delta never carries the whole move list";
                EXPECT_NE(x, "chat") << "a delta never carries the whole chat";
            }
        }
        if (ex.contains("state") && !ex["state"].empty()) {
            EXPECT_EQ(join(keys(ex["state"])), join(state_keys))
                << "the documented state fields differ";
            if (ex["state"]["clock"].is_object()) {
                EXPECT_EQ(join(keys(ex["state"]["clock"])), join(clock_keys))
                    << "the documented clock fields differ";
            }
        }
        if (ex.contains("delta") && ex["delta"].contains("clock")) {
            EXPECT_EQ(join(keys(ex["delta"]["clock"])), join(clock_keys))
                << "the documented clock fields of the delta differ";
        }
    }
    for (const auto& [t, k] : all_keys) {
        EXPECT_TRUE(documented.contains(t)) << "server message '" << t << "' is not documented";
    }
    for (const char* t : {"hello",
                          "create",
                          "join",
                          "resume",
                          "move",
                          "resign",
                          "draw_offer",
                          "draw_accept",
                          "draw_decline",
                          "draw_claim",
                          "undo",
                          "rematch",
                          "seek",
                          "cancel_seek",
                          "takeback_offer",
                          "takeback_accept",
                          "takeback_decline",
                          "chat"}) {
        EXPECT_TRUE(documented.contains(t)) << "client message '" << t << "' is not documented";
    }
}

std::string protocol_doc() {
    std::ifstream in(PAPAN_PROTOCOL_DOC);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

// The first JSON example after `marker` in docs/protocol.md (discarded when there is none).
Json example_after(const std::string& marker) {
    const std::string doc = protocol_doc();
    const auto at         = doc.find(marker);
    if (at == std::string::npos) {
        ADD_FAILURE() << "docs/protocol.md has no '" << marker << "'";
        return Json::value_t::discarded;
    }
    const auto start = doc.find("```json\n", at);
    const auto end   = doc.find("```", start + 8);
    return Json::parse(doc.substr(start + 8, end - start - 8), nullptr, false);
}

// The same fields, at the top and in the first element of every array of objects.
void expect_same_fields(const Json& doc, const Json& real, const std::string& where) {
    EXPECT_EQ(join(keys(doc)), join(keys(real))) << where << ": documented vs sent";
    for (const auto& [key, value] : doc.items()) {
        if (value.is_array() && !value.empty() && value[0].is_object() && real.contains(key) &&
            real[key].is_array() && !real[key].empty()) {
            expect_same_fields(value[0], real[key][0], where + "." + key + "[0]");
        } else if (value.is_object() && real.contains(key) && real[key].is_object()) {
            expect_same_fields(value, real[key], where + "." + key);
        }
    }
}

// The HTTP examples of the routes added after the message check was written: their fields are
// the server's, nested ones included.
TEST(ProtocolDoc, HttpExamplesHaveTheServersFields) {
    TempDir dir;
    ServerProcess server(dir.path());
    const auto port         = server.port();
    const auto reg          = http_request(port,
                                  "POST",
                                  "/api/register",
                                  Json{{"username", "ann"}, {"password", "longenough"}}.dump());
    const std::string token = reg.json().value("token", "");
    std::ifstream in(std::string(PAPAN_PDN_DATA) + "/bad-game-in-middle.pdn", std::ios::binary);
    std::stringstream pdn;
    pdn << in.rdbuf();
    const auto imported = http_request(port, "POST", "/api/import", pdn.str(), token);
    ASSERT_EQ(imported.status, 201U) << imported.body;
    expect_same_fields(example_after("### Importing PDN"), imported.json(), "POST /api/import");
    const auto variants = http_request(port, "GET", "/api/variants");
    ASSERT_EQ(variants.status, 200U);
    expect_same_fields(
        example_after("`GET /api/variants` (one entry"), variants.json(), "GET /api/variants");
    const auto rated_variants = http_request(port, "GET", "/api/leaderboard");
    ASSERT_EQ(rated_variants.status, 200U);
    expect_same_fields(example_after("`GET /api/leaderboard` without `variant`"),
                       rated_variants.json(),
                       "GET /api/leaderboard");
    // A draw counter of the state (only kings: the 25-move rule runs), as documented.
    WsClient ws(port);
    ws.hello("Ann");
    const Json st =
        ws.create({{"mode", "hotseat"}, {"variant", "international"}, {"fen", "W:WK47:BK1"}});
    Json no_progress;
    for (const auto& d : st["state"]["move_limits"]) {
        if (d["rule"] == "no_progress") {
            no_progress = d;
        }
    }
    ASSERT_TRUE(no_progress.is_object()) << st["state"]["move_limits"].dump();
    expect_same_fields(example_after("entry of an International game with only kings"),
                       no_progress,
                       "state.move_limits[]");
}

// The puzzle routes' examples have the server's fields (the shipped set, found next to the
// binary, is what the server serves).
TEST(ProtocolDoc, PuzzleExamplesHaveTheServersFields) {
    TempDir dir;
    ServerProcess server(dir.path());
    const auto port         = server.port();
    const auto reg          = http_request(port,
                                  "POST",
                                  "/api/register",
                                  Json{{"username", "ann"}, {"password", "longenough"}}.dump());
    const std::string token = reg.json().value("token", "");
    const auto next = http_request(port, "GET", "/api/puzzles/next?variant=american", "", token);
    ASSERT_EQ(next.status, 200U) << next.body;
    expect_same_fields(example_after("`GET /api/puzzles/next?variant=american`"),
                       next.json(),
                       "GET /api/puzzles/next");
    const Json puzzle    = next.json()["puzzle"];
    const std::string id = puzzle["id"];
    const auto one       = http_request(port, "GET", "/api/puzzles/" + id);
    ASSERT_EQ(one.status, 200U) << one.body;
    expect_same_fields(
        example_after("A puzzle (`GET /api/puzzles/{id}`"), one.json(), "GET /api/puzzles/{id}");
    const auto daily = http_request(port, "GET", "/api/puzzles/daily?variant=american");
    ASSERT_EQ(daily.status, 200U) << daily.body;
    expect_same_fields(example_after("`GET /api/puzzles/daily?variant=american`"),
                       daily.json(),
                       "GET /api/puzzles/daily");
    Json moves = Json::array();
    for (std::size_t i = 0; i < puzzle["solution"].size(); i += 2) {
        moves.push_back(puzzle["solution"][i]);
    }
    const auto attempt = http_request(port,
                                      "POST",
                                      "/api/puzzles/" + id + "/attempt",
                                      Json{{"moves", moves}, {"gave_up", false}}.dump(),
                                      token);
    ASSERT_EQ(attempt.status, 200U) << attempt.body;
    EXPECT_TRUE(attempt.json()["solved"].get<bool>());
    expect_same_fields(example_after("`POST /api/puzzles/{id}/attempt` with"),
                       attempt.json(),
                       "POST /api/puzzles/{id}/attempt");
    const auto history = http_request(port, "GET", "/api/puzzles/history", "", token);
    ASSERT_EQ(history.status, 200U) << history.body;
    expect_same_fields(example_after("`GET /api/puzzles/history` (the caller's"),
                       history.json(),
                       "GET /api/puzzles/history");
    const auto all = http_request(port, "GET", "/api/puzzles");
    ASSERT_EQ(all.status, 200U) << all.body;
    expect_same_fields(
        example_after("`GET /api/puzzles` (every variant"), all.json(), "GET /api/puzzles");
}

// The documented capture facts of every variant (docs/protocol.md, under GET /api/variants) are
// what the server sends.
TEST(ProtocolDoc, VariantRulesAreTheDocumentedOnes) {
    const std::string doc = protocol_doc();
    const auto at         = doc.find("`rules` are the capture facts");
    ASSERT_NE(at, std::string::npos);
    const auto today       = doc.find("Today: ", at);
    const std::string text = doc.substr(today, doc.find("\n\n", today) - today);  // one paragraph
    std::string flat;
    for (const char c : text) {
        flat += c == '\n' ? ' ' : c;
    }
    const Json& variants = server::variants_json()["variants"];
    ASSERT_EQ(variants.size(), 10U);
    for (const auto& v : variants) {
        const Json& r           = v["rules"];
        const std::string facts = r["man_captures"].get<std::string>() + "`/`" +
                                  (r["man_captures_king"].get<bool>() ? "true" : "false") + "`/`" +
                                  r["king_range"].get<std::string>() + "`/`" +
                                  r["precedence"].get<std::string>() + "`";
        // "American `forward`/...": the variant's name (or its group's) before its facts
        std::string name = v["name"].get<std::string>();
        name             = name.substr(0, name.find(' '));
        const auto named = flat.find(name);
        ASSERT_NE(named, std::string::npos) << name << " is not in: " << flat;
        const auto next = flat.find('`', named);
        std::string squeezed;  // the facts after the name, without line-break spaces
        for (std::size_t i = next + 1; i < flat.size() && squeezed.size() < facts.size(); ++i) {
            if (flat[i] != ' ') {
                squeezed += flat[i];
            }
        }
        EXPECT_EQ(squeezed, facts) << v["key"];
    }
}

// Every route of the router's own table is in the HTTP table of docs/protocol.md as
// "`METHOD PATTERN`", and the doc names no route the table lacks.
TEST(ProtocolDoc, EveryRouteIsDocumented) {
    std::ifstream in(PAPAN_PROTOCOL_DOC);
    std::stringstream ss;
    ss << in.rdbuf();
    const std::string doc = ss.str();
    std::set<std::string> table;
    for (const auto& r : server::http_routes()) {
        const std::string route =
            std::string(server::method_name(r.method)) + " " + std::string(r.pattern);
        table.insert(route);
        EXPECT_NE(doc.find("| `" + route + "`"), std::string::npos)
            << route << " is not in the HTTP table of docs/protocol.md";
    }
    EXPECT_GE(table.size(), 12U);
    // The other way round: each documented `GET /...` or `POST /...` row is a route (the
    // WebSocket upgrade aside, which the transport handles before the router).
    std::size_t at = 0;
    while ((at = doc.find("| `", at)) != std::string::npos) {
        const auto end = doc.find('`', at + 3);
        const auto row = doc.substr(at + 3, end - at - 3);
        at             = end;
        if ((row.rfind("GET /", 0) == 0 || row.rfind("POST /", 0) == 0) && row != "GET /ws") {
            EXPECT_TRUE(table.contains(row))
                << "docs/protocol.md documents " << row << ", which is not a route";
        }
    }
}

}  // namespace
}  // namespace papan::test
