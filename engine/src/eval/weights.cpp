// EvalWeights: the compiled-in sets and weight files (format in papan/engine/weights.hpp).
#include "embedded.hpp"
#include "fold.hpp"
#include "layout.hpp"

#include <papan/core/rules/registry.hpp>
#include <papan/engine/evaluation.hpp>
#include <papan/engine/weights.hpp>

#include <cstdio>
#include <fstream>
#include <string_view>
#include <utility>

namespace papan::engine {

namespace {

constexpr std::string_view kMagic     = "PAPANEVW";
constexpr std::uint32_t kVersion      = 1;
constexpr std::size_t kKeyBytes       = 16;
constexpr std::size_t kHeaderBytes    = 8 + 4 + kKeyBytes + 4 + 4;
constexpr std::size_t kChecksumBytes  = 8;
constexpr std::size_t kMaxWeightBytes = std::size_t{16} << 20;

std::uint64_t fnv1a64(std::span<const unsigned char> bytes) noexcept {
    std::uint64_t h = 0xcbf29ce484222325ULL;
    for (const unsigned char b : bytes) {
        h ^= b;
        h *= 0x100000001b3ULL;
    }
    return h;
}

template <class T>
void put(std::vector<unsigned char>& out, T value) {
    for (std::size_t i = 0; i < sizeof(T); ++i) {
        out.push_back(
            static_cast<unsigned char>((static_cast<std::uint64_t>(value) >> (8 * i)) & 0xFFU));
    }
}

template <class T>
T get(std::span<const unsigned char> bytes, std::size_t at) noexcept {
    std::uint64_t v = 0;
    for (std::size_t i = 0; i < sizeof(T); ++i) {
        v |= static_cast<std::uint64_t>(bytes[at + i]) << (8 * i);
    }
    return static_cast<T>(v);
}

std::string hex32(std::uint32_t v) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "%08x", v);
    return buf;
}

}  // namespace

EvalWeights::EvalWeights(core::VariantId variant, std::vector<std::int16_t> values)
    : variant_(variant)
    , values_(std::move(values))
    , folded_(detail::eval::fold(detail::eval::layout(core::rules(variant).topology), values_)) {}

core::Expected<EvalWeights> EvalWeights::from_values(core::VariantId variant,
                                                     std::vector<std::int16_t> values) {
    const std::size_t need = eval_layout(variant).weight_count;
    if (values.size() != need) {
        return core::Error{"a " + std::string(core::rules(variant).key) + " weight set has " +
                           std::to_string(need) + " weights, not " + std::to_string(values.size())};
    }
    return EvalWeights(variant, std::move(values));
}

namespace {

// A variant's compiled-in set: its embedded weight file (engine/weights/<key>.bin), or the
// hand-set start when there is none or it does not parse (`problem` says which).
struct BuiltinSet {
    EvalWeights weights;
    std::string problem;  // empty: the embedded file
};

BuiltinSet load_builtin(core::VariantId variant) {
    const std::string key(core::rules(variant).key);
    const auto hand_set = [&](std::string problem) {
        return BuiltinSet{
            std::move(EvalWeights::from_values(variant, initial_weights(variant))).value(),
            std::move(problem)};
    };
    for (const detail::eval::EmbeddedFile& f : detail::eval::embedded_weight_files()) {
        if (f.name != key) {
            continue;
        }
        auto parsed = EvalWeights::parse(f.bytes);
        if (!parsed) {
            return hand_set("engine/weights/" + key + ".bin: " + parsed.error());
        }
        if (parsed->variant() != variant) {
            return hand_set("engine/weights/" + key + ".bin holds a set of " +
                            std::string(core::rules(parsed->variant()).key));
        }
        return BuiltinSet{std::move(parsed).value(), {}};
    }
    return hand_set("no engine/weights/" + key + ".bin was embedded");
}

const std::array<BuiltinSet, core::kVariantCount>& builtin_sets() {
    static const std::array<BuiltinSet, core::kVariantCount> sets =
        []<std::size_t... I>(std::index_sequence<I...>) {
        return std::array<BuiltinSet, core::kVariantCount>{
            load_builtin(static_cast<core::VariantId>(I))...};
    }
    (std::make_index_sequence<core::kVariantCount>{});
    return sets;
}

}  // namespace

const EvalWeights& EvalWeights::builtin(core::VariantId variant) noexcept {
    return builtin_sets()[static_cast<std::size_t>(variant)].weights;
}

core::Expected<bool> EvalWeights::builtin_is_embedded(core::VariantId variant) {
    const std::string& problem = builtin_sets()[static_cast<std::size_t>(variant)].problem;
    if (!problem.empty()) {
        return core::Error{problem};
    }
    return true;
}

