#include "pg_test_db.hpp"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>
#include <pqxx/pqxx>
#include <random>
#include <stdexcept>
#include <unistd.h>

namespace papan::test {

namespace {

std::string unique_name() {
    static std::atomic<int> counter{0};
    static const unsigned salt = std::random_device{}();
    return "papan_t_" + std::to_string(::getpid()) + "_" + std::to_string(salt % 100000) + "_" +
           std::to_string(++counter);
}

void admin(const std::string& sql) {
    const std::string base = pg_base_url();
    if (base.empty()) {
        throw std::runtime_error(pg_missing_message());
    }
    pqxx::connection c(base);
    pqxx::nontransaction t(c);  // CREATE/DROP DATABASE cannot run inside a transaction
    t.exec(sql);
    t.commit();
}

void create_database(const std::string& name) {
    admin("CREATE DATABASE " + name);
}

void drop_database(const std::string& name) noexcept {
    try {
        admin("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
    } catch (const std::exception& e) {
        // A leftover database named papan_t_* harms nothing; the test result stands.
        std::fprintf(stderr, "pg_test_db: could not drop %s: %s\n", name.c_str(), e.what());
    }
}

std::mutex dir_mutex;
std::map<std::string, std::string> dir_databases;  // data directory -> database name

}  // namespace

std::string pg_base_url() {
    const char* v = std::getenv("PAPAN_TEST_PG");
    return v != nullptr ? std::string(v) : std::string();
}

std::string pg_missing_message() {
    return "PAPAN_TEST_PG is not set: the PostgreSQL tests need a server. Run `bash "
           "scripts/services start` and then `export $(bash scripts/services env)` (ctest sets "
           "it for the pg.* tests)";
}

std::string pg_url_for(const std::string& base, const std::string& name) {
    const auto scheme = base.find("://");
    if (scheme == std::string::npos) {
        throw std::runtime_error("PAPAN_TEST_PG is not a postgresql:// URL: " + base);
    }
    const auto query    = base.find('?', scheme + 3);
    const auto slash    = base.find('/', scheme + 3);
    const auto host_end = std::min(slash == std::string::npos ? base.size() : slash,
                                   query == std::string::npos ? base.size() : query);
    return base.substr(0, host_end) + "/" + name +
           (query == std::string::npos ? std::string() : base.substr(query));
}

PgDatabase::PgDatabase() : name_(unique_name()) {
    const std::string base = pg_base_url();
    if (base.empty()) {
        throw std::runtime_error(pg_missing_message());
    }
    url_ = pg_url_for(base, name_);
    create_database(name_);
}

PgDatabase::~PgDatabase() {
    drop_database(name_);
}

std::string pg_url_for_data_dir(const std::string& data_dir) {
    const std::string base = pg_base_url();
    if (base.empty()) {
        throw std::runtime_error(pg_missing_message());
    }
    std::lock_guard lock(dir_mutex);
    auto it = dir_databases.find(data_dir);
    if (it == dir_databases.end()) {
        const std::string name = unique_name();
        create_database(name);
        it = dir_databases.emplace(data_dir, name).first;
    }
    return pg_url_for(base, it->second);
}

void pg_drop_for_data_dir(const std::string& data_dir) {
    std::string name;
    {
        std::lock_guard lock(dir_mutex);
        const auto it = dir_databases.find(data_dir);
        if (it == dir_databases.end()) {
            return;
        }
        name = it->second;
        dir_databases.erase(it);
    }
    drop_database(name);
}

}  // namespace papan::test
