// Sign-in with an OpenID Connect provider, end to end: the real `papan serve` and a local
// provider started by the test (real HTTP, keys made at test time: discovery, JWK Set, a token
// endpoint that checks PKCE and the client's secret). The test plays the browser: it starts the
// sign-in, approves it at the provider, follows the provider back to the server's callback with
// the binding cookie, and trades the ticket for a session. Every refused token sends the browser
// back with the reason, and signs nobody in. With PAPAN_TEST_CLUSTER the requests of one sign-in
// land on different nodes (the pending sign-in is in the shared store).
#include "harness.hpp"
#include "stand_in.hpp"

#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/string_body.hpp>
#include <boost/beast/http/write.hpp>
#include <gtest/gtest.h>

#include <chrono>
#include <fstream>
#include <map>
#include <memory>
#include <regex>
#include <string>
#include <thread>

namespace papan::test {
namespace {

namespace net   = boost::asio;
namespace beast = boost::beast;
namespace http  = beast::http;

constexpr const char* kClientId     = "papan-test-client";
constexpr const char* kClientSecret = "s3cret:with/odd chars";

struct Answer {
    unsigned status = 0;
    std::string body;
    std::map<std::string, std::string> headers;  // lowercase names

    [[nodiscard]] Json json() const { return Json::parse(body, nullptr, false); }
};

Answer call(unsigned short port,
            const std::string& method,
            const std::string& target,
            const std::string& body                          = {},
            const std::map<std::string, std::string>& extras = {}) {
    net::io_context ioc;
    beast::tcp_stream stream(ioc);
    stream.connect(net::ip::tcp::endpoint(net::ip::make_address("127.0.0.1"), port));
    http::request<http::string_body> req{http::string_to_verb(method), target, 11};
    req.set(http::field::host, "127.0.0.1:" + std::to_string(port));
    for (const auto& [k, v] : extras) {
        req.set(k, v);
    }
    if (!body.empty()) {
        req.set(http::field::content_type, "application/json");
        req.body() = body;
    }
    req.prepare_payload();
    http::write(stream, req);
    beast::flat_buffer buf;
    http::response<http::string_body> res;
    http::read(stream, buf, res);
    Answer a{res.result_int(), res.body(), {}};
    for (const auto& f : res.base()) {
        std::string name(f.name_string());
        for (auto& c : name) {
            c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        }
        a.headers[name] = std::string(f.value());
    }
    return a;
}

class OidcSignIn : public ::testing::Test {
protected:
    void start(std::vector<std::string> extra = {}) {
        std::vector<std::string> args{"--oidc-issuer",
                                      op.issuer(),
                                      "--oidc-client-id",
                                      kClientId,
                                      "--oidc-client-secret",
                                      kClientSecret,
                                      "--public-url",
                                      "http://papan.test"};
        args.insert(args.end(), extra.begin(), extra.end());
        server = std::make_unique<ServerProcess>(dir.path(), args);
    }

    // Start, approve at the provider, come back: the Location the callback answers.
    std::string browse(const std::string& bearer = {}, bool link = false) {
        std::map<std::string, std::string> h;
        if (!bearer.empty()) {
            h["Authorization"] = "Bearer " + bearer;
        }
        const Answer started =
            call(server->port(), "POST", "/api/auth/oidc/start", link ? R"({"link":true})" : "", h);
        EXPECT_EQ(started.status, 200U) << started.body;
        const std::string cookie = started.headers.count("set-cookie") != 0U
                                       ? started.headers.at("set-cookie")
                                       : std::string{};
        EXPECT_NE(cookie.find("HttpOnly"), std::string::npos) << cookie;
        EXPECT_NE(cookie.find("SameSite=Lax"), std::string::npos) << cookie;
        const std::string url  = started.json().value("url", "");
        const std::string back = op.approve(url);  // the player says yes at the provider
        // The provider sends the browser to the redirect URI the server named.
        const std::string prefix = "http://papan.test/api/auth/oidc/callback?";
        EXPECT_EQ(back.rfind(prefix, 0), 0U) << back;
        const std::string target = "/api/auth/oidc/callback?" + back.substr(prefix.size());
        const Answer returned    = call(
            server->port(), "GET", target, {}, {{"Cookie", cookie.substr(0, cookie.find(';'))}});
        EXPECT_EQ(returned.status, 302U) << returned.body;
        return returned.headers.count("location") != 0U ? returned.headers.at("location") : "";
    }

