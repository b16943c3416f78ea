#include "game/endgame_builds.hpp"

#include "support/log.hpp"

namespace papan::server {

EndgameBuilds::EndgameBuilds(bool enabled, const std::string& egdb_dir) {
    if (!enabled || egdb_dir.empty()) {
        return;
    }
    build_ = std::make_unique<engine::egdb::BackgroundBuild>(
        egdb_dir, engine::egdb::small_sets(), [](const std::string& line) {
            log_line("egdb", line);
        });
}

std::string loaded_endgames(const std::string& egdb_dir) {
    if (egdb_dir.empty()) {
        return "none";
    }
    return engine::egdb::loaded_sets(*engine::egdb::shared_database(egdb_dir));
}

}  // namespace papan::server
