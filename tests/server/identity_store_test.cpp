// The Store's outside identities and pending sign-ins (migration 0010), on SQLite and on
// PostgreSQL (env PAPAN_TEST_PG; without it the PostgreSQL cases fail: a test that did not run is
// not a pass).
#include "harness.hpp"
#include "pg_test_db.hpp"

#include <papan/server/store.hpp>

#include <gtest/gtest.h>

#include <memory>

namespace papan::server {
namespace {

enum class Backend {
    Sqlite,
    Postgres
};

class IdentityStoreTest : public ::testing::TestWithParam<Backend> {
protected:
    void SetUp() override {
        if (GetParam() == Backend::Postgres) {
            if (test::pg_base_url().empty()) {
                FAIL() << test::pg_missing_message();
            }
            db_    = std::make_unique<test::PgDatabase>();
            store_ = open_postgres_store(db_->url());
        } else {
            store_ = open_sqlite_store(dir_.path() / "papan.db");
        }
    }

    std::int64_t user(const std::string& name) {
        return store_->create_user(UserRecord{0, name, "", 1}).value();
    }

    test::TempDir dir_;
    std::unique_ptr<test::PgDatabase> db_;
    std::unique_ptr<Store> store_;
};

TEST_P(IdentityStoreTest, AnIdentityBelongsToOneUser) {
    const auto ada  = user("ada");
    const auto budi = user("budi");
    EXPECT_FALSE(store_->identity_user("https://accounts.google.com", "108").has_value());
    EXPECT_TRUE(store_->link_identity({"https://accounts.google.com", "108", ada, 10}));
    EXPECT_TRUE(store_->link_identity({"telegram", "777", ada, 20}));
    EXPECT_FALSE(store_->link_identity({"https://accounts.google.com", "108", budi, 30}));
    EXPECT_EQ(store_->identity_user("https://accounts.google.com", "108"), ada);
    EXPECT_EQ(store_->identity_user("telegram", "777"), ada);
    // The subject alone is not the key: the same number at another issuer is someone else.
    EXPECT_FALSE(store_->identity_user("telegram", "108").has_value());
    const auto ids = store_->identities_of(ada);
    ASSERT_EQ(ids.size(), 2U);
    EXPECT_EQ(ids[0], (ExternalIdentityRecord{"https://accounts.google.com", "108", ada, 10}));
    EXPECT_EQ(ids[1].issuer, "telegram");
    EXPECT_TRUE(store_->identities_of(budi).empty());
}

TEST_P(IdentityStoreTest, APendingSignInIsTakenOnceBeforeItExpires) {
    store_->put_auth_pending("h1", R"({"kind":"oidc"})", 1'000, 0);
    store_->put_auth_pending("h2", "two", 1'000, 0);
    EXPECT_EQ(store_->take_auth_pending("h1", 500), R"({"kind":"oidc"})");
    EXPECT_FALSE(store_->take_auth_pending("h1", 500).has_value());    // once
    EXPECT_FALSE(store_->take_auth_pending("h2", 1'000).has_value());  // expired
    EXPECT_FALSE(store_->take_auth_pending("unknown", 0).has_value());
    // Put again under the same key (a ticket waiting for its nickname): the latest stands.
    store_->put_auth_pending("h3", "three", 2'000, 0);
    store_->put_auth_pending("h3", "three again", 3'000, 100);
    store_->put_auth_pending("h4", "four", 9'000, 2'500);  // drops the expired h2 on the way
    EXPECT_EQ(store_->take_auth_pending("h3", 2'900), "three again");
    EXPECT_EQ(store_->take_auth_pending("h4", 2'900), "four");
}

TEST_P(IdentityStoreTest, ALinkFailingInsideATransactionRollsTheNewUserBack) {
    const auto ada = user("ada");
    ASSERT_TRUE(store_->link_identity({"telegram", "777", ada, 10}));
    EXPECT_THROW(store_->transaction([&] {
        const auto id = store_->create_user(UserRecord{0, "ada_2", "", 1}).value();
        if (!store_->link_identity({"telegram", "777", id, 20})) {
            throw std::runtime_error("taken");
        }
    }),
                 std::runtime_error);
    EXPECT_FALSE(store_->user_by_name("ada_2").has_value());
}

INSTANTIATE_TEST_SUITE_P(Sqlite, IdentityStoreTest, ::testing::Values(Backend::Sqlite));
INSTANTIATE_TEST_SUITE_P(Postgres, IdentityStoreTest, ::testing::Values(Backend::Postgres));

}  // namespace
}  // namespace papan::server
