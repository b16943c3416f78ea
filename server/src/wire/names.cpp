#include <papan/server/wire/names.hpp>

#include <array>
#include <span>
#include <utility>

namespace papan::server::wire {

namespace {

template <class E>
using Table = std::span<const std::pair<E, std::string_view>>;

template <class E>
std::string_view name_in(Table<E> table, E e) noexcept {
    for (const auto& [value, text] : table) {
        if (value == e) {
            return text;
        }
    }
    return "";
}

template <class E>
std::optional<E> value_in(Table<E> table, std::string_view s) noexcept {
    for (const auto& [value, text] : table) {
        if (text == s) {
            return value;
        }
    }
    return std::nullopt;
}

constexpr std::array<std::pair<core::Color, std::string_view>, 2> kColors{{
    {core::Color::White, "white"},
    {core::Color::Black, "black"},
}};

constexpr std::array<std::pair<core::Outcome, std::string_view>, 4> kOutcomes{{
    {core::Outcome::Ongoing, ""},
    {core::Outcome::WhiteWins, "white_wins"},
    {core::Outcome::BlackWins, "black_wins"},
    {core::Outcome::Draw, "draw"},
}};

constexpr std::array<std::pair<EndReason, std::string_view>, 16> kReasons{{
    {EndReason::None, ""},
    {EndReason::NoPieces, "no_pieces"},
    {EndReason::NoMoves, "no_moves"},
    {EndReason::Resignation, "resignation"},
    {EndReason::Timeout, "timeout"},
    {EndReason::Agreement, "agreement"},
    {EndReason::Repetition, "repetition"},
    {EndReason::NoProgress, "no_progress"},
    {EndReason::MoveLimit, "move_limit"},
    {EndReason::EndgameRule, "endgame_rule"},
    {EndReason::InsufficientMaterial, "insufficient_material"},
    {EndReason::TimeoutWithDrawClaimable, "timeout_draw_claimable"},
    {EndReason::TimeoutOpponentCannotWin, "timeout_opponent_cannot_win"},
    {EndReason::Aborted, "aborted"},
    {EndReason::Abandoned, "abandoned"},
    {EndReason::Imported, "imported"},
}};

constexpr std::array<std::pair<GameStatus, std::string_view>, 3> kStatuses{{
    {GameStatus::Waiting, "waiting"},
    {GameStatus::Playing, "playing"},
    {GameStatus::Over, "over"},
}};

constexpr std::array<std::pair<GameMode, std::string_view>, 5> kModes{{
    {GameMode::Computer, "computer"},
    {GameMode::Friend, "friend"},
    {GameMode::Hotseat, "hotseat"},
    {GameMode::Random, "random"},
    {GameMode::Imported, "imported"},
}};

constexpr std::array<std::pair<Level, std::string_view>, 4> kLevels{{
    {Level::None, ""},
    {Level::Easy, "easy"},
    {Level::Normal, "normal"},
    {Level::Hard, "hard"},
}};

constexpr std::array<std::pair<core::DrawRuleSet, std::string_view>, 3> kDrawRules{{
    {core::DrawRuleSet::Standard, "standard"},
    {core::DrawRuleSet::AmericanClub, "american_club"},
    {core::DrawRuleSet::RussianOfficial, "russian_official"},
}};

constexpr std::array<std::pair<TimeKind, std::string_view>, 3> kTimeKinds{{
    {TimeKind::None, ""},
    {TimeKind::ByoYomi, "byoyomi"},
    {TimeKind::Fischer, "fischer"},
}};

constexpr std::array<std::pair<core::NoProgressRule, std::string_view>, 5> kNoProgress{{
    {core::NoProgressRule::None, ""},
    {core::NoProgressRule::NoCaptureNoManMove, "no_capture_no_man_move"},
    {core::NoProgressRule::KingsOnlyNoCapture, "kings_only_no_capture"},
    {core::NoProgressRule::NoCaptureNoManAdvance, "no_capture_no_man_advance"},
    {core::NoProgressRule::NoCaptureNoCrowning, "no_capture_no_crowning"},
}};

constexpr std::array<std::pair<EventKind, std::string_view>, 15> kEvents{{
    {EventKind::Start, "start"},
    {EventKind::Move, "move"},
    {EventKind::Undo, "undo"},
    {EventKind::Resign, "resign"},
    {EventKind::DrawOffer, "draw_offer"},
    {EventKind::DrawDecline, "draw_decline"},
    {EventKind::DrawAgreed, "draw_agreed"},
    {EventKind::DrawClaimed, "draw_claimed"},
    {EventKind::Flag, "flag"},
    {EventKind::Abort, "abort"},
    {EventKind::RematchOffer, "rematch_offer"},
    {EventKind::TakebackOffer, "takeback_offer"},
    {EventKind::TakebackDecline, "takeback_decline"},
    {EventKind::Rematch, "rematch"},
    {EventKind::Chat, "chat"},
}};

constexpr std::array<std::pair<ErrorCode, std::string_view>, 43> kErrors{{
    {ErrorCode::BadJson, "bad_json"},
    {ErrorCode::BadMessage, "bad_message"},
    {ErrorCode::UnknownType, "unknown_type"},
    {ErrorCode::HelloFirst, "hello_first"},
    {ErrorCode::BadToken, "bad_token"},
    {ErrorCode::BadSecret, "bad_secret"},
    {ErrorCode::BadVariant, "bad_variant"},
    {ErrorCode::BadMode, "bad_mode"},
    {ErrorCode::BadLevel, "bad_level"},
    {ErrorCode::BadColor, "bad_color"},
    {ErrorCode::BadOptions, "bad_options"},
    {ErrorCode::BadFen, "bad_fen"},
    {ErrorCode::UnknownGame, "unknown_game"},
    {ErrorCode::NotYourGame, "not_your_game"},
    {ErrorCode::NotYourTurn, "not_your_turn"},
    {ErrorCode::NotStarted, "not_started"},
    {ErrorCode::GameOver, "game_over"},
    {ErrorCode::IllegalMove, "illegal_move"},
    {ErrorCode::StalePly, "stale_ply"},
    {ErrorCode::BadPly, "bad_ply"},
    {ErrorCode::OutOfTime, "out_of_time"},
    {ErrorCode::UndoNotAllowed, "undo_not_allowed"},
    {ErrorCode::NothingToUndo, "nothing_to_undo"},
    {ErrorCode::TakebackNotAllowed, "takeback_not_allowed"},
    {ErrorCode::NoTakebackOffer, "no_takeback_offer"},
    {ErrorCode::ChatNotAllowed, "chat_not_allowed"},
    {ErrorCode::ChatTooLong, "chat_too_long"},
    {ErrorCode::ChatEmpty, "chat_empty"},
    {ErrorCode::ChatRate, "chat_rate"},
    {ErrorCode::NoDrawOffer, "no_draw_offer"},
    {ErrorCode::AlreadyOffered, "already_offered"},
    {ErrorCode::NoClaim, "no_claim"},
    {ErrorCode::GameNotOver, "game_not_over"},
    {ErrorCode::InviteInvalid, "invite_invalid"},
    {ErrorCode::InviteExpired, "invite_expired"},
    {ErrorCode::InviteUsed, "invite_used"},
    {ErrorCode::Refused, "refused"},
    {ErrorCode::ShuttingDown, "shutting_down"},
    {ErrorCode::TooManyGames, "too_many_games"},
    {ErrorCode::TooManyCreates, "too_many_creates"},
    {ErrorCode::Unavailable, "unavailable"},
    {ErrorCode::StoreUnavailable, "store_unavailable"},
    {ErrorCode::Internal, "internal"},
}};

// The in-game commands' names are their message types (docs/protocol.md, "Commands").
constexpr std::array<std::pair<CommandKind, std::string_view>, 12> kCommands{{
    {CommandKind::Move, "move"},
    {CommandKind::Resign, "resign"},
    {CommandKind::DrawOffer, "draw_offer"},
    {CommandKind::DrawAccept, "draw_accept"},
    {CommandKind::DrawDecline, "draw_decline"},
    {CommandKind::DrawClaim, "draw_claim"},
    {CommandKind::Undo, "undo"},
    {CommandKind::Rematch, "rematch"},
    {CommandKind::TakebackOffer, "takeback_offer"},
    {CommandKind::TakebackAccept, "takeback_accept"},
    {CommandKind::TakebackDecline, "takeback_decline"},
    {CommandKind::Chat, "chat"},
}};

}  // namespace

std::string_view name(core::Color c) noexcept {
    return name_in<core::Color>(kColors, c);
}

std::string_view name(core::Outcome o) noexcept {
    return name_in<core::Outcome>(kOutcomes, o);
}

std::string_view name(EndReason r) noexcept {
    return name_in<EndReason>(kReasons, r);
}

std::string_view name(GameStatus s) noexcept {
    return name_in<GameStatus>(kStatuses, s);
}

std::string_view name(GameMode m) noexcept {
    return name_in<GameMode>(kModes, m);
}

std::string_view name(Level l) noexcept {
    return name_in<Level>(kLevels, l);
}

std::string_view name(core::DrawRuleSet d) noexcept {
    return name_in<core::DrawRuleSet>(kDrawRules, d);
}

std::string_view name(TimeKind k) noexcept {
    return name_in<TimeKind>(kTimeKinds, k);
}

std::string_view name(core::NoProgressRule r) noexcept {
    return name_in<core::NoProgressRule>(kNoProgress, r);
}

std::string_view name(EventKind k) noexcept {
    return name_in<EventKind>(kEvents, k);
}

std::string_view name(ErrorCode e) noexcept {
    return name_in<ErrorCode>(kErrors, e);
}

std::string_view name(CommandKind c) noexcept {
    return name_in<CommandKind>(kCommands, c);
}

std::optional<CommandKind> parse_command(std::string_view s) noexcept {
    return value_in<CommandKind>(kCommands, s);
}

std::optional<core::Color> parse_color(std::string_view s) noexcept {
    return value_in<core::Color>(kColors, s);
}

std::optional<core::Outcome> parse_outcome(std::string_view s) noexcept {
    return value_in<core::Outcome>(kOutcomes, s);
}

std::optional<EndReason> parse_end_reason(std::string_view s) noexcept {
    return value_in<EndReason>(kReasons, s);
}

std::optional<GameStatus> parse_status(std::string_view s) noexcept {
    return value_in<GameStatus>(kStatuses, s);
}

std::optional<GameMode> parse_mode(std::string_view s) noexcept {
    return value_in<GameMode>(kModes, s);
}

std::optional<Level> parse_level(std::string_view s) noexcept {
    return value_in<Level>(kLevels, s);
}

std::optional<core::DrawRuleSet> parse_draw_rules(std::string_view s) noexcept {
    return value_in<core::DrawRuleSet>(kDrawRules, s);
}

std::optional<TimeKind> parse_time_kind(std::string_view s) noexcept {
    return value_in<TimeKind>(kTimeKinds, s);
}

std::optional<EventKind> parse_event_kind(std::string_view s) noexcept {
    return value_in<EventKind>(kEvents, s);
}

std::optional<ErrorCode> parse_error_code(std::string_view s) noexcept {
    return value_in<ErrorCode>(kErrors, s);
}

}  // namespace papan::server::wire
