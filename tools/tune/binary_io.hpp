// Little-endian field writing and bounds-checked reading for the tuner's binary files.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

namespace papan::tune {

class ByteWriter {
public:
    template <class T>
    void put(T value) {
        for (std::size_t i = 0; i < sizeof(T); ++i) {
            bytes_.push_back(
                static_cast<unsigned char>((static_cast<std::uint64_t>(value) >> (8 * i)) & 0xFFU));
        }
    }

    void put_text(std::string_view text, std::size_t width) {
        for (std::size_t i = 0; i < width; ++i) {
            bytes_.push_back(i < text.size() ? static_cast<unsigned char>(text[i]) : 0);
        }
    }

    [[nodiscard]] const std::vector<unsigned char>& bytes() const noexcept { return bytes_; }

private:
    std::vector<unsigned char> bytes_;
};

// Reads fields in order; any read past the end sets failed() and returns zero.
class ByteReader {
public:
    explicit ByteReader(const std::vector<unsigned char>& bytes) : bytes_(bytes) {}

    template <class T>
    T get() {
        if (bytes_.size() - pos_ < sizeof(T) || pos_ > bytes_.size()) {
            failed_ = true;
            pos_    = bytes_.size();
            return T{};
        }
        std::uint64_t v = 0;
        for (std::size_t i = 0; i < sizeof(T); ++i) {
            v |= static_cast<std::uint64_t>(bytes_[pos_ + i]) << (8 * i);
        }
        pos_ += sizeof(T);
        return static_cast<T>(v);
    }

    std::string get_text(std::size_t width) {
        std::string s;
        for (std::size_t i = 0; i < width; ++i) {
            const auto c = get<std::uint8_t>();
            if (c != 0) {
                s.push_back(static_cast<char>(c));
            }
        }
        return s;
    }

    [[nodiscard]] std::size_t remaining() const noexcept { return bytes_.size() - pos_; }

    [[nodiscard]] bool failed() const noexcept { return failed_; }

private:
    const std::vector<unsigned char>& bytes_;
    std::size_t pos_ = 0;
    bool failed_     = false;
};

// Whole-file helpers; errors carry the path and the reason.
[[nodiscard]] bool read_file(const std::string& path,
                             std::vector<unsigned char>& out,
                             std::string& error,
                             std::size_t max_bytes);
[[nodiscard]] bool
write_file(const std::string& path, const std::vector<unsigned char>& bytes, std::string& error);

}  // namespace papan::tune
