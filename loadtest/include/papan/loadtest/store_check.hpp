// What the tool saw of each game, and the check of it against what the server stored: lost and
// duplicated moves, moves the opponent's connection missed, games that did not go on after a drop.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace papan::loadtest {

// Whether a game went on after its connections dropped: it "continued" when, after the last
// drop, it got at least one more acknowledged move or ended by the rules.
struct Continuity {
    int drops             = 0;  // drops of the game's connections while it was in play
    int acks_since_drop   = 0;
    bool ended_since_drop = false;

    void on_drop() {
        ++drops;
        acks_since_drop  = 0;
        ended_since_drop = false;
    }

    void on_ack() { ++acks_since_drop; }

    void on_end() { ended_since_drop = true; }

    [[nodiscard]] bool interrupted() const { return drops > 0; }

    [[nodiscard]] bool continued() const {
        return drops == 0 || acks_since_drop > 0 || ended_since_drop;
    }
};

// What the tool saw of one game, and what the check found.
struct GameCheck {
    std::string id;
    std::vector<std::string> sent;        // by ply: the text of the move sent for it (all plies)
    std::vector<bool> acked;              // by ply: acknowledged by a move event
    std::vector<std::string> acked_text;  // by ply: the text in the acknowledging event
    // Friend games, by ply: whether the other player's connection saw the acknowledged move (an
    // event or a state past the ply) by the end of the run.
    std::vector<bool> opponent_seen;
    // Computer games: the ply whose computer reply was still awaited when the game was left
    // (-1: none). The server may store that reply after the run; it is not an extra move.
    std::int64_t reply_awaited_ply = -1;
    Continuity continuity;
};

// Acknowledged moves of a friend game the other player's connection never saw.
[[nodiscard]] std::int64_t count_opponent_missed(const GameCheck& game);

struct VerifyCounts {
    std::int64_t lost       = 0;  // acknowledged, not stored at its ply
    std::int64_t duplicated = 0;  // stored, never acknowledged nor sent for that ply (extra)
    // Sent and stored, but the ack was not seen (in flight when the run ended or when the
    // connection dropped): not an error.
    std::int64_t stored_unacked = 0;
    std::string first_mismatch;  // the first ply that differs, for the report (empty if none)
};

// Whether two texts name the same move ("22x24" and "22x33x24": a capture given by its ends or
// by every landing square).
[[nodiscard]] bool same_move(const std::string& a, const std::string& b);

// Compares one game's stored move texts (by ply) with what the tool sent and saw acknowledged.
[[nodiscard]] VerifyCounts compare_game(const GameCheck& game,
                                        const std::vector<std::string>& stored);

}  // namespace papan::loadtest