std::vector<unsigned char> EvalWeights::serialize() const {
    std::vector<unsigned char> out;
    out.reserve(kHeaderBytes + 2 * values_.size() + kChecksumBytes);
    for (const char c : kMagic) {
        out.push_back(static_cast<unsigned char>(c));
    }
    put(out, kVersion);
    const std::string_view key = core::rules(variant_).key;
    for (std::size_t i = 0; i < kKeyBytes; ++i) {
        out.push_back(i < key.size() ? static_cast<unsigned char>(key[i]) : 0);
    }
    put(out, eval_layout(variant_).id);
    put(out, static_cast<std::uint32_t>(values_.size()));
    for (const std::int16_t w : values_) {
        put(out, static_cast<std::uint16_t>(w));
    }
    put(out, fnv1a64(out));
    return out;
}

core::Expected<EvalWeights> EvalWeights::parse(std::span<const unsigned char> bytes) {
    if (bytes.size() < kHeaderBytes + kChecksumBytes) {
        return core::Error{"too short to be a weight file (" + std::to_string(bytes.size()) +
                           " bytes)"};
    }
    if (std::string_view(reinterpret_cast<const char*>(bytes.data()), kMagic.size()) != kMagic) {
        return core::Error{"not a Papan evaluation weight file (bad magic)"};
    }
    if (const auto v = get<std::uint32_t>(bytes, 8); v != kVersion) {
        return core::Error{"weight file format version " + std::to_string(v) + ", expected " +
                           std::to_string(kVersion)};
    }
    std::string key;
    for (std::size_t i = 0; i < kKeyBytes && bytes[12 + i] != 0; ++i) {
        key.push_back(static_cast<char>(bytes[12 + i]));
    }
    const auto variant = core::variant_from_key(key);
    if (!variant || key != core::rules(*variant).key) {
        return core::Error{"weight file names an unknown variant '" + key + "'"};
    }
    const EvalLayoutInfo info = eval_layout(*variant);
    const auto id             = get<std::uint32_t>(bytes, 12 + kKeyBytes);
    if (id != info.id) {
        return core::Error{"weight file was made for another evaluation layout (id " + hex32(id) +
                           "; this engine's " + key + " layout is " + hex32(info.id) + ")"};
    }
    const auto count = get<std::uint32_t>(bytes, 16 + kKeyBytes);
    if (count != info.weight_count) {
        return core::Error{"weight file holds " + std::to_string(count) + " weights; the " + key +
                           " layout has " + std::to_string(info.weight_count)};
    }
    const std::size_t expected = kHeaderBytes + 2 * std::size_t{count} + kChecksumBytes;
    if (bytes.size() != expected) {
        return core::Error{"weight file is " + std::to_string(bytes.size()) + " bytes, expected " +
                           std::to_string(expected) + " (truncated or with trailing data)"};
    }
    const std::size_t body = expected - kChecksumBytes;
    if (get<std::uint64_t>(bytes, body) != fnv1a64(bytes.first(body))) {
        return core::Error{"weight file checksum mismatch (the file is corrupt)"};
    }
    std::vector<std::int16_t> values(count);
    for (std::size_t i = 0; i < count; ++i) {
        values[i] = static_cast<std::int16_t>(get<std::uint16_t>(bytes, kHeaderBytes + 2 * i));
    }
    return EvalWeights(*variant, std::move(values));
}

core::Expected<std::shared_ptr<const EvalWeights>> load_weights(const std::string& path) {
    std::ifstream in(path, std::ios::binary | std::ios::ate);
    if (!in) {
        return core::Error{"cannot open weight file " + path};
    }
    const std::streamoff size = in.tellg();
    if (size < 0 || static_cast<std::uint64_t>(size) > kMaxWeightBytes) {
        return core::Error{path + ": not a weight file (larger than 16 MiB)"};
    }
    std::vector<unsigned char> bytes(static_cast<std::size_t>(size));
    in.seekg(0);
    if (size > 0 &&
        !in.read(reinterpret_cast<char*>(bytes.data()), static_cast<std::streamsize>(size))) {
        return core::Error{"cannot read weight file " + path};
    }
    auto parsed = EvalWeights::parse(bytes);
    if (!parsed) {
        return core::Error{path + ": " + parsed.error()};
    }
    return std::make_shared<const EvalWeights>(std::move(parsed).value());
}

core::Expected<bool> save_weights(const std::string& path, const EvalWeights& w) {
    const auto bytes = w.serialize();
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    if (!out) {
        return core::Error{"cannot create " + path};
    }
    out.write(reinterpret_cast<const char*>(bytes.data()),
              static_cast<std::streamsize>(bytes.size()));
    if (!out) {
        return core::Error{"cannot write " + path};
    }
    return true;
}

}  // namespace papan::engine
