// The computer players' endgame tables on a site nobody set them up for: after the server has
// started, the small sets (engine egdb::small_sets(): each builds in minutes on one core) are built
// into --egdb in the background at nice 19, and play uses each set from the first search after it
// is written. The log says what is built and loaded ("[egdb] ..."); /healthz says what is loaded.
#pragma once

#include <papan/engine/egdb.hpp>

#include <memory>
#include <string>

namespace papan::server {

class EndgameBuilds {
public:
    // Starts the build unless it is off (--no-build-endgames) or there is no table directory.
    EndgameBuilds(bool enabled, const std::string& egdb_dir);

private:
    std::unique_ptr<engine::egdb::BackgroundBuild> build_;
};

// The loaded sets of the directory, "american 5, international 4" (or "none"), for /healthz.
[[nodiscard]] std::string loaded_endgames(const std::string& egdb_dir);

}  // namespace papan::server
