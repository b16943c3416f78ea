#include <papan/loadtest/reconnection.hpp>
#include <papan/loadtest/store_check.hpp>

#include <algorithm>

namespace papan::loadtest {

std::int64_t backoff_ms(int attempt) {
    std::int64_t ms = 100;
    for (int i = 0; i < attempt && ms < 1000; ++i) {
        ms *= 2;
    }
    return std::min<std::int64_t>(ms, 1000);
}

std::size_t initial_url(int slot, int player, std::size_t url_count) {
    if (url_count == 0) {
        return 0;
    }
    return static_cast<std::size_t>(slot + player) % url_count;
}

std::size_t next_url(std::size_t current, std::size_t url_count) {
    return url_count == 0 ? 0 : (current + 1) % url_count;
}

InFlight classify_in_flight(int pending_ply,
                            const std::string& sent_text,
                            int server_ply,
                            const std::vector<std::string>& server_moves) {
    if (server_ply < pending_ply) {
        return InFlight::RolledBack;
    }
    if (server_ply == pending_ply) {
        return InFlight::NotStored;
    }
    const auto p = static_cast<std::size_t>(pending_ply);
    if (p < server_moves.size() && same_move(server_moves[p], sent_text)) {
        return InFlight::Stored;
    }
    return InFlight::Different;
}

std::string in_flight_name(InFlight f) {
    switch (f) {
    case InFlight::NotStored:
        return "not_stored";
    case InFlight::Stored:
        return "stored";
    case InFlight::Different:
        return "different";
    case InFlight::RolledBack:
        return "rolled_back";
    }
    return "?";
}
}  // namespace papan::loadtest
