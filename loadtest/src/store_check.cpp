#include <papan/loadtest/store_check.hpp>

namespace papan::loadtest {

namespace {

// The squares of a move text: "22x33x24" -> {22, 33, 24}; "c3-d4" -> {c3, d4}.
std::vector<std::string> squares_of(const std::string& text) {
    std::vector<std::string> out;
    std::string cur;
    for (const char c : text) {
        if (c == '-' || c == 'x' || c == ':') {
            out.push_back(cur);
            cur.clear();
        } else {
            cur += c;
        }
    }
    out.push_back(cur);
    return out;
}

}  // namespace

// The same move in two notations: the stored record writes a capture with every landing square
// ("22x33x24") where the move event may give only its ends ("22x24") when that is unambiguous.
bool same_move(const std::string& a, const std::string& b) {
    if (a == b) {
        return true;
    }
    const auto sa        = squares_of(a);
    const auto sb        = squares_of(b);
    const bool capture_a = a.find('x') != std::string::npos || a.find(':') != std::string::npos;
    const bool capture_b = b.find('x') != std::string::npos || b.find(':') != std::string::npos;
    return capture_a == capture_b && sa.size() >= 2 && sb.size() >= 2 && sa.front() == sb.front() &&
           sa.back() == sb.back() && (sa.size() == 2 || sb.size() == 2);
}

VerifyCounts compare_game(const GameCheck& g, const std::vector<std::string>& stored) {
    VerifyCounts c;
    const auto note = [&](std::size_t p, const std::string& what) {
        if (c.first_mismatch.empty()) {
            c.first_mismatch = "game " + g.id + " ply " + std::to_string(p) + ": " + what;
        }
    };
    for (std::size_t p = 0; p < g.acked.size(); ++p) {
        if (g.acked[p] && (p >= stored.size() || !same_move(stored[p], g.acked_text[p]))) {
            ++c.lost;
            note(p,
                 "acknowledged '" + g.acked_text[p] + "', stored " +
                     (p < stored.size() ? "'" + stored[p] + "'" : "nothing"));
        }
    }
    for (std::size_t p = 0; p < stored.size(); ++p) {
        const bool acked_here = p < g.acked.size() && g.acked[p];
        if (acked_here && same_move(stored[p], g.acked_text[p])) {
            continue;
        }
        if (!acked_here && p < g.sent.size() && same_move(stored[p], g.sent[p])) {
            ++c.stored_unacked;  // sent, stored, ack still in flight when the run ended
            continue;
        }
        if (!acked_here && static_cast<std::int64_t>(p) == g.reply_awaited_ply &&
            p + 1 == stored.size()) {
            ++c.stored_unacked;  // the computer's reply, stored after the game was left
            continue;
        }
        ++c.duplicated;  // a stored move the client never saw acknowledged nor sent for this ply
        note(p,
             "stored '" + stored[p] + "', sent " +
                 (p < g.sent.size() ? "'" + g.sent[p] + "'" : "nothing"));
    }
    return c;
}

std::int64_t count_opponent_missed(const GameCheck& g) {
    std::int64_t n = 0;
    for (std::size_t p = 0; p < g.acked.size(); ++p) {
        if (g.acked[p] && p < g.opponent_seen.size() && !g.opponent_seen[p]) {
            ++n;
        }
    }
    return n;
}

}  // namespace papan::loadtest
