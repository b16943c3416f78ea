// The background build of endgame tables (egdb::BackgroundBuild, what `papan serve` runs after it
// starts): it builds the sets it is given into an empty directory, an engine made before the build
// uses the new tables from its next search on, a complete set is not built again, a second build
// in the same directory stays out while the first works there, and the destructor stops a build
// between slices.
#include <papan/core/game.hpp>
#include <papan/core/notation/fen.hpp>
#include <papan/engine/egdb.hpp>
#include <papan/engine/engine.hpp>

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <mutex>
#include <string>
#include <thread>
#include <unistd.h>
#include <vector>

namespace papan::engine {
namespace {

using core::VariantId;

std::filesystem::path fresh_dir(const std::string& name) {
    const auto dir = std::filesystem::temp_directory_path() /
                     ("papan-egdb-background-" + name + "-" + std::to_string(::getpid()));
    std::filesystem::remove_all(dir);
    return dir;
}

struct Lines {
    std::mutex mutex;
    std::vector<std::string> lines;

    egdb::BackgroundBuild::Log sink() {
        return [this](const std::string& l) {
            const std::lock_guard lock(mutex);
            lines.push_back(l);
        };
    }

    [[nodiscard]] bool has(const std::string& part) {
        const std::lock_guard lock(mutex);
        for (const auto& l : lines) {
            if (l.find(part) != std::string::npos) {
                return true;
            }
        }
        return false;
    }
};

// American: White's king and man against a lone man, a table win the engine can only score as a
// win (a score in the table range) once it has the tables.
constexpr const char* kWon = "W:WK10,K14:B28";

TEST(EgdbBackgroundBuild, BuildsTheSets_AndAnEngineMadeBeforeUsesThemAfterwards) {
    const auto dir = fresh_dir("build");
    EngineOptions o;
    o.hash_mb  = 4;
    o.egdb_dir = dir.string();
    Engine eng(o);
    const core::Game g(core::parse_fen(VariantId::American, kWon).value());
    SearchLimits limits;
    limits.depth      = 3;
    const auto before = eng.search(g, limits, Level::Hard);
    EXPECT_LT(before.score, 20000) << "no tables yet: an evaluation, not a table win";

    Lines log;
    {
        egdb::BackgroundBuild b(
            dir, {{VariantId::American, 3}, {VariantId::International, 2}}, log.sink(), false);
        b.wait();
        const auto s = b.status();
        EXPECT_FALSE(s.running);
        EXPECT_EQ(s.sets_done, 2);
        EXPECT_EQ(s.sets_total, 2);
    }
    EXPECT_TRUE(log.has("american 3 pieces built")) << "log";
    EXPECT_TRUE(log.has("playing with american 3, international 2"));
    const auto db = egdb::shared_database(dir);
    EXPECT_EQ(db->max_pieces(VariantId::American), 3);
    EXPECT_EQ(db->max_pieces(VariantId::International), 2);
    EXPECT_EQ(egdb::loaded_sets(*db), "american 3, international 2");

    eng.new_game();
    const auto after = eng.search(g, limits, Level::Hard);
    EXPECT_GE(after.score, 20000) << "the same engine now scores the table win";

    // Complete already: nothing is built again.
    Lines again;
    {
        egdb::BackgroundBuild b(dir, {{VariantId::American, 3}}, again.sink(), false);
        b.wait();
        EXPECT_EQ(b.status().sets_done, 1);
    }
    EXPECT_FALSE(again.has("building"));
    std::filesystem::remove_all(dir);
}

TEST(EgdbBackgroundBuild, OneBuildADirectory_AndTheDestructorStopsBetweenSlices) {
    const auto dir = fresh_dir("lock");
    Lines first;
    Lines second;
    const auto t0 = std::chrono::steady_clock::now();
    {
        // Russian up to 6 pieces takes most of an hour: it is stopped long before.
        egdb::BackgroundBuild a(dir, {{VariantId::Russian, 6}}, first.sink(), false);
        for (int i = 0; i < 200 && !first.has("building"); ++i) {
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
        }
        EXPECT_TRUE(a.status().running);
        EXPECT_EQ(a.status().building, "russian 6");
        egdb::BackgroundBuild b(dir, {{VariantId::Russian, 6}}, second.sink(), false);
        b.wait();
        EXPECT_TRUE(second.has("another process is building there"));
        EXPECT_FALSE(b.status().running);
    }
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    EXPECT_LT(seconds, 60.0);
    EXPECT_TRUE(first.has("not built: stopped"));
    std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace papan::engine
