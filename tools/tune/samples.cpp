// Sample file layout (little-endian):
//   "PAPANSMP"  magic, 8 bytes
//   u32         format version (1)
//   char[16]    variant key, zero padded
//   u64         sample count
//   count x 34 bytes: u64 white pieces, u64 black pieces, u64 kings, u32 game, i16 score,
//                     u16 ply, u8 side to move (0 White, 1 Black), u8 result (Result)
#include "samples.hpp"

#include "binary_io.hpp"

#include <papan/core/rules/registry.hpp>

namespace papan::tune {

namespace {

constexpr std::string_view kMagic       = "PAPANSMP";
constexpr std::uint32_t kVersion        = 1;
constexpr std::size_t kRecordBytes      = 34;
constexpr std::size_t kHeaderBytes      = 8 + 4 + 16 + 8;
constexpr std::size_t kMaxSampleFileLen = std::size_t{8} << 30;

}  // namespace

core::Expected<bool> write_samples(const std::string& path, const SampleSet& set) {
    ByteWriter w;
    w.put_text(kMagic, kMagic.size());
    w.put(kVersion);
    w.put_text(core::rules(set.variant).key, 16);
    w.put(static_cast<std::uint64_t>(set.samples.size()));
    for (const Sample& s : set.samples) {
        w.put(s.position.pieces[0]);
        w.put(s.position.pieces[1]);
        w.put(s.position.kings);
        w.put(s.game);
        w.put(static_cast<std::uint16_t>(s.score));
        w.put(s.ply);
        w.put(static_cast<std::uint8_t>(s.position.side));
        w.put(static_cast<std::uint8_t>(s.result));
    }
    std::string error;
    if (!write_file(path, w.bytes(), error)) {
        return core::Error{error};
    }
    return true;
}

core::Expected<SampleSet> read_samples(const std::string& path) {
    std::vector<unsigned char> bytes;
    std::string error;
    if (!read_file(path, bytes, error, kMaxSampleFileLen)) {
        return core::Error{error};
    }
    ByteReader r(bytes);
    if (r.get_text(kMagic.size()) != kMagic) {
        return core::Error{path + ": not a Papan sample file (bad magic)"};
    }
    if (const auto v = r.get<std::uint32_t>(); v != kVersion) {
        return core::Error{path + ": sample file version " + std::to_string(v) + ", expected " +
                           std::to_string(kVersion)};
    }
    const std::string key = r.get_text(16);
    const auto variant    = core::variant_from_key(key);
    if (!variant) {
        return core::Error{path + ": unknown variant '" + key + "'"};
    }
    const auto count = r.get<std::uint64_t>();
    if (r.failed() || bytes.size() != kHeaderBytes + count * kRecordBytes) {
        return core::Error{path + ": size does not match its sample count (truncated?)"};
    }
    SampleSet set;
    set.variant = *variant;
    set.samples.resize(static_cast<std::size_t>(count));
    for (Sample& s : set.samples) {
        s.position.variant   = *variant;
        s.position.pieces[0] = r.get<std::uint64_t>();
        s.position.pieces[1] = r.get<std::uint64_t>();
        s.position.kings     = r.get<std::uint64_t>();
        s.game               = r.get<std::uint32_t>();
        s.score              = static_cast<std::int16_t>(r.get<std::uint16_t>());
        s.ply                = r.get<std::uint16_t>();
        const auto side      = r.get<std::uint8_t>();
        const auto result    = r.get<std::uint8_t>();
        if (side > 1 || result > 2) {
            return core::Error{path + ": bad side or result field"};
        }
        s.position.side = side == 0 ? core::Color::White : core::Color::Black;
        s.result        = static_cast<Result>(result);
        if (!s.position.is_consistent()) {
            return core::Error{path + ": inconsistent position in the file"};
        }
    }
    return set;
}

}  // namespace papan::tune
