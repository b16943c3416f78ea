#include "game/lifecycle.hpp"

namespace papan::server {

bool clock_runs(const GameRecord& rec) {
    return rec.status == GameStatus::Playing && rec.time_control.enabled();
}

bool abandon_if_stale(GameRecord& rec, std::int64_t now_ms, std::int64_t abandon_after_ms) {
    if (abandon_after_ms <= 0 || rec.status == GameStatus::Over || clock_runs(rec) ||
        rec.updated_ms >= now_ms - abandon_after_ms) {
        return false;
    }
    rec.status      = GameStatus::Over;
    rec.outcome     = core::Outcome::Ongoing;
    rec.reason      = EndReason::Abandoned;
    rec.result_text = "Abandoned: no move for a long time";
    rec.invite_hash.clear();
    rec.updated_ms = now_ms;
    ++rec.version;
    return true;
}

}  // namespace papan::server
