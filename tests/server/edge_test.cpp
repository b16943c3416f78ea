// Input at the edge (docs/protocol.md, "HTTP", "The edge"): the real `papan serve` gets the
// requests that once ended it or leaked internal text, and every other malformed byte sequence
// the issue names; each is answered 4xx with {"error","message"}, and the server stays up.
#include "harness.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace papan::test {
namespace {

void expect_clean_4xx(const HttpResult& r, const std::string& what) {
    EXPECT_GE(r.status, 400U) << what;
    EXPECT_LT(r.status, 500U) << what << ": " << r.body;
    const Json j = r.json();
    EXPECT_TRUE(j.is_object() && j["error"].is_string() && j["message"].is_string())
        << what << ": " << r.body;
}

TEST(Edge, EveryMalformedRequestGetsA4xxAndTheServerStaysUp) {
    TempDir dir;
    ServerProcess server(dir.path());
    const auto port = server.port();
    const auto get  = [&](const std::string& target) {
        return raw_http(port,
                        "GET " + target + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    };
    // The two paths that ended the process, and %ff in a query (a 500 with the JSON library's
    // text before).
    expect_clean_4xx(get("/%c0%ae%c0%ae/secret.txt"), "overlong UTF-8 dots");
    expect_clean_4xx(get("/x%ff.txt"), "a path of invalid UTF-8");
    // %ff in every query parameter of every route that reads one.
    for (const std::string target : {"/api/games?player=%ff",
                                     "/api/leaderboard?variant=%ff",
                                     "/api/games?%ff=1",
                                     "/api/me?x=%ff",
                                     "/?a=%ff"}) {
        expect_clean_4xx(get(target), target);
    }
    expect_clean_4xx(get("/api/games?player=%c0%80"), "overlong NUL in a query");
    expect_clean_4xx(get("/api/games?player=a%00b"), "NUL in a query");
    expect_clean_4xx(get("/a%00b.txt"), "NUL in a path");
    expect_clean_4xx(get("/api/players/%ed%a0%80"), "a surrogate in a path");
    expect_clean_4xx(get("/api/games?player=a&player=b"), "a repeated parameter");
    std::string long_target(5001, 'a');  // (not "/" + string: gcc 12 warns wrongly on that)
    long_target.front() = '/';
    expect_clean_4xx(get(long_target), "a 5,000-byte target");
    // A 100 KB header, a bad Content-Length, bytes that are not HTTP.
    expect_clean_4xx(raw_http(port,
                              "GET / HTTP/1.1\r\nHost: x\r\nX-Big: " +
                                  std::string(100 * 1024, 'a') + "\r\n\r\n"),
                     "a 100 KB header");
    expect_clean_4xx(
        raw_http(port, "POST /api/login HTTP/1.1\r\nHost: x\r\nContent-Length: 12x\r\n\r\n{}"),
        "a bad Content-Length");
    expect_clean_4xx(
        raw_http(port,
                 "POST /api/login HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nContent-Length: 7"
                 "\r\n\r\n{}"),
        "two Content-Lengths");
    expect_clean_4xx(raw_http(port, "\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03\r\n\r\n"),
                     "a TLS hello");
    expect_clean_4xx(
        raw_http(port, "GET / HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \xff\xfe\r\n\r\n"),
        "a header of non-ASCII bytes");
    expect_clean_4xx(raw_http(port, "DELETE /api/me HTTP/1.1\r\nHost: x\r\n\r\n"), "DELETE");
    expect_clean_4xx(
        raw_http(port,
                 "POST /api/register HTTP/1.1\r\nHost: x\r\nContent-Length: 70000\r\n\r\n" +
                     std::string(70000, 'x')),
        "a body over 64 KiB");
    // Still up and answering.
    EXPECT_EQ(http_request(port, "GET", "/healthz").status, 200U);
}

bool has_header(const HttpResult& r, const std::string& line) {
    return r.headers.find("\r\n" + line + "\r\n") != std::string::npos;
}

// The responses in what the server sent on one connection (their status lines: the bodies here
// are JSON errors and health checks).
std::size_t responses(const HttpResult& r) {
    std::size_t n = 0;
    for (auto at = r.raw.find("HTTP/1.1 "); at != std::string::npos;
         at      = r.raw.find("HTTP/1.1 ", at + 1)) {
        ++n;
    }
    return n;
}

// RFC 9112 framing (the request reader, server/src/api/http_reader.cpp): a request whose body's
// length is ambiguous, or with a folded header line, is answered 400 and the connection closed,
// so the bytes after it are never read as a second request (request smuggling behind a proxy);
// a request without exactly one Host is 400; a request line too long for the head is 414; a
// header over 4 KiB is 431. Each of these once got another answer (the reproductions).
TEST(Edge, AnAmbiguousOrFoldedRequestIsRefusedAndTheConnectionClosed) {
    TempDir dir;
    ServerProcess server(dir.path());
    const auto port            = server.port();
    const std::string smuggled = "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n";
    for (const std::string te : {"gzip", "identity", "xchunked", "chunked", "gzip, chunked"}) {
        const auto r = raw_http(port,
                                "POST /api/login HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: " + te +
                                    "\r\nContent-Length: 5\r\n\r\nhello" + smuggled);
        EXPECT_EQ(r.status, 400U) << te << ": " << r.raw;
        EXPECT_EQ(responses(r), 1U) << te << ": the rest was read as a request: " << r.raw;
        EXPECT_TRUE(has_header(r, "Connection: close")) << r.headers;
    }
    for (const std::string te : {"gzip", "identity"}) {  // no length at all
        const auto r = raw_http(port,
                                "POST /api/login HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: " + te +
                                    "\r\n\r\n" + smuggled);
        EXPECT_EQ(r.status, 400U) << te << ": " << r.raw;
        EXPECT_EQ(responses(r), 1U) << te << ": " << r.raw;
    }
    const auto folded =
        raw_http(port, "GET /api/me HTTP/1.1\r\nHost: x\r\nX-Note: a\r\n b\r\n\r\n" + smuggled);
    EXPECT_EQ(folded.status, 400U) << folded.raw;
    EXPECT_EQ(responses(folded), 1U) << folded.raw;
    // Host: none or two is 400 in HTTP/1.1; HTTP/1.0 may go without.
    EXPECT_EQ(raw_http(port, "GET /healthz HTTP/1.1\r\n\r\n").status, 400U);
    EXPECT_EQ(raw_http(port, "GET /healthz HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n").status, 400U);
    const auto old = raw_http(port, "GET /healthz HTTP/1.0\r\n\r\n");
    EXPECT_NE(old.raw.find(" 200 "), std::string::npos) << old.raw;
    // A target over the whole head's 16 KiB is still a target too long.
    std::string huge(20 * 1024, 'a');
    huge.front()           = '/';
    const auto long_target = raw_http(port, "GET " + huge + " HTTP/1.1\r\nHost: x\r\n\r\n");
    EXPECT_EQ(long_target.status, 414U) << long_target.headers;
    // A header too long is said so, not called a wrong character.
    const auto auth = raw_http(port,
                               "GET /api/me HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " +
                                   std::string(5000, 'a') + "\r\n\r\n");
    EXPECT_EQ(auth.status, 431U) << auth.raw;
    EXPECT_EQ(auth.json()["error"], "header_too_large") << auth.body;
    // Requests that are fine still share a connection: two pipelined, two answers.
    const auto two = raw_http(port, smuggled + smuggled);
    EXPECT_EQ(two.status, 200U);
    EXPECT_EQ(responses(two), 2U) << two.raw;
    // A chunked body is read as before.
    const auto chunked = raw_http(port,
                                  "POST /api/login HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: "
                                  "chunked\r\nConnection: close\r\n\r\n2\r\n{}\r\n0\r\n\r\n");
    EXPECT_EQ(chunked.status, 401U) << chunked.raw;  // read whole: "{}" names no user
    EXPECT_NE(chunked.body.find("bad_credentials"), std::string::npos) << chunked.raw;
    EXPECT_EQ(http_request(port, "GET", "/healthz").status, 200U);
}

TEST(Edge, ResponsesCarryTheSecurityAndCachingHeaders) {
    TempDir dir;
    TempDir web;
    std::filesystem::create_directories(web.path() / "assets");
    std::ofstream(web.path() / "index.html") << "<html>" << std::string(2000, ' ') << "</html>";
    std::ofstream(web.path() / "assets/app-0123abcd.js") << "console.log('papan')";
    ServerProcess server(dir.path(), {"--web", web.path().string()});
    const auto port    = server.port();
    const auto request = [&](const std::string& target, const std::string& extra = {}) {
        return raw_http(port,
                        "GET " + target + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n" + extra +
                            "\r\n");
    };
    for (const std::string target : {"/healthz", "/", "/nope.js"}) {
        const auto r = request(target);
        EXPECT_NE(r.headers.find("Content-Security-Policy: "), std::string::npos) << target;
        EXPECT_NE(r.headers.find("frame-ancestors 'none'"), std::string::npos) << target;
        EXPECT_TRUE(has_header(r, "X-Content-Type-Options: nosniff")) << target;
        EXPECT_TRUE(has_header(r, "Referrer-Policy: no-referrer")) << target;
    }
    EXPECT_TRUE(has_header(request("/healthz"), "Cache-Control: no-store"));
    const auto page = request("/");
    EXPECT_TRUE(has_header(page, "Cache-Control: no-cache")) << page.headers;
    const auto asset = request("/assets/app-0123abcd.js");
    EXPECT_TRUE(has_header(asset, "Cache-Control: public, max-age=31536000, immutable"))
        << asset.headers;
    // ETag: the same file again is 304 without a body.
    const auto at = page.headers.find("ETag: ");
    ASSERT_NE(at, std::string::npos);
    const auto etag  = page.headers.substr(at + 6, page.headers.find("\r\n", at) - at - 6);
    const auto again = request("/", "If-None-Match: " + etag + "\r\n");
    EXPECT_EQ(again.status, 304U);
    EXPECT_TRUE(again.body.empty());
    // gzip when accepted: smaller than the page, and announced.
    const auto zipped = request("/", "Accept-Encoding: gzip, deflate\r\n");
    EXPECT_TRUE(has_header(zipped, "Content-Encoding: gzip")) << zipped.headers;
    EXPECT_LT(zipped.body.size(), page.body.size());
    EXPECT_EQ(zipped.body.substr(0, 2), "\x1f\x8b");
}

// A connection over the per-address cap is answered and closed at once (it used to hold its
// socket for 5 s waiting for a request that never came).
TEST(Edge, AConnectionOverTheCapIsClosedAtOnce) {
    TempDir dir;
    ServerProcess server(dir.path(), {"--max-connections-per-ip", "1"});
    WsClient holder(server.port());
    const auto begin = std::chrono::steady_clock::now();
    const auto r     = raw_http(server.port(), "");  // sends nothing, waits for the close
    EXPECT_EQ(r.status, 429U);
    EXPECT_LT(std::chrono::steady_clock::now() - begin, std::chrono::seconds(2));
}

}  // namespace
}  // namespace papan::test
