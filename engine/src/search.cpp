// run_search: the one switch from the game's variant to the Searcher<V> specialised for it
// (search/searcher.hpp).
#include "search.hpp"

#include "search/searcher.hpp"

namespace papan::engine::detail {

namespace {

template <core::VariantId V>
SearchResult run(const core::Game& game, const SearchParams& params, SearchState& state) {
    Searcher<V> s(game, params, state);
    return s.run();
}

}  // namespace

SearchResult run_search(const core::Game& game, const SearchParams& params, SearchState& state) {
    using core::VariantId;
    switch (game.variant()) {
    case VariantId::American:
        return run<VariantId::American>(game, params, state);
    case VariantId::International:
        return run<VariantId::International>(game, params, state);
    case VariantId::Brazilian:
        return run<VariantId::Brazilian>(game, params, state);
    case VariantId::Russian:
        return run<VariantId::Russian>(game, params, state);
    case VariantId::Pool:
        return run<VariantId::Pool>(game, params, state);
    case VariantId::Spanish:
        return run<VariantId::Spanish>(game, params, state);
    case VariantId::Italian:
        return run<VariantId::Italian>(game, params, state);
    case VariantId::Czech:
        return run<VariantId::Czech>(game, params, state);
    case VariantId::Thai:
        return run<VariantId::Thai>(game, params, state);
    case VariantId::Turkish:
        return run<VariantId::Turkish>(game, params, state);
    }
    return {};
}

}  // namespace papan::engine::detail
