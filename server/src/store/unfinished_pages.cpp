// for_each_unfinished: walks the unfinished games a page at a time (store.hpp). Start-up and the
// abandon sweep read every unfinished header; read at once, 50,000 of them cost 30 MB of peak
// memory at start-up (docs/operations.md "Memory and start-up").
#include <papan/server/store.hpp>

namespace papan::server {

void for_each_unfinished(Store& store,
                         std::int64_t updated_before_ms,
                         const std::function<void(GameRecord&)>& fn,
                         int page) {
    std::string after;
    for (;;) {
        auto headers = store.unfinished_games(updated_before_ms, after, page);
        for (auto& header : headers) {
            fn(header);
        }
        if (static_cast<int>(headers.size()) < page) {
            return;
        }
        after = headers.back().id;
    }
}

}  // namespace papan::server
