// run_search: from the game's variant to the Searcher<V> specialised for it (search/searcher.hpp,
// through core::with_variant), and Lazy SMP.
//
// Lazy SMP (SearchParams::threads = n > 1): n - 1 helper threads run the same iterative
// deepening on the same root as the calling (main) thread, each with its own move lists, killers
// and history, all sharing the lockless transposition table (tt.hpp), where the helpers' results
// speed up the main thread's search. Odd-numbered helpers search each iteration one ply deeper;
// helpers ignore the depth limit (it ends the main thread's iterations only).
// Only the main thread's result is used: it alone reports progress and decides when the search
// ends (its limits, its time, a stop); then the helpers are told to stop and are joined before
// run_search returns. A node limit counts the nodes of all threads (each adds its count every
// 1024 nodes, so the total may pass the limit by up to 1024 per thread); SearchResult::nodes is
// the total. One thread (the default) is the single-threaded search, node for node.
#include "search.hpp"

#include "search/searcher.hpp"

#include <papan/core/rules/dispatch.hpp>

#include <algorithm>
#include <system_error>
#include <thread>
#include <vector>

namespace papan::engine::detail {

namespace {

template <core::VariantId V>
SearchResult run(const core::Game& game, const SearchParams& params, SearchState& state) {
    state.tt.new_search();
    const int threads = std::max(params.threads, 1);
    if (threads == 1) {
        Searcher<V> s(game, params, state, state.thread(0), nullptr, 0);
        return s.run();
    }
    SharedSearch shared;
    std::vector<ThreadData*> data;
    for (int k = 0; k < threads; ++k) {
        data.push_back(&state.thread(static_cast<std::size_t>(k)));
    }
    std::vector<std::thread> helpers;
    const auto stop_helpers = [&] {
        shared.stop.store(true, std::memory_order_relaxed);
        for (std::thread& t : helpers) {
            t.join();
        }
    };
    try {
        for (int k = 1; k < threads; ++k) {
            helpers.emplace_back([&, k] {
                try {
                    Searcher<V> h(
                        game, params, state, *data[static_cast<std::size_t>(k)], &shared, k);
                    const SearchResult r = h.run();
                    shared.nodes.fetch_add(r.nodes % kPollNodes, std::memory_order_relaxed);
                } catch (...) {
                    // A helper that fails (memory) only leaves the main thread without its help.
                }
            });
        }
    } catch (const std::system_error&) {
        // No more threads to be had (or none at all, as in WebAssembly): search with those started.
    }
    SearchResult result;
    try {
        Searcher<V> s(game, params, state, *data[0], &shared, 0);
        result = s.run();
    } catch (...) {
        stop_helpers();
        throw;
    }
    stop_helpers();
    result.nodes = shared.nodes.load() + result.nodes % kPollNodes;
    return result;
}

}  // namespace

SearchResult run_search(const core::Game& game, const SearchParams& params, SearchState& state) {
    return core::with_variant(game.variant(),
                              [&]<core::VariantId V>() { return run<V>(game, params, state); });
}

}  // namespace papan::engine::detail
