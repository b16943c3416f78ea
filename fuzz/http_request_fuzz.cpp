// libFuzzer target: raw bytes of one HTTP request, as a client would send them, through what the
// server does with them: Beast's request parser with the server's limits (api/http_wire.hpp),
// then, for a request that parses, the request handler (api/router.cpp: the edge, the route
// table, the handlers) of a server on an in-memory SQLite store with a small web root. Whatever
// the bytes: no crash, no escaping exception, one answer, a 4xx (or a 2xx/3xx for a good
// request; 503 only as `busy`/`store_unavailable` with Retry-After), and every error a JSON
// object with string fields "error" and "message".
#include "api/api.hpp"
#include "api/http_wire.hpp"
#include "fuzz_check.hpp"
#include "game/ai_pool.hpp"
#include "game/lobby.hpp"
#include "game/store_executor.hpp"

#include <papan/server/tokens.hpp>

#include <boost/beast/core/buffers_to_string.hpp>
#include <boost/beast/http/error.hpp>
#include <boost/beast/http/parser.hpp>
#include <nlohmann/json.hpp>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <future>
#include <memory>
#include <string>

namespace papan::fuzz::http_request_fuzz {

using namespace papan::server;
namespace http = boost::beast::http;

namespace {

constexpr Checker check{"fuzz_http_request", DetailStyle::Block};
constexpr const char* kFuzzToken = "fuzz-session-token-0123456789abcdef";

// One server, made on the first input and kept (as a running server keeps its state).
struct Server {
    Server()
        : web_root(std::filesystem::temp_directory_path() / ("papan-fuzz-web-" + random_hex(4))) {
        std::filesystem::create_directories(web_root / "assets");
        std::ofstream(web_root / "index.html") << "<html>client</html>";
        std::ofstream(web_root / "assets/app-0123abcd.js") << "console.log('papan')";
        ctx.ready    = true;
        ctx.accounts = &accounts;
        svc.lobby    = &lobby;
        // A signed-in account (token kFuzzToken in the corpus: import-*), so the routes behind a
        // session, POST /api/import among them, are explored past the 401.
        const auto user = store.direct().create_user(UserRecord{0, "fuzzer", "x", 0});
        store.direct().create_session(hash_secret(kFuzzToken), user.value(), clock.now_ms());
    }

    ManualClock clock;
    net::io_context ioc;
    StoreExecutor store{open_sqlite_store(":memory:")};
    AiPool ai{AiSettings{1, 4, 1000, 0.1, 1, {}}};
    ServerOptions options;
    Services svc{ioc, clock, store, ai, options, 1, nullptr};
    Lobby lobby{svc};
    // No room for a password hash (each costs 64 MiB and a tenth of a second): registrations
    // and logins are answered 503 `busy`, the rest of the path is explored. Imports: no throttle
    // (the clock does not move), two waiting.
    Accounts accounts{clock,
                      AccountLimits{5, 20, 60, 1000, 1, 0, AccountLimits{}.session_ms, 1 << 30, 2}};
    std::filesystem::path web_root;
    ApiContext ctx{svc, lobby, web_root};
};

Server& server() {
    static Server* s = [] {
        init_crypto();
        return new Server();
    }();
    return *s;
}

void check_response(const HttpResponse& r, std::string_view input) {
    check(r.status >= 200 && r.status < 600, "a status outside 200..599", input);
    if (r.status >= 500) {
        check(r.status == 503, "a 5xx other than 503", input);
        bool retry = false;
        for (const auto& [k, v] : r.headers) {
            retry = retry || k == "Retry-After";
        }
        check(retry, "a 503 without Retry-After", input);
    }
    if (r.status >= 400) {
        const auto j = nlohmann::json::parse(r.body, nullptr, false);
        check(j.is_object() && j.contains("error") && j["error"].is_string() &&
                  j.contains("message") && j["message"].is_string(),
              "an error that is not {\"error\",\"message\"}",
              input);
        if (r.status >= 500) {
            const std::string code = j.value("error", "");
            check(code == "busy" || code == "store_unavailable", "an unexpected 503", input);
        }
    }
    // What the transport would write.
    const auto wire = to_wire(r, 11, false, false);
    check(wire.result_int() == r.status, "the written status differs", input);
}

}  // namespace

// One input; returns 0. A finding aborts.
int one_input(const std::uint8_t* data, std::size_t size) {
    const std::string_view input(reinterpret_cast<const char*>(data), size);
    Server& s = server();
    http::request_parser<http::string_body> parser;
    parser.header_limit(kMaxHeaderBytes);
    // As the transport does (net/server.cpp): the body limit of the route, once the header is in.
    parser.body_limit(boost::none);
    boost::system::error_code ec;
    std::string_view rest = input;
    bool limited          = false;
    while (!ec && !parser.is_done() && !rest.empty()) {
        const auto n = parser.put(boost::asio::buffer(rest.data(), rest.size()), ec);
        rest.remove_prefix(n);
        if (ec == http::error::need_more) {
            ec = {};
            break;
        }
        if (!ec && parser.is_header_done() && !limited) {
            limited          = true;
            const auto limit = body_limit_for(std::string(parser.get().method_string()),
                                              std::string(parser.get().target()),
                                              kMaxMessageBytes);
            if (parser.content_length() && *parser.content_length() > limit) {
                ec = http::error::body_limit;
            } else {
                parser.body_limit(limit);
            }
        }
    }
    if (!ec && !parser.is_done() && parser.got_some()) {  // put_eof asserts got_some()
        parser.put_eof(ec);
    }
    if (ec) {
        if (ec != http::error::partial_message) {
            check_response(for_parse_error(ec), input);
        }
        return 0;
    }
    if (!parser.is_done()) {
        return 0;  // the transport would wait for the rest
    }
    auto promise = std::make_shared<std::promise<HttpResponse>>();
    auto answer  = promise->get_future();
    auto calls   = std::make_shared<int>(0);
    handle_http(s.ctx, from_wire(parser.get(), "127.0.0.1"), [promise, calls](HttpResponse r) {
        if (++*calls == 1) {
            promise->set_value(std::move(r));
        }
    });
    check(answer.wait_for(std::chrono::seconds(10)) == std::future_status::ready,
          "no answer within 10 s",
          input);
    check_response(answer.get(), input);
    return 0;
}

}  // namespace papan::fuzz::http_request_fuzz

PAPAN_FUZZ_ENTRY(papan::fuzz::http_request_fuzz::one_input)
