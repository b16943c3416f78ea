// Unit tests of the server's pure parts: clocks, Elo, the protocol decoder, tokens (the stores:
// store_test.cpp).
#include <papan/server/elo.hpp>
#include <papan/server/protocol.hpp>
#include <papan/server/time_control.hpp>
#include <papan/server/tokens.hpp>
#include <papan/server/wire/names.hpp>

#include <gtest/gtest.h>

namespace papan::server {
namespace {

TEST(TimeControl, ByoYomiUsesMainTimeThenPeriods) {
    const TimeControl tc{TimeKind::ByoYomi, 300'000, 3, 30'000, 0};
    const PlayerClock c = initial_clock(tc);
    EXPECT_EQ(c.main_ms, 300'000);
    EXPECT_EQ(c.periods, 3);
    // A move inside main time only spends main time.
    EXPECT_EQ(clock_after_move(tc, c, 10'000), (PlayerClock{290'000, 3}));
    // 20 s into byo-yomi: the period is kept (a move inside a period does not use it up).
    EXPECT_EQ(clock_after_move(tc, c, 320'000), (PlayerClock{0, 3}));
    // 45 s into byo-yomi: one period ran out and is used up.
    EXPECT_EQ(clock_after_move(tc, c, 345'000), (PlayerClock{0, 2}));
    const auto view = clock_at(tc, c, 345'000);
    ASSERT_TRUE(view);
    EXPECT_EQ(view->periods, 2);
    EXPECT_EQ(view->period_ms, 15'000);
    // Out of time after main + every period.
    EXPECT_EQ(time_to_flag(tc, c), 390'000);
    EXPECT_FALSE(clock_after_move(tc, c, 390'000));
}

TEST(TimeControl, FischerAddsTheIncrement) {
    const TimeControl tc{TimeKind::Fischer, 60'000, 0, 0, 2'000};
    const PlayerClock c = initial_clock(tc);
    EXPECT_EQ(clock_after_move(tc, c, 5'000), (PlayerClock{57'000, 0}));
    EXPECT_FALSE(clock_after_move(tc, c, 60'000));
    EXPECT_EQ(default_time_control().key(), "byoyomi:300+3x30");
}

TEST(Elo, BothRatingsMoveByK) {
    EXPECT_EQ(elo_update(1200, 1200, 1.0), (std::pair{1216, 1184}));
    EXPECT_EQ(elo_update(1200, 1200, 0.5), (std::pair{1200, 1200}));
    EXPECT_EQ(elo_update(1400, 1200, 0.0), (std::pair{1376, 1224}));
}

TEST(Protocol, DecodesAndRejects) {
    auto ok = decode_client_message(R"({"type":"move","game":"ab12","ply":3,"path":[32,28]})");
    ASSERT_TRUE(std::holds_alternative<ClientRequest>(ok));
    const auto& m = std::get<ClientRequest>(ok);
    EXPECT_EQ(m.type, MessageType::Move);
    const auto* g = std::get_if<GameRequest>(&m.what);
    ASSERT_NE(g, nullptr);
    EXPECT_EQ(g->game, "ab12");
    const auto& c = std::get<GameCommand>(g->what);
    EXPECT_EQ(c.kind, CommandKind::Move);
    EXPECT_EQ(c.move.ply, 3);
    EXPECT_EQ(c.move.path, (std::vector<int>{32, 28}));

    // The code of the error a text gets at once ("ok": none), and of the one it gets once the
    // player has said hello ("ok": a request).
    const auto code = [](std::string_view text) -> std::string {
        auto r = decode_client_message(text);
        return std::holds_alternative<ProtocolError>(r)
                   ? std::string(wire::name(std::get<ProtocolError>(r).code))
                   : "ok";
    };
    const auto later = [](std::string_view text) -> std::string {
        auto r = decode_client_message(text);
        if (!std::holds_alternative<ClientRequest>(r)) {
            return "not decoded";
        }
        const auto& what = std::get<ClientRequest>(r).what;
        return std::holds_alternative<ProtocolError>(what)
                   ? std::string(wire::name(std::get<ProtocolError>(what).code))
                   : "ok";
    };
    EXPECT_EQ(code("{not json"), "bad_json");
    EXPECT_EQ(code("[1,2]"), "bad_message");
    EXPECT_EQ(code("42"), "bad_message");
    EXPECT_EQ(code(R"({"type":"teleport"})"), "unknown_type");
    EXPECT_EQ(code(R"({"type":"move","ply":"3"})"), "bad_message");
    EXPECT_EQ(code(R"({"type":"move","path":[1,"x"]})"), "bad_message");
    EXPECT_EQ(code(R"({"type":"move","path":[1,[2]]})"), "bad_message");
    EXPECT_EQ(code(R"({"type":"move","id":18446744073709551615})"), "bad_message");
    EXPECT_EQ(code(R"({"type":"create","clock":{"kind":"sundial"}})"), "bad_message");
    EXPECT_EQ(code(R"({"type":"create","clock":{"main":"5"}})"), "bad_message");
    EXPECT_EQ(code(R"({"type":"create","clock":null})"), "ok");
    EXPECT_EQ(code(R"({"type":"create","x":{"deep":[{"deeper":1}]},"variant":"russian"})"), "ok");
    EXPECT_EQ(later(R"({"type":"create","variant":"chess"})"), "bad_variant");
    EXPECT_EQ(later(R"({"type":"create","mode":"random"})"), "bad_mode");
    EXPECT_EQ(later(R"({"type":"create","level":"max"})"), "bad_level");
    EXPECT_EQ(later(R"({"type":"create","color":"red"})"), "bad_color");
    EXPECT_EQ(later(R"({"type":"create","options":{"draw_rules":"fide"}})"), "bad_options");
    EXPECT_EQ(later(R"({"type":"join"})"), "bad_message");
    EXPECT_EQ(later(R"({"type":"resign"})"), "bad_message");
    EXPECT_EQ(later(R"({"type":"resign","game":"ab12"})"), "ok");

    // The last of two equal keys counts, as a JSON object's would.
    auto twice = decode_client_message(R"({"type":"create","level":"easy","level":"hard"})");
    EXPECT_EQ(std::get<CreateRequest>(std::get<ClientRequest>(twice).what).level, Level::Hard);
    // A create's typed fields.
    auto create = decode_client_message(
        R"({"type":"create","mode":"friend","variant":"russian","color":"black",)"
        R"("options":{"no_forced_capture":false,"draw_rules":"russian_official"},)"
        R"("clock":{"kind":"fischer","main":60,"increment":1.5},"rated":true,"id":9})");
    const auto& req = std::get<ClientRequest>(create);
    EXPECT_EQ(req.ref, 9);
    const auto& cr = std::get<CreateRequest>(req.what);
    EXPECT_EQ(cr.mode, GameMode::Friend);
    EXPECT_EQ(cr.variant, core::VariantId::Russian);
    EXPECT_EQ(cr.color, core::Color::Black);
    EXPECT_EQ(cr.options.draw_rules, core::DrawRuleSet::RussianOfficial);
    ASSERT_TRUE(cr.clock.has_value());
    EXPECT_EQ(cr.clock->kind, TimeKind::Fischer);
    EXPECT_EQ(cr.clock->increment_ms, 1500);
    EXPECT_TRUE(cr.rated);
}

TEST(Tokens, AreRandomAndHashed) {
    init_crypto();
    const auto a = random_token();
    const auto b = random_token();
    EXPECT_EQ(a.size(), 32U);  // 128 bits
    EXPECT_NE(a, b);
    EXPECT_EQ(hash_secret(a), hash_secret(a));
    EXPECT_NE(hash_secret(a), hash_secret(b));
    const auto h = hash_password("correct horse");
    EXPECT_TRUE(verify_password(h, "correct horse"));
    EXPECT_FALSE(verify_password(h, "wrong horse"));
}

}  // namespace
}  // namespace papan::server
