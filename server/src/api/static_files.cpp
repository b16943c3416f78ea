// Static files of the web client (docs/protocol.md, "HTTP"): resolved under the web root only,
// with an ETag (304 on If-None-Match), gzip when the client accepts it (compressed once and kept
// in memory with the file), long caching for hashed assets and no-cache for the page itself.
#include "api/handlers.hpp"

#include <papan/server/tokens.hpp>

#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>
#include <zlib.h>

namespace papan::server {

namespace {

std::string_view mime_type(const std::filesystem::path& p) {
    const auto ext = p.extension().string();
    if (ext == ".html") {
        return "text/html; charset=utf-8";
    }
    if (ext == ".js" || ext == ".mjs") {
        return "text/javascript; charset=utf-8";
    }
    if (ext == ".css") {
        return "text/css; charset=utf-8";
    }
    if (ext == ".json" || ext == ".map") {
        return "application/json";
    }
    if (ext == ".svg") {
        return "image/svg+xml";
    }
    if (ext == ".png") {
        return "image/png";
    }
    if (ext == ".ico") {
        return "image/x-icon";
    }
    if (ext == ".woff2") {
        return "font/woff2";
    }
    if (ext == ".wasm") {
        return "application/wasm";  // the analysis engine; browsers compile it while it streams in
    }
    if (ext == ".txt" || ext == ".md") {
        return "text/plain; charset=utf-8";
    }
    return "application/octet-stream";
}

constexpr std::string_view kFallbackPage = R"(<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Papan</title>
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body style="font-family: sans-serif; max-width: 40em; margin: 3em auto">
<h1>Papan</h1>
<p>The game server is running, but the web client has not been built.</p>
<p>Build it with <code>make build</code> (it produces <code>web/dist</code>), then reload this page.</p>
<p>Meanwhile: <a href="/api/variants">/api/variants</a>, <a href="/healthz">/healthz</a>, and the
WebSocket protocol in <code>docs/protocol.md</code>.</p>
</body></html>
)";

struct CachedFile {
    std::filesystem::file_time_type mtime;
    std::string body;
    std::string gzip;  // empty when compressing does not pay
    std::string etag;
    std::string content_type;
};

std::string gzip_of(const std::string& data) {
    z_stream zs{};
    if (deflateInit2(&zs, Z_BEST_COMPRESSION, Z_DEFLATED, 15 + 16, 9, Z_DEFAULT_STRATEGY) != Z_OK) {
        return {};
    }
    std::string out(deflateBound(&zs, static_cast<uLong>(data.size())), '\0');
    zs.next_in   = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
    zs.avail_in  = static_cast<uInt>(data.size());
    zs.next_out  = reinterpret_cast<Bytef*>(out.data());
    zs.avail_out = static_cast<uInt>(out.size());
    const int rc = deflate(&zs, Z_FINISH);
    out.resize(zs.total_out);
    deflateEnd(&zs);
    return rc == Z_STREAM_END && out.size() < data.size() ? out : std::string{};
}

bool compressible(std::string_view type) {
    return type.rfind("text/", 0) == 0 || type.rfind("application/json", 0) == 0 ||
           type == "image/svg+xml";
}

// Vite names built assets name-HASH.ext: their content never changes under one name.
bool hashed_asset(const std::string& path) {
    if (path.rfind("/assets/", 0) != 0) {
        return false;
    }
    const auto dash = path.rfind('-');
    const auto dot  = path.rfind('.');
    return dash != std::string::npos && dot != std::string::npos && dot > dash + 6;
}

std::mutex cache_mutex;
std::map<std::filesystem::path, std::shared_ptr<const CachedFile>>
    cache;  // the web client: a few dozen files

std::shared_ptr<const CachedFile> load(const std::filesystem::path& file) {
    std::error_code ec;
    const auto mtime = std::filesystem::last_write_time(file, ec);
    if (ec) {
        return nullptr;
    }
    std::lock_guard lock(cache_mutex);
    if (const auto it = cache.find(file); it != cache.end() && it->second->mtime == mtime) {
        return it->second;
    }
    std::ifstream in(file, std::ios::binary);
    if (!in) {
        return nullptr;
    }
    std::ostringstream ss;
    ss << in.rdbuf();
    CachedFile f;
    f.mtime        = mtime;
    f.body         = ss.str();
    f.content_type = std::string(mime_type(file));
    f.etag.assign(1, '"');
    f.etag += hash_secret(f.body).substr(0, 32);
    f.etag += '"';
    if (compressible(f.content_type)) {
        f.gzip = gzip_of(f.body);
    }
    if (cache.size() > 1024) {
        cache.clear();
    }
    auto shared = std::make_shared<const CachedFile>(std::move(f));
    cache[file] = shared;
    return shared;
}

bool accepts_gzip(const std::string& accept_encoding) {
    return accept_encoding.find("gzip") != std::string::npos;
}

}  // namespace

void get_static(ApiContext& ctx, const Request& req, const RouteArgs&, Reply reply) {
    std::string path = req.path;
    HttpResponse r;
    // An unknown API path is not a client-side route: no single page for it.
    if (path.rfind("/api/", 0) == 0) {
        reply(error_response(404, "not_found", "no such API route"));
        return;
    }
    if (ctx.web_root.empty()) {
        if (path == "/" || path == "/index.html") {
            r.content_type = "text/html; charset=utf-8";
            r.body         = std::string(kFallbackPage);
            r.headers.emplace_back("Cache-Control", "no-cache");
            reply(std::move(r));
            return;
        }
        reply(error_response(404, "not_found", "no such page"));
        return;
    }
    if (path.back() == '/') {
        path += "index.html";
    }
    std::filesystem::path file = ctx.web_root / path.substr(1);
    std::error_code ec;
    if (!std::filesystem::is_regular_file(file, ec)) {
        // Client-side routes (no extension) get the single page.
        if (std::filesystem::path(path).has_extension()) {
            reply(error_response(404, "not_found", "no such file"));
            return;
        }
        path = "/index.html";
        file = ctx.web_root / "index.html";
    }
    // The resolved file must stay under the web root (symlinks included).
    const auto root  = std::filesystem::weakly_canonical(ctx.web_root, ec);
    const auto canon = std::filesystem::weakly_canonical(file, ec);
    const auto rel   = canon.lexically_relative(root);
    if (ec || rel.empty() || *rel.begin() == "..") {
        reply(error_response(404, "not_found", "no such file"));
        return;
    }
    const auto f = load(canon);
    if (f == nullptr) {
        reply(error_response(404, "not_found", "no such file"));
        return;
    }
    r.headers.emplace_back("ETag", f->etag);
    r.headers.emplace_back("Cache-Control",
                           hashed_asset(path) ? "public, max-age=31536000, immutable" : "no-cache");
    r.headers.emplace_back("Vary", "Accept-Encoding");
    r.content_type = f->content_type;
    if (req.if_none_match.find(f->etag) != std::string::npos) {
        r.status = 304;
        reply(std::move(r));
        return;
    }
    if (!f->gzip.empty() && accepts_gzip(req.accept_encoding)) {
        r.body = f->gzip;
        r.headers.emplace_back("Content-Encoding", "gzip");
    } else {
        r.body = f->body;
    }
    reply(std::move(r));
}

}  // namespace papan::server