    static std::string ticket_of(const std::string& location) {
        const std::string prefix = "/#signin=";
        return location.rfind(prefix, 0) == 0 ? location.substr(prefix.size()) : std::string{};
    }

    Answer finish(const std::string& ticket,
                  const Json& extra         = Json::object(),
                  const std::string& bearer = {}) {
        Json body{{"ticket", ticket}};
        body.update(extra);
        std::map<std::string, std::string> h;
        if (!bearer.empty()) {
            h["Authorization"] = "Bearer " + bearer;
        }
        return call(server->port(), "POST", "/api/auth/finish", body.dump(), h);
    }

    // A new person's first sign-in under `nickname`: the session token.
    std::string sign_up(const std::string& sub, const std::string& nickname) {
        op.set_user(sub, "Ada Lovelace");
        const std::string ticket = ticket_of(browse());
        EXPECT_FALSE(ticket.empty());
        const Answer asked = finish(ticket);
        EXPECT_EQ(asked.json().value("needs_nickname", false), true) << asked.body;
        const Answer made = finish(ticket, Json{{"username", nickname}});
        EXPECT_EQ(made.status, 201U) << made.body;
        return made.json().value("token", "");
    }

    std::string refused_because(TokenPlan plan) {
        op.plan_next(std::move(plan));
        const std::string location = browse();
        EXPECT_TRUE(ticket_of(location).empty()) << "signed in with a bad token: " << location;
        return location;
    }

