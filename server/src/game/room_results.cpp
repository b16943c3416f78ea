// Room: the end of a game: the ending event, and the ratings and reward points written in the
// same transaction as the final move or ending (docs/protocol.md, "Ratings and rewards").
#include "game/game_json.hpp"
#include "game/room.hpp"

#include <papan/server/elo.hpp>

#include <algorithm>

namespace papan::server {

using Json = nlohmann::json;

namespace {

constexpr int kRewardMinPlies = 16;

struct ResultSeat {
    std::string player_id;
    std::optional<std::int64_t> user_id;
    bool computer = false;
    double score  = 0;
};

int reward_points(const ResultSeat& seat, bool vs_computer) {
    if (vs_computer) {
        return seat.score == 1.0 ? 6 : 0;
    }
    return seat.score == 1.0 ? 15 : seat.score == 0.5 ? 8 : 5;
}

}  // namespace

void Room::apply_ending(std::string_view kind, core::Color by, const Origin& origin) {
    // Precondition: begin_change() ran and game_ holds the ending.
    if (tc_.enabled() && first_moves_made() && kind != "flag") {  // no clock ran before them
        auto& pc         = clock_of(game_.side_to_move());
        pc               = clock_after_move(tc_, pc, elapsed_ms()).value_or(PlayerClock{});
        turn_started_ms_ = svc_.clock.now_ms();
    }
    draw_offer_     = std::nullopt;
    takeback_offer_ = std::nullopt;
    ++ai_epoch_;
    update_status();
    const GameRecord h = next_header();
    commit(Json{{"kind", kind}, {"by", color_key(by)}},
           with_results([h](Store& s) { s.update_game(h); }),
           origin);
}

Room::StoreWrite Room::with_results(StoreOp op) {
    const auto& r = game_.result();
    std::array<ResultSeat, 2> seats;
    for (std::size_t c = 0; c < 2; ++c) {
        const auto& s   = rec_.seats[c];
        const auto col  = static_cast<core::Color>(c);
        const double sc = r.outcome == core::Outcome::Draw ? 0.5
                          : core::winner(r.outcome) == col ? 1.0
                                                           : 0.0;
        seats[c]        = ResultSeat{s.player_id, s.user_id, s.computer, sc};
    }
    const bool rated = rec_.rated && seats[0].user_id && seats[1].user_id && !seats[0].computer &&
                       !seats[1].computer;
    const bool rewards        = game_.ply() >= kRewardMinPlies && rec_.mode != GameMode::Hotseat;
    const std::string variant = rec_.variant;
    const std::string day     = utc_day(svc_.clock.now_ms());
    const int cap             = svc_.options.reward_daily_cap;
    const std::int64_t now    = svc_.clock.now_ms();
    auto ratings_out          = std::make_shared<Json>();

    StoreOp write = [prev = std::move(op),
                     seats,
                     rated,
                     rewards,
                     variant,
                     day,
                     cap,
                     now,
                     game    = id_,
                     ratings = ratings_out](Store& s) {
        s.transaction([&] {
            prev(s);
            if (rated) {
                auto a              = s.rating(*seats[0].user_id, variant);
                auto b              = s.rating(*seats[1].user_id, variant);
                const auto [na, nb] = elo_update(a.rating, b.rating, seats[0].score);
                s.add_rating_change({a.user_id,
                                     variant,
                                     game,
                                     na,
                                     na - a.rating,
                                     static_cast<int>(seats[0].score * 2),
                                     now});
                s.add_rating_change({b.user_id,
                                     variant,
                                     game,
                                     nb,
                                     nb - b.rating,
                                     static_cast<int>(seats[1].score * 2),
                                     now});
                *ratings = Json{{"white", {{"before", a.rating}, {"after", na}}},
                                {"black", {{"before", b.rating}, {"after", nb}}}};
                a.rating = na;
                b.rating = nb;
                ++a.games;
                ++b.games;
                s.set_rating(a);
                s.set_rating(b);
            }
            if (!rewards) {
                return;
            }
            const bool vs_computer = seats[0].computer || seats[1].computer;
            for (const auto& seat : seats) {
                if (seat.computer || seat.player_id.empty()) {
                    continue;
                }
                if (const int points = reward_points(seat, vs_computer); points > 0) {
                    (void)s.add_reward(seat.player_id, day, points, cap);
                }
            }
        });
    };
    return StoreWrite{std::move(write), std::move(ratings_out)};
}

Json Room::stored_ratings(const GameRecord& rec) {
    Json out = Json::object();
    for (std::size_t c = 0; c < 2; ++c) {
        const auto& seat = rec.seats[c];
        const auto it    = std::find_if(
            rec.rating_changes.begin(), rec.rating_changes.end(), [&](const RatingChangeRecord& r) {
                return seat.user_id && r.user_id == *seat.user_id;
            });
        if (it == rec.rating_changes.end()) {
            return nullptr;
        }
        out[std::string(color_key(static_cast<core::Color>(c)))] = {
            {"before", it->rating - it->change}, {"after", it->rating}};
    }
    return out;
}

}  // namespace papan::server
