// open_store: the store `papan serve --store SPEC` names (store.hpp).
#include <papan/server/store.hpp>

#include <stdexcept>
#include <string_view>

namespace papan::server {

std::unique_ptr<Store> open_store(const std::string& spec, const std::filesystem::path& data_dir) {
    const auto starts = [&](std::string_view prefix) { return spec.rfind(prefix, 0) == 0; };
    if (spec.empty()) {
        return open_sqlite_store(data_dir / "papan.db");
    }
    if (starts("postgresql://") || starts("postgres://")) {
        return open_postgres_store(spec);
    }
    if (starts("sqlite:")) {
        const std::string path = spec.substr(7);
        if (path.empty()) {
            throw std::runtime_error("--store sqlite:PATH needs a path");
        }
        return open_sqlite_store(path);
    }
    // Not echoed whole: a mistyped URL may carry a password.
    throw std::runtime_error("--store: unknown kind of store '" + spec.substr(0, spec.find(':')) +
                             "'; use postgresql://user:pw@host:port/db, postgres://..., or "
                             "sqlite:PATH");
}

}  // namespace papan::server
