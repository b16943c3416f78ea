// The numbered SQL migrations, embedded at build time from src/store/migrations/NNNN_*.sql
// (generated migrations.cpp). Applied in order; each runs once (table schema_migrations).
#pragma once

#include <string_view>
#include <vector>

namespace papan::server::store {

struct Migration {
    int number;
    std::string_view name;
    std::string_view sql;
};

const std::vector<Migration>& migrations();

}  // namespace papan::server::store
