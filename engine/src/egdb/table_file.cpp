#include "egdb/table_file.hpp"

#include "egdb/codec.hpp"

#include <papan/core/rules/registry.hpp>

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <cstddef>
#include <cstring>
#include <fstream>
#include <random>
#include <system_error>
#include <vector>

namespace papan::engine::egdb::detail {

namespace {

static_assert(std::endian::native == std::endian::little, "table files are little-endian");

constexpr std::array<char, 8> kMagic = {'P', 'A', 'P', 'A', 'N', 'E', 'G', 'B'};

struct FileHeader {
    std::array<char, 8> magic{};
    std::uint32_t version              = 0;
    std::uint32_t header_bytes         = 0;
    std::uint8_t variant               = 0;
    std::uint8_t own_men               = 0;
    std::uint8_t own_kings             = 0;
    std::uint8_t opp_men               = 0;
    std::uint8_t opp_kings             = 0;
    std::uint8_t block_log2            = 0;
    std::uint8_t codec                 = 0;
    std::uint8_t reserved0             = 0;
    std::uint64_t positions            = 0;
    std::uint64_t blocks               = 0;
    std::uint64_t data_bytes           = 0;
    std::uint64_t wins                 = 0;
    std::uint64_t losses               = 0;
    std::uint64_t draws                = 0;
    std::uint64_t captures             = 0;
    std::uint32_t max_conversion_plies = 0;
    std::uint32_t reserved1            = 0;
    double build_seconds               = 0;
    std::uint64_t body_checksum        = 0;  // of the index and the data
    std::uint64_t header_checksum      = 0;  // of every byte before this field
};

static_assert(sizeof(FileHeader) == 112);
constexpr std::size_t kHeaderChecksummed = offsetof(FileHeader, header_checksum);

// A fast 64-bit hash of a byte range, word by word (corruption check, not cryptographic).
std::uint64_t
checksum(const std::uint8_t* p, std::size_t n, std::uint64_t h = 0x9E3779B97F4A7C15ULL) {
    constexpr std::uint64_t k1 = 0x87C37B91114253D5ULL;
    constexpr std::uint64_t k2 = 0x4CF5AD432745937FULL;
    std::size_t i              = 0;
    for (; i + 8 <= n; i += 8) {
        std::uint64_t w = 0;
        std::memcpy(&w, p + i, 8);
        h = std::rotl(h ^ (w * k1), 31) * k2;
    }
    std::uint64_t tail = 0;
    std::memcpy(&tail, p + i, n - i);
    h = std::rotl(h ^ (tail * k1 + n), 31) * k2;
    h ^= h >> 33;
    h *= 0xFF51AFD7ED558CCDULL;
    return h ^ (h >> 33);
}

std::uint64_t block_count(std::uint64_t positions) {
    return (positions + kBlockSize - 1) / kBlockSize;
}

}  // namespace

std::filesystem::path
table_path(const std::filesystem::path& dir, core::VariantId v, const Material& m) {
    return dir / std::string(core::rules(v).key) / (m.name() + ".egdb");
}

std::uint64_t write_table(const std::filesystem::path& path,
                          core::VariantId v,
                          const Material& m,
                          std::span<const std::uint8_t> symbols,
                          const TableStats& stats,
                          std::string& error) {
    const std::uint64_t blocks = block_count(symbols.size());
    std::vector<std::uint32_t> offsets;
    offsets.reserve(static_cast<std::size_t>(blocks + 1));
    std::vector<std::uint8_t> data;
    for (std::uint64_t b = 0; b < blocks; ++b) {
        offsets.push_back(static_cast<std::uint32_t>(data.size()));
        const auto first    = static_cast<std::size_t>(b * kBlockSize);
        const std::size_t n = std::min(kBlockSize, symbols.size() - first);
        encode_block(symbols.data() + first, n, data);
        if (data.size() > 0xFFFFFFFFULL) {
            error = "table too large for the format";
            return 0;
        }
    }
    offsets.push_back(static_cast<std::uint32_t>(data.size()));

    FileHeader h;
    h.magic                      = kMagic;
    h.version                    = kFormatVersion;
    h.header_bytes               = sizeof(FileHeader);
    h.variant                    = static_cast<std::uint8_t>(v);
    h.own_men                    = static_cast<std::uint8_t>(m.own_men);
    h.own_kings                  = static_cast<std::uint8_t>(m.own_kings);
    h.opp_men                    = static_cast<std::uint8_t>(m.opp_men);
    h.opp_kings                  = static_cast<std::uint8_t>(m.opp_kings);
    h.block_log2                 = kBlockLog2;
    h.codec                      = 1;
    h.positions                  = symbols.size();
    h.blocks                     = blocks;
    h.data_bytes                 = data.size();
    h.wins                       = stats.wins;
    h.losses                     = stats.losses;
    h.draws                      = stats.draws;
    h.captures                   = stats.captures;
    h.max_conversion_plies       = stats.max_conversion_plies;
    h.build_seconds              = stats.build_seconds;
    const auto* index_bytes      = reinterpret_cast<const std::uint8_t*>(offsets.data());
    const std::size_t index_size = offsets.size() * sizeof(std::uint32_t);
    h.body_checksum   = checksum(data.data(), data.size(), checksum(index_bytes, index_size));
    h.header_checksum = checksum(reinterpret_cast<const std::uint8_t*>(&h), kHeaderChecksummed);

    std::error_code ec;
    std::filesystem::create_directories(path.parent_path(), ec);
    // A name of its own, so that two builders writing the same table never share a file.
    static std::atomic<std::uint64_t> serial{0};
    std::filesystem::path tmp = path;
    tmp += ".tmp" + std::to_string(std::random_device{}()) + "-" + std::to_string(++serial);
    {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        out.write(reinterpret_cast<const char*>(&h), sizeof h);
        out.write(reinterpret_cast<const char*>(index_bytes),
                  static_cast<std::streamsize>(index_size));
        out.write(reinterpret_cast<const char*>(data.data()),
                  static_cast<std::streamsize>(data.size()));
        out.close();
        if (!out) {
            error = "cannot write " + tmp.string();
            std::filesystem::remove(tmp, ec);
            return 0;
        }
    }
    std::filesystem::rename(tmp, path, ec);
    if (ec) {
        error = "cannot rename " + tmp.string() + ": " + ec.message();
        return 0;
    }
    return sizeof h + index_size + data.size();
}

std::unique_ptr<Table> Table::open(const std::filesystem::path& path,
                                   core::VariantId v,
                                   const Material& m,
                                   const BoardIndex& bi,
                                   std::string& error) {
    auto file = MappedFile::open(path, error);
    if (!file) {
        return nullptr;
    }
    if (file->size() < sizeof(FileHeader)) {
        error = "truncated (" + std::to_string(file->size()) + " bytes, shorter than the header)";
        return nullptr;
    }
    FileHeader h;
    std::memcpy(&h, file->data(), sizeof h);
    if (h.magic != kMagic) {
        error = "not a Papan endgame table (bad magic)";
        return nullptr;
    }
    if (h.version != kFormatVersion || h.header_bytes != sizeof(FileHeader)) {
        error = "format version " + std::to_string(h.version) + ", this program reads " +
                std::to_string(kFormatVersion);
        return nullptr;
    }
    if (checksum(file->data(), kHeaderChecksummed) != h.header_checksum) {
        error = "corrupt header (checksum mismatch)";
        return nullptr;
    }
    const Material hm{h.own_men, h.own_kings, h.opp_men, h.opp_kings};
    if (h.variant != static_cast<std::uint8_t>(v) || !(hm == m)) {
        error = "the header describes another table (variant " + std::to_string(h.variant) + ", " +
                hm.name() + ")";
        return nullptr;
    }
    if (h.block_log2 != kBlockLog2 || h.codec != 1) {
        error = "unsupported block size or codec";
        return nullptr;
    }
    if (h.positions != bi.size(m) || h.blocks != block_count(h.positions)) {
        error = "wrong index size (" + std::to_string(h.positions) + " positions, expected " +
                std::to_string(bi.size(m)) + ")";
        return nullptr;
    }
    const std::uint64_t index_size = (h.blocks + 1) * sizeof(std::uint32_t);
    const std::uint64_t expected   = sizeof(FileHeader) + index_size + h.data_bytes;
    if (file->size() != expected) {
        error = (file->size() < expected ? "truncated (" : "trailing data (") +
                std::to_string(file->size()) + " bytes, expected " + std::to_string(expected) + ")";
        return nullptr;
    }
    const std::uint8_t* body = file->data() + sizeof(FileHeader);
    if (checksum(body + static_cast<std::size_t>(index_size),
                 static_cast<std::size_t>(h.data_bytes),
                 checksum(body, static_cast<std::size_t>(index_size))) != h.body_checksum) {
        error = "corrupt data (checksum mismatch)";
        return nullptr;
    }
    auto t        = std::unique_ptr<Table>(new Table());
    t->offsets_   = reinterpret_cast<const std::uint32_t*>(body);
    t->data_      = body + index_size;
    t->positions_ = h.positions;
    t->blocks_    = h.blocks;
    for (std::uint64_t b = 0; b < h.blocks; ++b) {
        if (t->offsets_[b] > t->offsets_[b + 1]) {
            error = "corrupt block index";
            return nullptr;
        }
    }
    if (t->offsets_[0] != 0 || t->offsets_[h.blocks] != h.data_bytes) {
        error = "corrupt block index";
        return nullptr;
    }
    t->stats_ = {h.wins, h.losses, h.draws, h.captures, h.max_conversion_plies, h.build_seconds};
    t->file_  = std::move(file);
    return t;
}

int Table::symbol(std::uint64_t idx) const noexcept {
    if (idx >= positions_) {
        return -1;
    }
    const std::uint64_t b     = idx >> kBlockLog2;
    const std::uint32_t begin = offsets_[b];
    const std::uint32_t end   = offsets_[b + 1];
    const auto n              = static_cast<std::size_t>(
        std::min<std::uint64_t>(kBlockSize, positions_ - (b << kBlockLog2)));
    return decode_at(data_ + begin, end - begin, n, idx & (kBlockSize - 1));
}

bool Table::decode(std::uint64_t first, std::span<std::uint8_t> out) const noexcept {
    if (first % kBlockSize != 0 || first > positions_ || out.size() > positions_ - first) {
        return false;
    }
    std::vector<std::uint8_t> partial;
    for (std::uint64_t done = 0; done < out.size();) {
        const std::uint64_t b = (first + done) >> kBlockLog2;
        const auto n          = static_cast<std::size_t>(
            std::min<std::uint64_t>(kBlockSize, positions_ - (b << kBlockLog2)));
        const auto want = static_cast<std::size_t>(std::min<std::uint64_t>(n, out.size() - done));
        const std::uint8_t* p  = data_ + offsets_[b];
        const std::size_t size = offsets_[b + 1] - offsets_[b];
        if (want == n) {
            if (!decode_block(p, size, n, out.data() + done)) {
                return false;
            }
        } else {
            partial.resize(n);
            if (!decode_block(p, size, n, partial.data())) {
                return false;
            }
            std::copy_n(partial.begin(), want, out.begin() + static_cast<std::ptrdiff_t>(done));
        }
        done += want;
    }
    return true;
}

}  // namespace papan::engine::egdb::detail
