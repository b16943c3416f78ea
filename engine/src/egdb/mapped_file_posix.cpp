// POSIX mmap of a table file (see mapped_file.hpp).
#include "egdb/mapped_file.hpp"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace papan::engine::egdb::detail {

std::unique_ptr<MappedFile> MappedFile::open(const std::filesystem::path& path,
                                             std::string& error) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        error = std::string("cannot open: ") + std::strerror(errno);
        return nullptr;
    }

    struct stat st {};

    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        error = "not a regular file";
        ::close(fd);
        return nullptr;
    }
    const auto size = static_cast<std::size_t>(st.st_size);
    if (size == 0) {
        ::close(fd);
        error = "empty file";
        return nullptr;
    }
    void* p = ::mmap(nullptr, size, PROT_READ, MAP_SHARED, fd, 0);
    ::close(fd);  // the mapping keeps the file
    if (p == MAP_FAILED) {
        error = std::string("cannot map: ") + std::strerror(errno);
        return nullptr;
    }
    return std::unique_ptr<MappedFile>(new MappedFile(static_cast<const std::uint8_t*>(p), size));
}

MappedFile::~MappedFile() {
    if (data_ != nullptr) {
        // NOLINTNEXTLINE(cppcoreguidelines-pro-type-const-cast): munmap takes void*
        ::munmap(const_cast<std::uint8_t*>(data_), size_);
    }
}

}  // namespace papan::engine::egdb::detail
