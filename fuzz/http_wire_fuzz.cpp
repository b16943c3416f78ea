// libFuzzer target: raw bytes of an HTTP/1.1 stream as a client would send them, through what
// the server does before any handler runs: the request reader (server/src/api/http_reader.cpp:
// the head's limits, obs-fold, Host, Transfer-Encoding against Content-Length, the body limits)
// and the edge's check of the target and headers (server/src/api/edge.cpp). The first byte says
// how the rest arrives (in one piece or in reads of 1 to 255 bytes): a request must be read the
// same however the network splits it. Whatever the bytes: no crash, a refusal is a 4xx JSON
// error, and a request that is read has exactly one Host (HTTP/1.1) and no ambiguous length.
// Small and quick to build (no store, no engine): it runs in `make test`.
#include "api/edge.hpp"
#include "api/http_reader.hpp"
#include "fuzz_check.hpp"

#include <boost/beast/http/field.hpp>
#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <variant>

namespace papan::fuzz::http_wire_fuzz {

using namespace papan::server;
namespace http = boost::beast::http;

namespace {

constexpr Checker check{"fuzz_http_wire", DetailStyle::Block};
constexpr std::size_t kMaxBody = 64 * 1024;

void check_error(const HttpResponse& r, std::string_view input) {
    check(r.status >= 400 && r.status < 500, "a refusal that is not a 4xx", input);
    const auto j = nlohmann::json::parse(r.body, nullptr, false);
    check(j.is_object() && j.contains("error") && j["error"].is_string() && j.contains("message") &&
              j["message"].is_string(),
          "an error that is not {\"error\",\"message\"}",
          input);
}

struct Outcome {
    RequestReader::Status status = RequestReader::Status::NeedMore;
    unsigned refusal             = 0;
    std::size_t used             = 0;
    std::string target;
    std::string body;
};

// Reads the first request of `bytes`, given `step` bytes at a time (0: all at once).
Outcome read(std::string_view bytes, std::size_t step, std::string_view input) {
    RequestReader reader(kMaxBody);
    Outcome out;
    std::size_t arrived = 0;  // bytes the network has delivered so far
    while (reader.status() == RequestReader::Status::NeedMore && arrived < bytes.size()) {
        arrived = step == 0 ? bytes.size() : std::min(bytes.size(), arrived + step);
        // What the reader has not used yet is offered again with what arrived since.
        const auto chunk = bytes.substr(out.used, arrived - out.used);
        const auto used  = reader.put(chunk);
        check(used <= chunk.size(), "the reader used more bytes than it was given", input);
        out.used += used;
    }
    out.status = reader.status();
    if (out.status == RequestReader::Status::Refused) {
        check_error(reader.refusal(), input);
        out.refusal = reader.refusal().status;
    } else if (out.status == RequestReader::Status::Done) {
        auto req = reader.release();
        check(req.count(http::field::host) <= 1, "a request with two Host headers", input);
        check(req.version() < 11 || req.count(http::field::host) == 1,
              "an HTTP/1.1 request without a Host header",
              input);
        check(req.count(http::field::transfer_encoding) == 0 ||
                  req.count(http::field::content_length) == 0,
              "a request with both Transfer-Encoding and Content-Length",
              input);
        check(req.body().size() <= kMaxBody || req.target().starts_with("/api/import"),
              "a body over its limit",
              input);
        out.target = std::string(req.target());
        out.body   = req.body();
        const auto checked =
            check_request(HttpRequest{std::string(req.method_string()),
                                      out.target,
                                      req.body(),
                                      std::string(req[http::field::authorization]),
                                      std::string(req[http::field::accept_encoding]),
                                      std::string(req[http::field::if_none_match]),
                                      "127.0.0.1"});
        if (const auto* r = std::get_if<HttpResponse>(&checked)) {
            check(r->status == 405 || (r->status >= 400 && r->status < 500),
                  "the edge answered with a status that is not a 4xx",
                  input);
            check_error(*r, input);
        }
    }
    return out;
}

}  // namespace

// One input; returns 0. A finding aborts.
int one_input(const std::uint8_t* data, std::size_t size) {
    if (size == 0) {
        return 0;
    }
    const std::string_view input(reinterpret_cast<const char*>(data), size);
    const std::size_t step       = data[0];  // 0: in one piece
    const std::string_view bytes = input.substr(1);
    const Outcome whole          = read(bytes, 0, input);
    if (step == 0) {
        return 0;
    }
    const Outcome split = read(bytes, step, input);
    check(whole.status == split.status && whole.refusal == split.refusal,
          "the request reads differently when it arrives in pieces",
          input);
    if (whole.status == RequestReader::Status::Done) {
        check(whole.used == split.used && whole.target == split.target && whole.body == split.body,
              "the request's bytes differ when it arrives in pieces",
              input);
    }
    return 0;
}

}  // namespace papan::fuzz::http_wire_fuzz

PAPAN_FUZZ_ENTRY(papan::fuzz::http_wire_fuzz::one_input)
