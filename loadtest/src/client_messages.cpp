#include "client_messages.hpp"

namespace papan::loadtest {

Json hello_message(const std::string& name, const std::string& secret) {
    Json hello{{"type", "hello"}, {"name", name}};
    if (!secret.empty()) {
        hello["secret"] = secret;
    }
    return hello;
}

Json create_message(std::int64_t id, const Options& options, int slot) {
    Json create{{"type", "create"},
                {"id", id},
                {"mode", mode_name(options.mode)},
                {"variant", options.variant}};
    if (options.mode == Mode::Friend) {
        create["color"] = slot % 2 == 0 ? "white" : "black";
        create["clock"] = nullptr;
    } else if (options.mode == Mode::Computer) {
        create["level"] = options.level;
        create["color"] = "white";
    }
    return create;
}

Json join_message(std::int64_t id, const std::string& invite) {
    return Json{{"type", "join"}, {"id", id}, {"invite", invite}};
}

Json resume_message(std::int64_t id,
                    const std::string& game,
                    bool with_version,
                    std::int64_t last_version) {
    Json j{{"type", "resume"}, {"id", id}, {"game", game}};
    if (with_version) {
        j["last_version"] = last_version;
    }
    return j;
}

Json move_message(std::int64_t id, const std::string& game, int ply, const Json& path) {
    return Json{{"type", "move"}, {"id", id}, {"game", game}, {"ply", ply}, {"path", path}};
}

}  // namespace papan::loadtest
