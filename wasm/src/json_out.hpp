// JsonOut: the bindings' answers, written with the server's JsonWriter (papan_wire: the one JSON
// writer and the one table of names the server's protocol uses too), into a string of its own.
#pragma once

#include <papan/server/wire/json_writer.hpp>

#include <string>

namespace papan::wasm {

namespace detail {
struct OwnedText {
    std::string text;
};
}  // namespace detail

class JsonOut : private detail::OwnedText, public server::wire::JsonWriter {
public:
    JsonOut() : JsonWriter(text) {}

    JsonOut(const JsonOut&)            = delete;
    JsonOut& operator=(const JsonOut&) = delete;

    [[nodiscard]] const std::string& str() const noexcept { return text; }
};

}  // namespace papan::wasm
