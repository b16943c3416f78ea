// A prepared SQLite statement with chained binds and typed column reads, throwing
// std::runtime_error on any SQLite error: the SQLite stores' one way to run SQL (sqlite_store.cpp,
// sqlite_puzzle_store.cpp).
#pragma once

#include <sqlite3.h>

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace papan::server::sqlite {

class Stmt {
public:
    Stmt(sqlite3* db, std::string_view sql) : db_(db) {
        if (sqlite3_prepare_v3(db,
                               sql.data(),
                               static_cast<int>(sql.size()),
                               SQLITE_PREPARE_PERSISTENT,
                               &stmt_,
                               nullptr) != SQLITE_OK) {
            throw std::runtime_error(std::string("sqlite prepare: ") + sqlite3_errmsg(db) +
                                     " in: " + std::string(sql));
        }
    }

    ~Stmt() { sqlite3_finalize(stmt_); }

    Stmt(const Stmt&)            = delete;
    Stmt& operator=(const Stmt&) = delete;

    Stmt& reset() {
        sqlite3_reset(stmt_);
        sqlite3_clear_bindings(stmt_);
        next_ = 1;
        return *this;
    }

    Stmt& bind(std::string_view s) {
        check(sqlite3_bind_text(
            stmt_, next_++, s.data(), static_cast<int>(s.size()), SQLITE_TRANSIENT));
        return *this;
    }

    Stmt& bind(const std::string& s) { return bind(std::string_view(s)); }

    Stmt& bind(const char* s) { return bind(std::string_view(s)); }

    Stmt& bind(std::int64_t v) {
        check(sqlite3_bind_int64(stmt_, next_++, v));
        return *this;
    }

    Stmt& bind(int v) { return bind(static_cast<std::int64_t>(v)); }

    Stmt& bind(double v) {
        check(sqlite3_bind_double(stmt_, next_++, v));
        return *this;
    }

    Stmt& bind(bool v) { return bind(static_cast<std::int64_t>(v ? 1 : 0)); }

    Stmt& bind(const std::optional<std::int64_t>& v) {
        if (v) {
            return bind(*v);
        }
        check(sqlite3_bind_null(stmt_, next_++));
        return *this;
    }

    // Steps once: true when a row is available.
    bool step() {
        const int rc = sqlite3_step(stmt_);
        if (rc == SQLITE_ROW) {
            return true;
        }
        if (rc == SQLITE_DONE) {
            return false;
        }
        const std::string msg = sqlite3_errmsg(db_);
        sqlite3_reset(stmt_);
        throw std::runtime_error("sqlite step: " + msg);
    }

    void run() {
        step();
        sqlite3_reset(stmt_);
    }

    [[nodiscard]] std::string text(int col) const {
        const auto* p = sqlite3_column_text(stmt_, col);
        if (p == nullptr) {
            return {};
        }
        return std::string(reinterpret_cast<const char*>(p),
                           static_cast<std::size_t>(sqlite3_column_bytes(stmt_, col)));
    }

    [[nodiscard]] std::int64_t integer(int col) const { return sqlite3_column_int64(stmt_, col); }

    [[nodiscard]] double real(int col) const { return sqlite3_column_double(stmt_, col); }

    [[nodiscard]] bool is_null(int col) const {
        return sqlite3_column_type(stmt_, col) == SQLITE_NULL;
    }

private:
    void check(int rc) const {
        if (rc != SQLITE_OK) {
            throw std::runtime_error(std::string("sqlite bind: ") + sqlite3_errmsg(db_));
        }
    }

    sqlite3* db_        = nullptr;
    sqlite3_stmt* stmt_ = nullptr;
    int next_           = 1;
};

}  // namespace papan::server::sqlite
