// One table file: a header, the block index and the blocks (codec.hpp).
//
//   FileHeader (112 bytes, little-endian)
//   u32 offset[blocks + 1]        offset of each block in the data; offset[blocks] = data_bytes
//   data                          the blocks, kBlockSize positions each (the last one shorter)
//
// The header names the variant and material, the index space, the block size, counts for
// `egdb info`, and two checksums (of the header, of index + data). open() checks all of it and
// the file size before a table is used; a file that fails is refused with the reason.
#pragma once

#include "egdb/board_index.hpp"
#include "egdb/mapped_file.hpp"

#include <papan/core/types.hpp>
#include <papan/engine/egdb.hpp>

#include <cstdint>
#include <filesystem>
#include <memory>
#include <span>
#include <string>

namespace papan::engine::egdb::detail {

inline constexpr std::uint32_t kFormatVersion = 1;

// Figures recorded with a table.
struct TableStats {
    std::uint64_t wins                 = 0;
    std::uint64_t losses               = 0;
    std::uint64_t draws                = 0;
    std::uint64_t captures             = 0;
    std::uint32_t max_conversion_plies = 0;
    double build_seconds               = 0;
};

// "american" directory + "m1k1-m0k1.egdb".
[[nodiscard]] std::filesystem::path
table_path(const std::filesystem::path& dir, core::VariantId v, const Material& m);

// Writes the symbols (codec.hpp, one per index) as a table file: to a temporary name first, then
// renamed, so a stopped build never leaves a half-written file under the real name. Returns the
// file size, or 0 with a message in `error`.
[[nodiscard]] std::uint64_t write_table(const std::filesystem::path& path,
                                        core::VariantId v,
                                        const Material& m,
                                        std::span<const std::uint8_t> symbols,
                                        const TableStats& stats,
                                        std::string& error);

class Table {
public:
    // Maps and checks the file; nullptr with the reason in `error`.
    [[nodiscard]] static std::unique_ptr<Table> open(const std::filesystem::path& path,
                                                     core::VariantId v,
                                                     const Material& m,
                                                     const BoardIndex& bi,
                                                     std::string& error);

    // The symbol of an index (0 win, 1 loss, 2 draw; a "don't care" index gives any of them),
    // or -1 for an index outside the table.
    [[nodiscard]] int symbol(std::uint64_t idx) const noexcept;

    // The symbols of indices [first, first + out.size()) into out; first is a multiple of
    // kBlockSize. False when the range is outside the table or a block does not decode.
    [[nodiscard]] bool decode(std::uint64_t first, std::span<std::uint8_t> out) const noexcept;

    [[nodiscard]] std::uint64_t positions() const noexcept { return positions_; }

    [[nodiscard]] std::uint64_t file_bytes() const noexcept { return file_->size(); }

    [[nodiscard]] const TableStats& stats() const noexcept { return stats_; }

private:
    Table() = default;

    std::unique_ptr<MappedFile> file_;
    const std::uint32_t* offsets_ = nullptr;
    const std::uint8_t* data_     = nullptr;
    std::uint64_t positions_      = 0;
    std::uint64_t blocks_         = 0;
    TableStats stats_;
};

}  // namespace papan::engine::egdb::detail
