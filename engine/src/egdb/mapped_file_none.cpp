// Builds without file mapping (WebAssembly): no endgame databases (see mapped_file.hpp).
#include "egdb/mapped_file.hpp"

namespace papan::engine::egdb::detail {

std::unique_ptr<MappedFile> MappedFile::open(const std::filesystem::path&, std::string& error) {
    error = "endgame databases are not available in this build";
    return nullptr;
}

MappedFile::~MappedFile() = default;

}  // namespace papan::engine::egdb::detail
