// The files embedded into the engine at build time (engine/embed_weights.cmake): the learned
// weight sets engine/weights/<variant>.bin, each named by its variant's key. The generated
// source in the build tree defines embedded_weight_files().
#pragma once

#include <span>
#include <string_view>

namespace papan::engine::detail::eval {

struct EmbeddedFile {
    std::string_view name;  // the file's stem: a variant key
    std::span<const unsigned char> bytes;
};

[[nodiscard]] std::span<const EmbeddedFile> embedded_weight_files() noexcept;

}  // namespace papan::engine::detail::eval
