// The C functions the JavaScript glue calls (web/src/engine/worker.ts through cwrap). Strings
// go in as UTF-8 C strings and come back as one JSON text, valid until the next call. One
// Session per module instance: one analysis worker holds one game.
#include "session.hpp"

#include <cstdint>
#include <emscripten/emscripten.h>
#include <string>

// Hands one line of analysis to the worker as it is found (Module.onInfo, set by the worker).
// NOLINTNEXTLINE: EM_JS defines a function from JavaScript text.
EM_JS(void, papan_emit_info, (const char* json), {
    if (Module["onInfo"]) {
        Module["onInfo"](UTF8ToString(json));
    }
});

namespace {

papan::wasm::Session& session() {
    static papan::wasm::Session s;
    return s;
}

// The last answer; the glue copies it out before the next call.
const char* answer(std::string text) {
    static std::string last;
    last = std::move(text);
    return last.c_str();
}

}  // namespace

extern "C" {

EMSCRIPTEN_KEEPALIVE const char* papan_load(
    const char* variant, const char* fen, const char* moves, int forced_capture, int draw_rules) {
    return answer(session().load(variant, fen, moves, forced_capture != 0, draw_rules));
}

EMSCRIPTEN_KEEPALIVE const char* papan_state() {
    return answer(session().state());
}

EMSCRIPTEN_KEEPALIVE const char* papan_play(const char* move) {
    return answer(session().play(move));
}

EMSCRIPTEN_KEEPALIVE const char* papan_undo() {
    return answer(session().undo());
}

EMSCRIPTEN_KEEPALIVE const char* papan_check_setup(const char* variant, const char* fen) {
    return answer(papan::wasm::Session::check_setup(variant, fen));
}

EMSCRIPTEN_KEEPALIVE void papan_reset_engine(int hash_mb) {
    session().reset_engine(static_cast<std::size_t>(hash_mb < 1 ? 1 : hash_mb));
}

// depth 0 = none, seconds 0 = none, nodes 0 = none (a double: JavaScript numbers), lines 1..3.
EMSCRIPTEN_KEEPALIVE const char* papan_analyse(int depth, double seconds, double nodes, int lines) {
    papan::wasm::AnalysisRequest req;
    req.depth   = depth;
    req.seconds = seconds;
    req.nodes   = nodes > 0 ? static_cast<std::uint64_t>(nodes) : 0;
    req.lines   = lines;
    return answer(
        session().analyse(req, [](const std::string& json) { papan_emit_info(json.c_str()); }));
}

EMSCRIPTEN_KEEPALIVE const char* papan_read_pdn(const char* text, const char* default_variant) {
    return answer(papan::wasm::Session::read_pdn(text, default_variant));
}

EMSCRIPTEN_KEEPALIVE const char* papan_write_pdn(const char* tags) {
    return answer(session().write_pdn(tags));
}

}  // extern "C"
