#include "game/results.hpp"

#include <papan/server/elo.hpp>

#include <ctime>

namespace papan::server {

namespace {

int reward_points(const ResultsWrite::Seat& seat, bool vs_computer) {
    if (vs_computer) {
        return seat.score == 1.0 ? 6 : 0;
    }
    return seat.score == 1.0 ? 15 : seat.score == 0.5 ? 8 : 5;
}

}  // namespace

std::string utc_day(std::int64_t ms) {
    const auto t = static_cast<std::time_t>(ms / 1000);
    std::tm tm{};
    gmtime_r(&t, &tm);
    char buf[16];
    std::strftime(buf, sizeof buf, "%Y-%m-%d", &tm);
    return buf;
}

ResultsWrite results_of(const GameSession& s, const GameSettings& settings, std::int64_t now_ms) {
    ResultsWrite w;
    const auto& r = s.game.result();
    for (std::size_t c = 0; c < 2; ++c) {
        const auto& seat = s.header.seats[c];
        const auto col   = static_cast<core::Color>(c);
        const double sc  = r.outcome == core::Outcome::Draw ? 0.5
                           : core::winner(r.outcome) == col ? 1.0
                                                            : 0.0;
        w.seats[c]       = ResultsWrite::Seat{seat.player_id, seat.user_id, seat.computer, sc};
    }
    w.game    = s.header.id;
    w.variant = s.header.variant;
    w.rated = s.header.rated && w.seats[0].user_id && w.seats[1].user_id && !w.seats[0].computer &&
              !w.seats[1].computer && r.outcome != core::Outcome::Ongoing;
    w.rewards = s.game.ply() >= kRewardMinPlies && s.header.mode != GameMode::Hotseat &&
                r.outcome != core::Outcome::Ongoing;
    w.day       = utc_day(now_ms);
    w.daily_cap = settings.reward_daily_cap;
    w.at_ms     = now_ms;
    return w;
}

std::optional<Ratings> ResultsWrite::write(Store& s) const {
    std::optional<Ratings> out;
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
                             at_ms});
        s.add_rating_change({b.user_id,
                             variant,
                             game,
                             nb,
                             nb - b.rating,
                             static_cast<int>(seats[1].score * 2),
                             at_ms});
        out      = Ratings{RatingMove{a.rating, na}, RatingMove{b.rating, nb}};
        a.rating = na;
        b.rating = nb;
        ++a.games;
        ++b.games;
        s.set_rating(a);
        s.set_rating(b);
    }
    if (rewards) {
        const bool vs_computer = seats[0].computer || seats[1].computer;
        for (const auto& seat : seats) {
            if (seat.computer || seat.player_id.empty()) {
                continue;
            }
            if (const int points = reward_points(seat, vs_computer); points > 0) {
                (void)s.add_reward(seat.player_id, day, points, daily_cap);
            }
        }
    }
    return out;
}

}  // namespace papan::server
