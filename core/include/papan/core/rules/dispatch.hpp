// From a variant known at run time to code specialised for it at compile time: the one place
// that maps a VariantId to its template argument. Move generation (core/src/movegen.cpp), the
// search (engine/src/search.cpp) and the evaluation (engine/src/eval/eval.cpp) all dispatch
// through with_variant(), whose table is built from the enum itself, so a new variant needs no
// edit here.
//
// PAPAN_FOR_EACH_VARIANT(X) expands X(American) ... X(Turkish), the names of the enum in its
// order, for the files that instantiate a template for every variant explicitly (a static_assert
// below holds it to the enum).
#pragma once

#include <papan/core/types.hpp>

#include <array>
#include <cstddef>
#include <type_traits>
#include <utility>

#define PAPAN_FOR_EACH_VARIANT(X)                                                                  \
    X(American)                                                                                    \
    X(International)                                                                               \
    X(Brazilian)                                                                                   \
    X(Russian)                                                                                     \
    X(Pool)                                                                                        \
    X(Spanish)                                                                                     \
    X(Italian)                                                                                     \
    X(Czech)                                                                                       \
    X(Thai)                                                                                        \
    X(Turkish)

namespace papan::core {

namespace detail {

#define PAPAN_LIST_VARIANT(V) VariantId::V,
inline constexpr VariantId kListedVariants[] = {PAPAN_FOR_EACH_VARIANT(PAPAN_LIST_VARIANT)};
#undef PAPAN_LIST_VARIANT

[[nodiscard]] constexpr bool variant_list_matches_enum() noexcept {
    if (std::size(kListedVariants) != static_cast<std::size_t>(kVariantCount)) {
        return false;
    }
    for (std::size_t i = 0; i < std::size(kListedVariants); ++i) {
        if (static_cast<std::size_t>(kListedVariants[i]) != i) {
            return false;
        }
    }
    return true;
}

static_assert(variant_list_matches_enum(),
              "PAPAN_FOR_EACH_VARIANT must name every VariantId, in the enum's order");

}  // namespace detail

// Calls f.template operator()<V>() for V = v and returns its result: a table of one entry per
// variant, indexed by v (a value outside the enum is a precondition violation).
//
//   const int n = with_variant(v, []<VariantId V>() { return rule_set<V>.men_per_side; });
template <class F>
decltype(auto) with_variant(VariantId v, F&& f) {
    using Fn     = std::remove_reference_t<F>;
    using Result = decltype(f.template operator()<VariantId{}>());
    return [&]<std::size_t... I>(std::index_sequence<I...>)->Result {
        using Entry = Result (*)(Fn&);
        static constexpr std::array<Entry, sizeof...(I)> kTable{
            [](Fn& g) -> Result { return g.template operator()<static_cast<VariantId>(I)>(); }...};
        return kTable[static_cast<std::size_t>(v)](f);
    }
    (std::make_index_sequence<static_cast<std::size_t>(kVariantCount)>{});
}

}  // namespace papan::core
