// MappedFile: a read-only view of a whole file. The one platform-dependent piece of the endgame
// databases: mapped_file_posix.cpp maps it with mmap; a build without file mapping (the
// WebAssembly engine) compiles mapped_file_none.cpp instead, whose open() always fails, so the
// engine runs without tables.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>

namespace papan::engine::egdb::detail {

class MappedFile {
public:
    // The file's bytes, or nullptr with a message in `error`.
    [[nodiscard]] static std::unique_ptr<MappedFile> open(const std::filesystem::path& path,
                                                          std::string& error);
    ~MappedFile();
    MappedFile(const MappedFile&)            = delete;
    MappedFile& operator=(const MappedFile&) = delete;

    [[nodiscard]] const std::uint8_t* data() const noexcept { return data_; }

    [[nodiscard]] std::size_t size() const noexcept { return size_; }

private:
    MappedFile(const std::uint8_t* data, std::size_t size) noexcept : data_(data), size_(size) {}

    const std::uint8_t* data_ = nullptr;
    std::size_t size_         = 0;
};

}  // namespace papan::engine::egdb::detail
