// Throw-away PostgreSQL databases for the tests, on the server named by env PAPAN_TEST_PG
// (`scripts/services start`, then `scripts/services env` prints the value; ctest sets it for the
// pg.* tests).
#pragma once

#include <string>

namespace papan::test {

// PAPAN_TEST_PG, or "" when unset.
[[nodiscard]] std::string pg_base_url();

// What a test says when PAPAN_TEST_PG is missing.
[[nodiscard]] std::string pg_missing_message();

// The URL of database `name` on the server of `base` (same user, host, port and parameters).
[[nodiscard]] std::string pg_url_for(const std::string& base, const std::string& name);

// A new database with a unique name; dropped at destruction (its connections are cut).
class PgDatabase {
public:
    PgDatabase();  // throws std::runtime_error when PAPAN_TEST_PG is unset or unusable
    ~PgDatabase();
    PgDatabase(const PgDatabase&)            = delete;
    PgDatabase& operator=(const PgDatabase&) = delete;

    [[nodiscard]] const std::string& name() const { return name_; }

    [[nodiscard]] const std::string& url() const { return url_; }

private:
    std::string name_;
    std::string url_;
};

// Databases created for the server process of a data directory (harness.cpp): the same one for
// every start on that directory, dropped with it.
[[nodiscard]] std::string pg_url_for_data_dir(const std::string& data_dir);
void pg_drop_for_data_dir(const std::string& data_dir);

}  // namespace papan::test
