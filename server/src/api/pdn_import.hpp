// PDN import (POST /api/import, docs/protocol.md): a file's bytes to finished, unrated game
// records, and the games that could not be taken with why. Reading is the core's (encodings,
// variant detection, per-game recovery: core/notation/pdn.hpp); this adds what a stored game
// needs on top: no setup in the middle of a game, a replay under the game rules that does not
// end before the file's last move, and the players' names from the tags. No I/O, no store.
#pragma once

#include <papan/server/store.hpp>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace papan::server {

// The largest body the route reads (1 MiB; above it 413, before the body is read).
inline constexpr std::size_t kMaxImportBytes = 1024 * 1024;
// At most this many games are stored from one request; the rest are rejected as over the cap.
inline constexpr int kMaxImportGames = 1000;
// Longest player name kept from a White or Black tag (characters).
inline constexpr std::size_t kMaxImportedName = 64;
// The player id of both seats of an imported game: no account or guest owns it.
inline constexpr std::string_view kImportedPlayerId = "imported";

struct ImportedGame {
    int number = 0;  // 1-based position in the file
    GameRecord record;
    std::string result;  // the PDN result in the variant's style ("2-0", "*", ...)
};

struct RejectedGame {
    int number = 0;
    int move   = 0;      // the move number of the error (0: not at a move)
    int line   = 0;      // the line of the error in the file (0: unknown)
    std::string kind;    // the reader's error kind (pdn_error_kind_key) or "setup_in_game",
                         // "replay", "too_many_games"
    std::string reason;  // in English, about the file (never internal text), at most ~300 bytes
};

struct ImportReport {
    std::string encoding;  // encoding_key of what the bytes were read as
    int games = 0;         // games found in the file
    std::vector<ImportedGame> good;
    std::vector<RejectedGame> rejected;
};

// Reads `bytes` as a PDN file; each good game becomes a record with a fresh id (from new_id),
// mode imported, status over, unrated, both seats kImportedPlayerId with the tags' names,
// created at now_ms. Never throws on any input.
[[nodiscard]] ImportReport
import_pdn(std::string_view bytes, std::int64_t now_ms, const std::function<std::string()>& new_id);

}  // namespace papan::server