    OidcStandIn op{kClientId, kClientSecret};
    TempDir dir;
    std::unique_ptr<ServerProcess> server;
};

TEST_F(OidcSignIn, TheFirstSignInChoosesANicknameAndTheNextOnesSignStraightIn) {
    start();
    const Json config = call(server->port(), "GET", "/api/auth/config").json();
    EXPECT_EQ(config["oidc"]["name"], "Google");
    EXPECT_TRUE(config["telegram"].is_null());

    const std::string token = sign_up("1001", "ada_l");
    ASSERT_FALSE(token.empty());
    // The client secret went as HTTP Basic, form-encoded first (RFC 6749 2.3.1).
    EXPECT_EQ(op.last_auth_header.rfind("Basic ", 0), 0U);

    WsClient ws(server->port());
    const Json w = ws.hello_token(token);
    EXPECT_EQ(w["player"]["name"], "ada_l");
    EXPECT_EQ(w["player"]["account"], true);
    const Json me =
        call(server->port(), "GET", "/api/me", {}, {{"Authorization", "Bearer " + token}}).json();
    EXPECT_EQ(me["sign_in"], Json::array({"oidc"}));
    EXPECT_EQ(me["may_rate"], true);

    // The same person again: no question, the same account.
    const std::string again = ticket_of(browse());
    const Answer session    = finish(again);
    EXPECT_EQ(session.status, 200U) << session.body;
    EXPECT_EQ(session.json()["user"]["username"], "ada_l");
    // A ticket is good once.
    EXPECT_EQ(finish(again).status, 410U);
    // An account made this way has no password to log in with.
    const Answer login =
        call(server->port(), "POST", "/api/login", R"({"username":"ada_l","password":""})");
    EXPECT_EQ(login.status, 401U);
}

TEST_F(OidcSignIn, ATakenNicknameIsAskedAgain) {
    start();
    ASSERT_FALSE(sign_up("1001", "ada_l").empty());
    op.set_user("2002", "Another Ada");
    const std::string ticket = ticket_of(browse());
    EXPECT_EQ(finish(ticket, Json{{"username", "ADA_L"}}).status, 409U);
    EXPECT_EQ(finish(ticket, Json{{"username", "a"}}).status, 400U);
    EXPECT_EQ(finish(ticket, Json{{"username", "ada_two"}}).status, 201U);
}

TEST_F(OidcSignIn, APasswordAccountLinksItsIdentity) {
    start();
    const Answer reg = call(server->port(),
                            "POST",
                            "/api/register",
                            R"({"username":"budi","password":"correct horse"})");
    ASSERT_EQ(reg.status, 201U) << reg.body;
    const std::string password_token = reg.json()["token"];

    // Signed in, the player starts the sign-in to link: it comes back already linked.
    op.set_user("3003", "Budi");
    const std::string ticket = ticket_of(browse(password_token, true));
    ASSERT_FALSE(ticket.empty());
    const Answer session = finish(ticket);
    ASSERT_EQ(session.status, 200U) << session.body;
    EXPECT_EQ(session.json()["user"]["username"], "budi");
    const Json me =
        call(server->port(), "GET", "/api/me", {}, {{"Authorization", "Bearer " + password_token}})
            .json();
    EXPECT_EQ(me["sign_in"], Json::array({"password", "oidc"}));

    // Another password account cannot take the same identity.
    const Answer other      = call(server->port(),
                              "POST",
                              "/api/register",
                              R"({"username":"citra","password":"correct horse"})");
    const std::string citra = other.json()["token"];
    EXPECT_EQ(browse(citra, true), "/#signin-error=already_linked");

    // Not signed in at the start, a first sign-in may still join a password account: the page
    // logs in and finishes with link.
    op.set_user("4004", "Citra");
    const std::string t2 = ticket_of(browse());
    EXPECT_EQ(finish(t2, Json{{"link", true}}).status, 401U);  // no session yet: asked again
    const Answer linked = finish(t2, Json{{"link", true}}, citra);
    ASSERT_EQ(linked.status, 200U) << linked.body;
    EXPECT_EQ(linked.json()["user"]["username"], "citra");
}

TEST_F(OidcSignIn, RefusedTokensSignNobodyIn) {
    start();
    EXPECT_EQ(refused_because(TokenPlan{.wrong_key = true}), "/#signin-error=bad_signature");
    EXPECT_EQ(refused_because(TokenPlan{.audience = "someone-else"}),
              "/#signin-error=wrong_audience");
    EXPECT_EQ(refused_because(TokenPlan{.exp_offset_s = -600, .iat_offset_s = -700}),
              "/#signin-error=token_expired");
    EXPECT_EQ(refused_because(TokenPlan{.kid = "no-such-key"}), "/#signin-error=unknown_key");
    EXPECT_EQ(refused_because(TokenPlan{.issuer = "http://127.0.0.1:1"}),
              "/#signin-error=wrong_issuer");
    EXPECT_EQ(refused_because(TokenPlan{.nonce = "someone-elses-nonce"}),
              "/#signin-error=nonce_mismatch");
    EXPECT_EQ(refused_because(TokenPlan{.alg = "HS256"}), "/#signin-error=bad_algorithm");

    // A good sign-in, then its ID token replayed into a later sign-in (another nonce).
    const std::string token = sign_up("1001", "ada_l");
    ASSERT_FALSE(token.empty());
    op.replay_next(op.issued().back());
    EXPECT_EQ(browse(), "/#signin-error=nonce_mismatch");
}

TEST_F(OidcSignIn, TheCallbackNeedsItsStateAndItsBrowser) {
    start();
    const Answer started     = call(server->port(), "POST", "/api/auth/oidc/start");
    const std::string back   = op.approve(started.json()["url"]);
    const std::string target = "/api/auth/oidc/callback?" + back.substr(back.find('?') + 1);
    // Another browser (no binding cookie, or another's) cannot finish it: login CSRF.
    EXPECT_EQ(call(server->port(), "GET", target, {}, {{"Cookie", "papan_oidc=0123"}})
                  .headers["location"],
              "/#signin-error=wrong_browser");
    // The state was used up by that attempt.
    const std::string cookie = started.headers.at("set-cookie");
    EXPECT_EQ(
        call(server->port(), "GET", target, {}, {{"Cookie", cookie.substr(0, cookie.find(';'))}})
            .headers["location"],
        "/#signin-error=expired");
    EXPECT_EQ(call(server->port(),
                   "GET",
                   "/api/auth/oidc/callback?code=x&state=unknown",
                   {},
                   {{"Cookie", cookie.substr(0, cookie.find(';'))}})
                  .headers["location"],
              "/#signin-error=expired");
    EXPECT_EQ(call(server->port(), "GET", "/api/auth/oidc/callback?error=access_denied&state=x")
                  .headers["location"],
              "/#signin-error=cancelled");
    EXPECT_EQ(call(server->port(), "POST", "/api/auth/finish", R"({"ticket":"nope"})").status,
              410U);
}

TEST_F(OidcSignIn, RotatedProviderKeysAreFetchedAgain) {
    start();
    ASSERT_FALSE(sign_up("1001", "ada_l").empty());
    const int fetched = op.jwks_fetches;
    op.rotate_key();
    std::this_thread::sleep_for(std::chrono::milliseconds(1100));
    const std::string again = ticket_of(browse());
    EXPECT_FALSE(again.empty());
    EXPECT_GT(op.jwks_fetches, fetched);
}

TEST_F(OidcSignIn, WithoutAClientThereIsNoSignIn) {
    server = std::make_unique<ServerProcess>(dir.path());
    EXPECT_TRUE(call(server->port(), "GET", "/api/auth/config").json()["oidc"].is_null());
    EXPECT_EQ(call(server->port(), "POST", "/api/auth/oidc/start").status, 404U);
    EXPECT_EQ(call(server->port(), "GET", "/api/auth/oidc/callback?code=a&state=b").status, 404U);
}

TEST_F(OidcSignIn, AConfigFileHoldsTheSettingsAndTheSecret) {
    // The secret off the command line: a file only the server's user reads.
    const auto file = dir.path() / "papan.toml";
    {
        std::ofstream out(file);
        out << "oidc-issuer = \"" << op.issuer() << "\"\n"
            << "oidc-client-id = \"" << kClientId << "\"\n"
            << "oidc-client-secret = \"" << kClientSecret << "\"\n"
            << "oidc-name = \"Example ID\"\n"
            << "public-url = \"http://papan.test\"\n";
    }
    server = std::make_unique<ServerProcess>(dir.path(),
                                             std::vector<std::string>{"--config", file.string()});
    EXPECT_EQ(call(server->port(), "GET", "/api/auth/config").json()["oidc"]["name"], "Example ID");
    const std::string ticket = ticket_of(browse());
    EXPECT_FALSE(ticket.empty());  // the secret from the file reached the token endpoint
}

TEST_F(OidcSignIn, TheOperatorMayKeepRatedGamesForProviderAccounts) {
    start({"--rated-requires", "oidc"});
    EXPECT_EQ(call(server->port(), "GET", "/api/auth/config").json()["rated_requires"], "oidc");
    const auto reg = [&](const std::string& name) {
        return call(server->port(),
                    "POST",
                    "/api/register",
                    Json{{"username", name}, {"password", "correct horse"}}.dump())
            .json()
            .value("token", "");
    };
    const auto rated_game = [&](const std::string& a, const std::string& b) {
        WsClient wa(server->port());
        WsClient wb(server->port());
        wa.hello_token(a);
        wb.hello_token(b);
        const Json st = wa.create(
            Json{{"mode", "friend"}, {"variant", "american"}, {"color", "white"}, {"rated", true}});
        const std::string game = st["game"];
        wb.send(Json{{"type", "join"}, {"invite", st["created"]["invite"]}});
        const Json playing =
            wb.wait_state(game, [](const Json& s) { return s["status"] == "playing"; });
        return playing["state"]["rated"].get<bool>();
    };
    const std::string p1 = reg("pw_one");
    const std::string p2 = reg("pw_two");
    EXPECT_FALSE(rated_game(p1, p2));  // password accounts: unrated under this rule
    const Json me =
        call(server->port(), "GET", "/api/me", {}, {{"Authorization", "Bearer " + p1}}).json();
    EXPECT_EQ(me["may_rate"], false);
    const std::string g1 = sign_up("5005", "google_one");
    const std::string g2 = sign_up("6006", "google_two");
    EXPECT_TRUE(rated_game(g1, g2));
    EXPECT_FALSE(rated_game(g1, p2));
}

}  // namespace
}  // namespace papan::test
