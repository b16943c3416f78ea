// The relying party's checks of an ID token (auth/oidc.cpp), against keys made at test time and a
// provider answered in-process: every check of OpenID Connect Core 3.1.3.7 refuses the token that
// breaks it, and the JWK Set is fetched again when a token names a key the cache lacks.
#include "auth/jwt.hpp"
#include "auth/oidc.hpp"
#include "stand_in.hpp"

#include <papan/server/clock.hpp>
#include <papan/server/tokens.hpp>

#include <gtest/gtest.h>

#include <memory>
#include <string>

namespace papan::server::auth {
namespace {

using test::Json;
using test::RsaKey;

constexpr const char* kIssuer   = "https://id.example";
constexpr const char* kClientId = "papan-client";

class OidcCheck : public ::testing::Test {
protected:
    OidcCheck()
        : key_(std::make_shared<RsaKey>("k1"))
        , client_(
              OidcSettings{kIssuer, kClientId, "secret", "openid profile"},
              [this](const OutboundRequest& r) { return answer(r); },
              clock_) {}

    OutboundResponse answer(const OutboundRequest& r) {
        if (r.url == std::string(kIssuer) + "/.well-known/openid-configuration") {
            return {200,
                    Json{{"issuer", kIssuer},
                         {"authorization_endpoint", std::string(kIssuer) + "/auth"},
                         {"token_endpoint", std::string(kIssuer) + "/token"},
                         {"jwks_uri", std::string(kIssuer) + "/keys"}}
                        .dump(),
                    "application/json"};
        }
        if (r.url == std::string(kIssuer) + "/keys") {
            ++jwks_fetches_;
            Json keys = Json::array({key_->jwk()});
            return {200, Json{{"keys", keys}}.dump(), "application/json"};
        }
        return {404, "{}", "application/json"};
    }

    [[nodiscard]] Json claims() const {
        const auto now = clock_.now_ms() / 1000;
        return Json{{"iss", kIssuer},
                    {"sub", "108"},
                    {"aud", kClientId},
                    {"exp", now + 600},
                    {"iat", now},
                    {"nonce", "n-123"},
                    {"name", "Ada Lovelace"}};
    }

    std::variant<IdClaims, IdTokenError> check(const std::string& token) {
        return client_.validate(token, "n-123");
    }

    static IdTokenError error_of(const std::variant<IdClaims, IdTokenError>& v) {
        EXPECT_TRUE(std::holds_alternative<IdTokenError>(v)) << "the token was accepted";
        return std::holds_alternative<IdTokenError>(v) ? std::get<IdTokenError>(v)
                                                       : IdTokenError::Malformed;
    }

