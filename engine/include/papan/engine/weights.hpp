// Evaluation weights: the numbers of the static evaluation for one variant, the compiled-in
// defaults and weight files (`--weights FILE`). The layout of the numbers (which one is which
// term or pattern entry) is fixed per board family; evaluation.hpp describes it.
//
// Weight file format (little-endian; docs/engine.md, "Weight files"):
//   "PAPANEVW"   magic, 8 bytes
//   u32          format version (1)
//   char[16]     variant key ("international"), zero padded
//   u32          layout id (identifies the family's layout: terms, regions, units)
//   u32          weight count n
//   n x i16      the weights
//   u64          FNV-1a 64 of every byte before it
// A file that fails any check is refused with a message that says which; nothing is changed.
#pragma once

#include <papan/core/expected.hpp>
#include <papan/core/types.hpp>

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace papan::engine {

class EvalWeights {
public:
    // A set from its numbers; an error when their count does not fit the variant's layout.
    [[nodiscard]] static core::Expected<EvalWeights> from_values(core::VariantId variant,
                                                                 std::vector<std::int16_t> values);

    // A set from the bytes of a weight file.
    [[nodiscard]] static core::Expected<EvalWeights> parse(std::span<const unsigned char> bytes);

    // The compiled-in set of a variant: its learned set, engine/weights/<key>.bin, embedded at
    // build time (the hand-set start if that file is missing or does not fit the layout).
    [[nodiscard]] static const EvalWeights& builtin(core::VariantId variant) noexcept;

    // True when builtin(variant) is the embedded file; else the error says why not.
    [[nodiscard]] static core::Expected<bool> builtin_is_embedded(core::VariantId variant);

    EvalWeights(EvalWeights&&) noexcept            = default;
    EvalWeights& operator=(EvalWeights&&) noexcept = default;
    EvalWeights(const EvalWeights&)                = delete;
    EvalWeights& operator=(const EvalWeights&)     = delete;
    ~EvalWeights()                                 = default;

    [[nodiscard]] core::VariantId variant() const noexcept { return variant_; }

    [[nodiscard]] std::span<const std::int16_t> values() const noexcept { return values_; }

    // The same numbers in the form the search reads (engine/src/eval/evaluate.hpp, "folded").
    [[nodiscard]] std::span<const std::int32_t> folded() const noexcept { return folded_; }

    // The bytes of the weight file holding this set.
    [[nodiscard]] std::vector<unsigned char> serialize() const;

private:
    EvalWeights(core::VariantId variant, std::vector<std::int16_t> values);

    core::VariantId variant_;
    std::vector<std::int16_t> values_;
    std::vector<std::int32_t> folded_;
};

// Reads and checks a weight file (at most 16 MiB).
[[nodiscard]] core::Expected<std::shared_ptr<const EvalWeights>>
load_weights(const std::string& path);

[[nodiscard]] core::Expected<bool> save_weights(const std::string& path, const EvalWeights& w);

}  // namespace papan::engine
