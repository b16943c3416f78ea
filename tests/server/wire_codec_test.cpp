// The protocol's codec (server/src/api/wire_codec.cpp) against the client side written apart
// from it (the load tool's apply_state_delta, as the web client's applyDelta): an event is
// written from the session it made and the event itself, never by comparing states, so this
// checks the one thing that must hold: the state before, with the event's delta applied, is the
// state after, field for field. Games of every kind play seeded random commands (moves, undos,
// offers and their answers, takebacks, chat, resignations, flags) and every change is checked.
#include "api/wire_codec.hpp"
#include "game/session.hpp"

#include <papan/core/notation/move_text.hpp>
#include <papan/core/notation/squares.hpp>
#include <papan/core/rules/registry.hpp>
#include <papan/loadtest/state_delta.hpp>
#include <papan/server/wire/json_writer.hpp>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <random>

namespace papan::server {
namespace {

using Json = nlohmann::json;

constexpr std::int64_t kStart = 1'764'400'000'000;

const Identity kAnn{"gann", "Ann", std::nullopt};
const Identity kBob{"gbob", "Bob", std::nullopt};

GameRecord record(GameMode mode, core::VariantId v, TimeControl tc) {
    GameRecord r;
    r.id           = "0123456789abcdef";
    r.variant      = std::string(core::rules(v).key);
    r.mode         = mode;
    r.start_fen    = std::string(core::rules(v).start_fen);
    r.time_control = tc;
    r.status       = GameStatus::Playing;
    r.seats[0]     = SeatRecord{kAnn.player_id, kAnn.name, false, std::nullopt};
    if (mode == GameMode::Computer) {
        r.level    = Level::Easy;
        r.seats[1] = SeatRecord{"ai", "Computer (easy)", true, std::nullopt};
    } else if (mode == GameMode::Hotseat) {
        r.seats[1] = r.seats[0];
    } else {
        r.seats[1] = SeatRecord{kBob.player_id, kBob.name, false, std::nullopt};
    }
    return r;
}

Json state_of(const WireMessages& wire, const GameSession& s, std::int64_t now) {
    return Json::parse(wire.state(s, now, std::nullopt))["state"];
}

// Plays `steps` random commands on the session, checking each change's event against the
// states before and after it. Returns the number of changes checked.
int play_and_check(GameSession s, std::uint64_t seed, int steps) {
    const WireMessages wire;
    const GameSettings settings;
    std::mt19937_64 rng(seed);
    std::int64_t now = kStart;
    int checked      = 0;
    for (int step = 0; step < steps; ++step) {
        now += static_cast<std::int64_t>(rng() % 4'000);
        const Json before = state_of(wire, s, now);
        GameSession next  = s;
        const auto side   = next.game.side_to_move();
        const Identity& who =
            next.header.mode == GameMode::Friend && side == core::Color::Black ? kBob : kAnn;
        std::optional<Change> change;
        if (next.computer_to_move()) {
            const auto& legal = next.game.legal_moves();
            change            = next.computer_move(legal[rng() % legal.size()], now);
        } else if (auto due = next.clock_due(now, settings)) {
            change = std::move(due);
        } else {
            GameCommand c;
            const auto roll = rng() % 100;
            if (roll < 85 && next.playing()) {
                const auto& legal = next.game.legal_moves();
                const auto& m     = legal[rng() % legal.size()];
                c.kind            = CommandKind::Move;
                c.move.ply        = next.game.ply();
                if (rng() % 2 == 0) {
                    c.move.path = core::path_squares(next.game.variant(), m);
                } else {
                    c.move.text = core::move_text_full(next.game.position(), m);
                }
            } else {
                constexpr std::array kinds{CommandKind::Undo,
                                           CommandKind::DrawOffer,
                                           CommandKind::DrawAccept,
                                           CommandKind::DrawDecline,
                                           CommandKind::TakebackOffer,
                                           CommandKind::TakebackAccept,
                                           CommandKind::TakebackDecline,
                                           CommandKind::Chat,
                                           CommandKind::Rematch,
                                           CommandKind::Resign};
                c.kind = kinds[rng() % kinds.size()];
                c.text = "line " + std::to_string(step);
            }
            // The other player answers offers half the time.
            const Identity& actor = next.header.mode == GameMode::Friend && rng() % 2 == 0
                                        ? (who.player_id == kAnn.player_id ? kBob : kAnn)
                                        : who;
            auto d                = next.command(c, actor, now, settings);
            if (auto* ch = std::get_if<Change>(&d)) {
                change = std::move(*ch);
            }
        }
        if (!change) {
            continue;
        }
        const Json after = state_of(wire, next, now);
        const Json event = Json::parse(wire.event(next, change->event, now));
        EXPECT_EQ(event["version"], before["version"].get<std::int64_t>() + 1);
        EXPECT_EQ(event["version"], after["version"]);
        if (change->event.kind == EventKind::Start) {
            EXPECT_EQ(event["state"], after);
        } else {
            Json built = before;
            EXPECT_TRUE(loadtest::apply_state_delta(built, event["delta"])) << event.dump();
            EXPECT_EQ(built, after)
                << "event " << event["event"].dump() << "\ndelta " << event["delta"].dump();
            if (built != after) {
                return checked;
            }
            // The comparison sees a delta that lacks a field its event changed.
            if (change->event.kind == EventKind::Move) {
                Json partial = event["delta"];
                partial.erase("fen");
                Json short_of = before;
                EXPECT_TRUE(loadtest::apply_state_delta(short_of, partial));
                EXPECT_NE(short_of, after) << "a move's delta without its fen built the state";
            }
        }
        ++checked;
        s = std::move(next);
        if (s.header.status == GameStatus::Over && rng() % 4 == 0) {
            break;
        }
    }
    return checked;
}

TEST(WireCodec, EveryEventsDeltaTurnsTheStateBeforeIntoTheStateAfter) {
    int changes        = 0;
    std::uint64_t seed = 1;
    for (const auto& r : core::all_variants()) {
        for (const auto mode : {GameMode::Hotseat, GameMode::Friend, GameMode::Computer}) {
            for (const auto& tc : {TimeControl{},
                                   TimeControl{TimeKind::Fischer, 120'000, 0, 0, 2'000},
                                   TimeControl{TimeKind::ByoYomi, 30'000, 2, 10'000, 0}}) {
                auto s = GameSession::from_record(record(mode, r.id, tc), kStart);
                ASSERT_TRUE(static_cast<bool>(s)) << s.error();
                changes += play_and_check(std::move(s).value(), ++seed, 160);
            }
        }
    }
    EXPECT_GT(changes, 3000);  // 3,697 with these seeds
}

TEST(WireCodec, AStartCarriesTheWholeStateAndTheJoinedSide) {
    GameRecord r  = record(GameMode::Friend, core::VariantId::Russian, default_time_control());
    r.status      = GameStatus::Waiting;
    r.seats[1]    = SeatRecord{};
    r.invite_hash = "h";
    auto s        = GameSession::from_record(r, kStart).value();
    auto d        = s.join(kBob, kStart + 5);
    ASSERT_TRUE(std::holds_alternative<Change>(d));
    const WireMessages wire;
    const Json e = Json::parse(wire.event(s, std::get<Change>(d).event, kStart + 5));
    EXPECT_EQ(e["event"], (Json{{"kind", "start"}, {"joined", "black"}}));
    EXPECT_FALSE(e.contains("delta"));
    EXPECT_EQ(e["state"]["players"]["black"]["name"], "Bob");
    EXPECT_EQ(e["state"]["status"], "playing");
}

TEST(WireCodec, TextIsEscapedAndBadUtf8Replaced) {
    std::string out;
    wire::JsonWriter w(out);
    w.begin_object()
        .field("a", std::string_view("q\"b\\n\n\x01"))
        .field("bad", std::string_view("x\xff\xc0\xafy\xe2\x82"))
        .field("ok", std::string_view("Tamu \xe2\x82\xac \xf0\x9f\x99\x82"))
        .field("n", -5)
        .field("u", std::uint64_t{18'446'744'073'709'551'615ULL})
        .field("d", 300.0)
        .field("h", 2.5)
        .null_field("z");
    w.key("list").begin_array().value(1).value(true).begin_object().end_object().end_array();
    w.end_object();
    const Json j = Json::parse(out);  // throws on anything that is not JSON
    EXPECT_EQ(j["a"], "q\"b\\n\n\x01");
    EXPECT_EQ(j["bad"], "x\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbdy\xef\xbf\xbd\xef\xbf\xbd");
    EXPECT_EQ(j["ok"], "Tamu \xe2\x82\xac \xf0\x9f\x99\x82");
    EXPECT_EQ(j["n"], -5);
    EXPECT_EQ(j["u"], 18'446'744'073'709'551'615ULL);
    EXPECT_EQ(out.find("\"d\":300.0"), out.find("\"d\""));
    EXPECT_EQ(j["h"], 2.5);
    EXPECT_TRUE(j["z"].is_null());
    EXPECT_EQ(j["list"], (Json{1, true, Json::object()}));
}

}  // namespace
}  // namespace papan::server