    ManualClock clock_{1'800'000'000'000};
    std::shared_ptr<RsaKey> key_;
    int jwks_fetches_ = 0;
    OidcClient client_;
};

TEST_F(OidcCheck, AGoodTokenGivesTheSubjectAndName) {
    const auto v = check(key_->sign(claims()));
    ASSERT_TRUE(std::holds_alternative<IdClaims>(v))
        << id_token_error_name(std::get<IdTokenError>(v));
    EXPECT_EQ(std::get<IdClaims>(v).subject, "108");
    EXPECT_EQ(std::get<IdClaims>(v).issuer, kIssuer);
    EXPECT_EQ(std::get<IdClaims>(v).name, "Ada Lovelace");
    EXPECT_EQ(jwks_fetches_, 1);
    // The keys are cached: a second token fetches nothing.
    EXPECT_TRUE(std::holds_alternative<IdClaims>(check(key_->sign(claims()))));
    EXPECT_EQ(jwks_fetches_, 1);
}

TEST_F(OidcCheck, ABadSignatureIsRefused) {
    RsaKey other("k1");  // the same kid, another key
    EXPECT_EQ(error_of(check(other.sign(claims()))), IdTokenError::BadSignature);
    // A token whose claims were changed after signing.
    std::string token = key_->sign(claims());
    Json changed      = claims();
    changed["sub"]    = "999";
    const auto dot1   = token.find('.');
    const auto dot2   = token.find('.', dot1 + 1);
    token = token.substr(0, dot1 + 1) + test::b64url(changed.dump()) + token.substr(dot2);
    EXPECT_EQ(error_of(check(token)), IdTokenError::BadSignature);
}

TEST_F(OidcCheck, TheWrongAudienceIsRefused) {
    Json c   = claims();
    c["aud"] = "another-client";
    EXPECT_EQ(error_of(check(key_->sign(c))), IdTokenError::WrongAudience);
    // Several audiences with us among them need azp = us.
    c["aud"] = Json::array({"another-client", kClientId});
    EXPECT_EQ(error_of(check(key_->sign(c))), IdTokenError::WrongAudience);
    c["azp"] = "another-client";
    EXPECT_EQ(error_of(check(key_->sign(c))), IdTokenError::WrongAudience);
    c["azp"] = kClientId;
    EXPECT_TRUE(std::holds_alternative<IdClaims>(check(key_->sign(c))));
}

TEST_F(OidcCheck, AnExpiredTokenIsRefused) {
    Json c   = claims();
    c["exp"] = clock_.now_ms() / 1000 - 120;  // past the minute of leeway
    EXPECT_EQ(error_of(check(key_->sign(c))), IdTokenError::Expired);
    c["exp"] = clock_.now_ms() / 1000 - 30;  // within it: clocks differ a little
    EXPECT_TRUE(std::holds_alternative<IdClaims>(check(key_->sign(c))));
}

TEST_F(OidcCheck, AnIssueTimeInTheFutureOrLongAgoIsRefused) {
    Json c   = claims();
    c["iat"] = clock_.now_ms() / 1000 + 600;
    EXPECT_EQ(error_of(check(key_->sign(c))), IdTokenError::BadIssueTime);
    c["iat"] = clock_.now_ms() / 1000 - 3600;
    EXPECT_EQ(error_of(check(key_->sign(c))), IdTokenError::BadIssueTime);
    c.erase("iat");
    EXPECT_EQ(error_of(check(key_->sign(c))), IdTokenError::BadIssueTime);
}

TEST_F(OidcCheck, AnotherSignInsNonceIsRefused) {
    // A token issued for an earlier sign-in (its nonce), replayed into this one.
    Json c     = claims();
    c["nonce"] = "n-earlier";
    EXPECT_EQ(error_of(check(key_->sign(c))), IdTokenError::NonceMismatch);
    c.erase("nonce");
    EXPECT_EQ(error_of(check(key_->sign(c))), IdTokenError::NonceMismatch);
}

TEST_F(OidcCheck, AnUnknownKeyIsLookedUpOnceAndRefused) {
    (void)check(key_->sign(claims()));
    ASSERT_EQ(jwks_fetches_, 1);
    clock_.advance(5'000);
    RsaKey stranger("k-unknown");
    EXPECT_EQ(error_of(check(stranger.sign(claims()))), IdTokenError::UnknownKey);
    EXPECT_EQ(jwks_fetches_, 2);  // fetched again: the provider may have rotated its keys
}

TEST_F(OidcCheck, ARotatedKeyIsFetchedAndAccepted) {
    (void)check(key_->sign(claims()));
    ASSERT_EQ(jwks_fetches_, 1);
    key_ = std::make_shared<RsaKey>("k2");  // the provider rotates
    clock_.advance(5'000);
    const auto v = check(key_->sign(claims()));
    EXPECT_TRUE(std::holds_alternative<IdClaims>(v));
    EXPECT_EQ(jwks_fetches_, 2);
}

TEST_F(OidcCheck, OnlyRs256IsAccepted) {
    Json header{{"alg", "none"}};
    const std::string unsigned_token =
        test::b64url(header.dump()) + "." + test::b64url(claims().dump()) + ".";
    EXPECT_EQ(error_of(check(unsigned_token)), IdTokenError::BadAlgorithm);
    EXPECT_EQ(error_of(check(key_->sign(claims(), Json{{"alg", "HS256"}}))),
              IdTokenError::BadAlgorithm);
    EXPECT_EQ(error_of(check("not.a.jwt")), IdTokenError::Malformed);
    EXPECT_EQ(error_of(check("")), IdTokenError::Malformed);
}

TEST_F(OidcCheck, TheWrongIssuerIsRefused) {
    Json c   = claims();
    c["iss"] = "https://evil.example";
    EXPECT_EQ(error_of(check(key_->sign(c))), IdTokenError::WrongIssuer);
    // Google's short form is only Google's.
    c["iss"] = "accounts.google.com";
    EXPECT_EQ(error_of(check(key_->sign(c))), IdTokenError::WrongIssuer);
}

TEST_F(OidcCheck, AMissingSubjectIsRefused) {
    Json c = claims();
    c.erase("sub");
    EXPECT_EQ(error_of(check(key_->sign(c))), IdTokenError::NoSubject);
}

TEST_F(OidcCheck, DiscoveryMustNameTheConfiguredIssuer) {
    OidcClient client(
        OidcSettings{"https://id.example/", kClientId, "", "openid"},
        [this](const OutboundRequest& r) {
            auto copy = r;
            copy.url  = std::string(kIssuer) + "/.well-known/openid-configuration";
            return answer(copy);
        },
        clock_);
    EXPECT_THROW((void)client.metadata(), ProviderUnavailable);
}

TEST(Pkce, TheChallengeOfRfc7636AppendixB) {
    init_crypto();  // the verifier is random
    EXPECT_EQ(s256_challenge("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"),
              "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM");
    const auto p = make_pkce();
    EXPECT_EQ(p.verifier.size(), 43U);
    EXPECT_EQ(p.challenge, s256_challenge(p.verifier));
    EXPECT_NE(make_pkce().verifier, p.verifier);
}

TEST(Jwt, Base64urlRoundTripsAndRefusesOtherAlphabets) {
    const std::string bytes("\xfb\xff\x00\x10 ok", 7);
    EXPECT_EQ(base64url_decode(base64url_encode(bytes)).value(), bytes);
    EXPECT_FALSE(base64url_decode("+/8=").has_value());
    EXPECT_FALSE(base64url_decode("a b").has_value());
    EXPECT_FALSE(parse_jwt("a.b").has_value());
    EXPECT_FALSE(parse_jwt("e30.e30.x.y").has_value());
    EXPECT_TRUE(parse_jwt("e30.e30.").has_value());  // {} . {} . (empty signature)
}

TEST(Jwt, KeysOfAJwkSetAreRsaSigningKeysOnly) {
    RsaKey k("a");
    Json enc   = k.jwk();
    enc["kid"] = "b";
    enc["use"] = "enc";
    Json ec{{"kty", "EC"}, {"kid", "c"}, {"crv", "P-256"}, {"x", "AA"}, {"y", "AA"}};
    const auto keys = rs256_keys(Json{{"keys", Json::array({k.jwk(), enc, ec})}});
    EXPECT_EQ(keys.size(), 1U);
    EXPECT_TRUE(keys.contains("a"));
    EXPECT_TRUE(rs256_keys(Json::parse("[1,2]")).empty());
}

}  // namespace
}  // namespace papan::server::auth
