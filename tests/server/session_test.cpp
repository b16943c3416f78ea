// The game layer's values, without a room, a store or a socket (server/src/game/): the clock,
// the offers, the chat log and the session's commands, each a plain value driven with the time
// given to it.
#include "game/chat_log.hpp"
#include "game/game_clock.hpp"
#include "game/offers.hpp"
#include "game/session.hpp"

#include <papan/core/notation/move_text.hpp>
#include <papan/core/rules/registry.hpp>

#include <gtest/gtest.h>

namespace papan::server {
namespace {

constexpr std::int64_t kT0 = 1'764'400'000'000;

const Identity kAnn{"gann", "Ann", std::nullopt};
const Identity kBob{"gbob", "Bob", std::nullopt};
const Identity kEve{"geve", "Eve", std::nullopt};

TEST(GameClock, ChargesTheMoverAndFlagsOnTime) {
    auto c = GameClock::fresh(TimeControl{TimeKind::Fischer, 10'000, 0, 0, 1'000}, kT0);
    EXPECT_TRUE(c.enabled());
    EXPECT_EQ(c.elapsed(kT0 - 5), 0);  // a time before the turn counts nothing
    EXPECT_TRUE(c.charge(core::Color::White, kT0 + 4'000));
    EXPECT_EQ(c.of(core::Color::White).main_ms, 7'000);  // 6 s left + 1 s increment
    c.start_turn(kT0 + 4'000);
    EXPECT_EQ(c.flag_due_ms(core::Color::Black), 10'000);
    EXPECT_FALSE(c.flagged(core::Color::Black, kT0 + 13'999));
    EXPECT_TRUE(c.flagged(core::Color::Black, kT0 + 14'000));
    EXPECT_EQ(c.view(core::Color::Black, true, kT0 + 6'000).main_ms, 8'000);
    EXPECT_EQ(c.view(core::Color::Black, false, kT0 + 6'000).main_ms, 10'000);
    const auto before = c;
    EXPECT_FALSE(c.charge(core::Color::Black, kT0 + 20'000));  // flagged: nothing changes
    EXPECT_EQ(c, before);
    c.flag(core::Color::Black);
    EXPECT_EQ(c.of(core::Color::Black), (PlayerClock{0, 0}));
}

TEST(Offers, ADrawOfferStandsUntilAnswered) {
    DrawOffer d;
    EXPECT_FALSE(d.answerable_by(core::Color::Black));
    EXPECT_EQ(d.offer(core::Color::White), DrawOffer::Offered::Made);
    EXPECT_EQ(d.offer(core::Color::White), DrawOffer::Offered::AlreadyOffered);
    EXPECT_TRUE(d.answerable_by(core::Color::Black));
    EXPECT_FALSE(d.answerable_by(core::Color::White));
    EXPECT_EQ(d.offer(core::Color::Black), DrawOffer::Offered::Agreed);
    d.clear();
    EXPECT_FALSE(d.by());
}

TEST(Offers, ATakebackTakesTheAskersLastMoveAndTheReplySince) {
    core::Game g(core::VariantId::International);
    EXPECT_EQ(TakebackRequest::plies(g, core::Color::White), 0);
    ASSERT_TRUE(g.play(g.legal_moves()[0]));
    EXPECT_EQ(TakebackRequest::plies(g, core::Color::White), 1);  // Black has not answered
    EXPECT_EQ(TakebackRequest::plies(g, core::Color::Black), 0);  // Black has not moved
    ASSERT_TRUE(g.play(g.legal_moves()[0]));
    EXPECT_EQ(TakebackRequest::plies(g, core::Color::White), 2);
    EXPECT_EQ(TakebackRequest::plies(g, core::Color::Black), 1);
    Rematch r;
    r.want(core::Color::Black);
    EXPECT_TRUE(r.wanted(core::Color::Black));
    EXPECT_FALSE(r.wanted(core::Color::White));
}

TEST(ChatLog, CleansBoundsAndRatesLines) {
    ChatLog log;
    const auto code = [](const std::variant<ChatRecord, Refusal>& r) {
        return std::holds_alternative<Refusal>(r) ? std::get<Refusal>(r).code : ErrorCode::Internal;
    };
    EXPECT_EQ(code(log.write(core::Color::White, " \u200b ", 0, kT0)), ErrorCode::ChatEmpty);
    EXPECT_EQ(code(log.write(core::Color::White, std::string(201, 'a'), 0, kT0)),
              ErrorCode::ChatTooLong);
    for (int i = 0; i < 5; ++i) {
        const auto r = log.write(core::Color::White, " hi\u202e ", 3, kT0 + i);
        ASSERT_TRUE(std::holds_alternative<ChatRecord>(r));
        EXPECT_EQ(std::get<ChatRecord>(r).text, "hi");
    }
    EXPECT_EQ(code(log.write(core::Color::White, "sixth", 3, kT0 + 9'999)), ErrorCode::ChatRate);
    EXPECT_TRUE(std::holds_alternative<ChatRecord>(log.write(core::Color::Black, "b", 3, kT0)));
    EXPECT_TRUE(std::holds_alternative<ChatRecord>(
        log.write(core::Color::White, "later", 4, kT0 + 10'000)));
    EXPECT_EQ(log.lines().size(), 7U);
    EXPECT_EQ(log.lines().back().ply, 4);
}

GameSession friend_game(TimeControl tc = {}) {
    GameRecord r;
    r.id           = "feedfacecafebeef";
    r.variant      = "international";
    r.mode         = GameMode::Friend;
    r.start_fen    = std::string(core::rules(core::VariantId::International).start_fen);
    r.time_control = tc;
    r.status       = GameStatus::Waiting;
    r.invite_hash  = "hash";
    r.seats[0]     = SeatRecord{kAnn.player_id, kAnn.name, false, std::nullopt};
    auto s         = GameSession::from_record(r, kT0);
    EXPECT_TRUE(static_cast<bool>(s));
    return std::move(s).value();
}

GameCommand move_cmd(const GameSession& s, std::size_t i = 0) {
    GameCommand c;
    c.move.ply  = s.game.ply();
    c.move.path = core::path_squares(s.game.variant(), s.game.legal_moves()[i]);
    return c;
}

template <class T>
const T& as(const Decision& d) {
    EXPECT_TRUE(std::holds_alternative<T>(d)) << "another decision";
    return std::get<T>(d);
}

TEST(GameSession, AFriendGameStartsMovesAndAnswersEveryRefusal) {
    auto s = friend_game();
    EXPECT_EQ(as<Refusal>(s.command(move_cmd(s), kAnn, kT0, {})).code, ErrorCode::NotStarted);
    const auto start = as<Change>(s.join(kBob, kT0 + 10));
    EXPECT_EQ(start.event.kind, EventKind::Start);
    EXPECT_EQ(start.event.by, core::Color::Black);
    EXPECT_EQ(start.write.kind, StoreWrite::Kind::Header);
    EXPECT_EQ(s.version(), 1);
    EXPECT_EQ(s.header.status, GameStatus::Playing);
    EXPECT_EQ(s.owned_color(kBob), core::Color::Black);

    EXPECT_EQ(as<Refusal>(s.command(move_cmd(s), kBob, kT0, {})).code, ErrorCode::NotYourTurn);
    GameCommand bad = move_cmd(s);
    bad.move.path   = {31, 22};
    EXPECT_EQ(as<Refusal>(s.command(bad, kAnn, kT0, {})).code, ErrorCode::IllegalMove);
    GameCommand ahead = move_cmd(s);
    ahead.move.ply    = 3;
    EXPECT_EQ(as<Refusal>(s.command(ahead, kAnn, kT0, {})).code, ErrorCode::BadPly);
    const GameCommand first = move_cmd(s);
    const GameCommand other = move_cmd(s, 1);
    const auto moved        = as<Change>(s.command(first, kAnn, kT0 + 20, {}));
    EXPECT_EQ(moved.event.kind, EventKind::Move);
    EXPECT_EQ(moved.event.ply, 0);
    EXPECT_EQ(moved.write.kind, StoreWrite::Kind::Move);
    EXPECT_EQ(moved.write.move.ply, 0);
    EXPECT_EQ(moved.write.move.at_ms, kT0 + 20);
    EXPECT_TRUE(moved.restart);
    EXPECT_EQ(s.version(), 2);
    // The same move again is a resend (the state), another one for that ply is stale.
    (void)as<SendState>(s.command(first, kAnn, kT0, {}));
    EXPECT_EQ(as<Refusal>(s.command(other, kAnn, kT0, {})).code, ErrorCode::StalePly);
    // A stranger's command never reaches a session (the room answers not_your_game); chat is
    // for the two players.
    GameCommand chat;
    chat.kind       = CommandKind::Chat;
    chat.text       = "good luck";
    const auto said = as<Change>(s.command(chat, kBob, kT0 + 30, {}));
    EXPECT_EQ(said.write.kind, StoreWrite::Kind::Chat);
    EXPECT_EQ(said.write.line.text, "good luck");
    EXPECT_EQ(said.event.by, core::Color::Black);
    EXPECT_FALSE(s.owned_color(kEve));
}

TEST(GameSession, DrawOffersTakebacksAndAResignation) {
    auto s = friend_game();
    (void)s.join(kBob, kT0);
    (void)as<Change>(s.command(move_cmd(s), kAnn, kT0, {}));
    GameCommand c;
    c.kind = CommandKind::DrawAccept;
    EXPECT_EQ(as<Refusal>(s.command(c, kBob, kT0, {})).code, ErrorCode::NoDrawOffer);
    c.kind = CommandKind::DrawOffer;
    EXPECT_EQ(as<Change>(s.command(c, kAnn, kT0, {})).event.kind, EventKind::DrawOffer);
    EXPECT_EQ(as<Refusal>(s.command(c, kAnn, kT0, {})).code, ErrorCode::AlreadyOffered);
    c.kind = CommandKind::DrawDecline;
    EXPECT_EQ(as<Change>(s.command(c, kBob, kT0, {})).event.kind, EventKind::DrawDecline);
    EXPECT_FALSE(s.draw.by());

    c.kind = CommandKind::TakebackOffer;
    EXPECT_EQ(as<Change>(s.command(c, kAnn, kT0, {})).write.kind, StoreWrite::Kind::None);
    c.kind = CommandKind::TakebackAccept;
    EXPECT_EQ(as<Refusal>(s.command(c, kAnn, kT0, {})).code, ErrorCode::NoTakebackOffer);
    const auto undo = as<Change>(s.command(c, kBob, kT0, {}));
    EXPECT_EQ(undo.event.kind, EventKind::Undo);
    EXPECT_EQ(undo.event.plies, 1);
    EXPECT_EQ(undo.event.by, core::Color::Black);
    EXPECT_EQ(undo.write.kind, StoreWrite::Kind::TakeBack);
    EXPECT_EQ(undo.write.from_ply, 0);
    EXPECT_EQ(s.game.ply(), 0);

    c.kind           = CommandKind::Resign;
    const auto ended = as<Change>(s.command(c, kBob, kT0, {}));
    EXPECT_EQ(ended.event.kind, EventKind::Resign);
    EXPECT_TRUE(ended.write.results);
    EXPECT_EQ(s.header.status, GameStatus::Over);
    EXPECT_EQ(s.header.outcome, core::Outcome::WhiteWins);
    EXPECT_EQ(s.header.reason, EndReason::Resignation);
    EXPECT_EQ(as<Refusal>(s.command(c, kAnn, kT0, {})).code, ErrorCode::GameOver);
    c.kind = CommandKind::Rematch;
    EXPECT_EQ(as<Change>(s.command(c, kAnn, kT0, {})).event.kind, EventKind::RematchOffer);
    const Decision both = s.command(c, kBob, kT0, {});
    const auto& open    = as<OpenRematch>(both);
    EXPECT_EQ(open.record.seats[0].player_id, kBob.player_id);  // colours swap
    EXPECT_EQ(open.record.rematch_of, s.id());
}

TEST(GameSession, TheClockFlagsAndAFirstMoveThatNeverComesAborts) {
    const GameSettings settings{.first_move_timeout_ms = 60'000};
    auto s = friend_game(TimeControl{TimeKind::Fischer, 10'000, 0, 0, 0});
    (void)s.join(kBob, kT0);
    EXPECT_EQ(s.clock_due_at(settings), kT0 + 60'000);
    EXPECT_FALSE(s.clock_due(kT0 + 59'999, settings));
    const auto aborted = s.clock_due(kT0 + 60'000, settings);
    ASSERT_TRUE(aborted);
    EXPECT_EQ(aborted->event.kind, EventKind::Abort);
    EXPECT_EQ(s.header.reason, EndReason::Aborted);
    EXPECT_EQ(s.header.outcome, core::Outcome::Ongoing);
    EXPECT_FALSE(aborted->write.results);  // nothing rated or rewarded

    auto t = friend_game(TimeControl{TimeKind::Fischer, 10'000, 0, 0, 0});
    (void)t.join(kBob, kT0);
    (void)as<Change>(t.command(move_cmd(t), kAnn, kT0 + 1'000, settings));
    (void)as<Change>(t.command(move_cmd(t), kBob, kT0 + 2'000, settings));
    EXPECT_TRUE(t.clock_running());
    EXPECT_EQ(t.clock_due_at(settings), kT0 + 12'000);  // White's 10 s from Black's first move
    // A move that arrives too late: the change is White's flag, and White is told why.
    const auto late = as<Change>(t.command(move_cmd(t), kAnn, kT0 + 12'000, settings));
    EXPECT_EQ(late.event.kind, EventKind::Flag);
    ASSERT_TRUE(late.reply);
    EXPECT_EQ(late.reply->code, ErrorCode::OutOfTime);
    EXPECT_EQ(t.header.outcome, core::Outcome::BlackWins);
    EXPECT_EQ(t.header.reason, EndReason::Timeout);
}

TEST(GameSession, AnAcceptedTakebackChargesTheThinkingSideForItsTime) {
    auto s = friend_game(TimeControl{TimeKind::Fischer, 10'000, 0, 0, 0});
    (void)s.join(kBob, kT0);
    (void)as<Change>(s.command(move_cmd(s), kAnn, kT0 + 1'000, {}));
    (void)as<Change>(s.command(move_cmd(s), kBob, kT0 + 2'000, {}));
    (void)as<Change>(s.command(move_cmd(s), kAnn, kT0 + 3'000, {}));  // Bob's clock runs
    GameCommand c;
    c.kind = CommandKind::TakebackOffer;
    (void)as<Change>(s.command(c, kAnn, kT0 + 4'000, {}));
    c.kind          = CommandKind::TakebackAccept;
    const auto undo = as<Change>(s.command(c, kBob, kT0 + 7'000, {}));  // Bob thought 4 s
    EXPECT_EQ(undo.event.plies, 1);
    EXPECT_EQ(s.game.ply(), 2);
    EXPECT_EQ(s.clock.of(core::Color::Black).main_ms, 6'000);  // not given back
    EXPECT_EQ(s.clock.of(core::Color::White).main_ms, 9'000);
    EXPECT_EQ(s.clock.state.turn_started_ms, kT0 + 7'000);  // Ann's clock runs from here
}

TEST(GameSession, UndoAgainstTheComputerAndInHotSeat) {
    GameRecord r;
    r.id        = "aaaabbbbccccdddd";
    r.variant   = "american";
    r.mode      = GameMode::Computer;
    r.level     = Level::Easy;
    r.start_fen = std::string(core::rules(core::VariantId::American).start_fen);
    r.seats[0]  = SeatRecord{kAnn.player_id, kAnn.name, false, std::nullopt};
    r.seats[1]  = SeatRecord{"ai", "Computer (easy)", true, std::nullopt};
    auto s      = GameSession::from_record(r, kT0).value();
    // American: Black (the computer) opens; nothing of White's to take back yet.
    EXPECT_TRUE(s.computer_to_move());
    EXPECT_EQ(s.undo_plies(), 0);
    (void)s.computer_move(s.game.legal_moves()[0], kT0);
    EXPECT_EQ(s.undo_plies(), 0);
    (void)as<Change>(s.command(move_cmd(s), kAnn, kT0, {}));
    EXPECT_EQ(s.undo_plies(), 1);  // while the computer thinks: only White's move
    (void)s.computer_move(s.game.legal_moves()[0], kT0);
    EXPECT_EQ(s.undo_plies(), 2);
    GameCommand undo;
    undo.kind    = CommandKind::Undo;
    const auto u = as<Change>(s.command(undo, kAnn, kT0, {}));
    EXPECT_EQ(u.event.plies, 2);
    EXPECT_EQ(s.game.ply(), 1);
    GameCommand takeback;
    takeback.kind = CommandKind::TakebackOffer;
    EXPECT_EQ(as<Refusal>(s.command(takeback, kAnn, kT0, {})).code, ErrorCode::TakebackNotAllowed);
}

}  // namespace
}  // namespace papan::server
