// Endgame databases: win/loss/draw tables of every position with few pieces, built by retrograde
// analysis with the core's move generator (the rules oracle), stored compressed, one file per
// material slice, memory-mapped for probing (docs/engine.md, "Endgame databases").
//
// A table value is the game-theoretic result for the side to move under the variant's move
// rules, with endless play (repetition) a draw and the Turkish lone-king rule applied. The
// move-limit draw rules (no-progress counters, the total move limit, the International and
// Russian lone-king rules) are not in the tables; the search accounts for them (egdb_probe.hpp).
// Tables assume forced capture: they are not used under the "no forced capture" house rule.
//
// Files: DIR/<variant key>/<slice>.egdb, e.g. data/egdb/american/m1k1-m0k1.egdb (side to move's
// men and kings, then the opponent's). A file that is truncated, corrupt or for another variant
// is refused with a message; the rest are used.
#pragma once

#include <papan/core/position.hpp>
#include <papan/core/types.hpp>

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace papan::engine::egdb {

// The result for the side to move.
enum class Wdl : std::int8_t {
    Loss = -1,
    Draw = 0,
    Win  = 1,
};

[[nodiscard]] std::string_view wdl_name(Wdl w) noexcept;  // "win", "loss", "draw"

[[nodiscard]] constexpr Wdl negate(Wdl w) noexcept {
    return static_cast<Wdl>(-static_cast<int>(w));
}

// Pieces per side, the side to move first.
struct Material {
    int own_men   = 0;
    int own_kings = 0;
    int opp_men   = 0;
    int opp_kings = 0;

    [[nodiscard]] int pieces() const noexcept { return own_men + own_kings + opp_men + opp_kings; }

    [[nodiscard]] Material flipped() const noexcept {
        return {opp_men, opp_kings, own_men, own_kings};
    }

    [[nodiscard]] std::string name() const;  // "m1k1-m0k1"

    friend bool operator==(const Material&, const Material&) = default;
};

// One loaded table (egdb info).
struct TableInfo {
    core::VariantId variant{};
    Material material;
    std::filesystem::path file;
    std::uint64_t positions = 0;  // index space (some indices are impossible placements)
    std::uint64_t wins      = 0;  // side to move wins (positions with a capture pending excluded)
    std::uint64_t losses    = 0;
    std::uint64_t draws     = 0;
    std::uint64_t captures  = 0;  // positions with a capture pending: not stored, resolved by probe
    std::uint64_t file_bytes           = 0;
    std::uint32_t max_conversion_plies = 0;  // longest win/loss before a capture or man move
    double build_seconds               = 0;
};

struct OpenReport {
    int tables = 0;
    std::vector<std::string> problems;  // one line per refused file, naming it and why
    std::string summary;                // one line for the log: what was loaded from where
};

class Database {
public:
    ~Database();
    Database(const Database&)            = delete;
    Database& operator=(const Database&) = delete;

    // Opens every table under dir (subdirectories per variant). Never throws: a missing
    // directory gives an empty database and a summary saying so; bad files are listed in
    // report.problems and left out.
    [[nodiscard]] static std::shared_ptr<const Database> open(const std::filesystem::path& dir,
                                                              OpenReport& report);

    // The largest piece count n such that every slice of at most n pieces of the variant is
    // loaded; 0 when none.
    [[nodiscard]] int max_pieces(core::VariantId v) const noexcept;

    // The result for the side to move, resolving pending captures by playing them; nullopt when
    // the position (or a capture's result) is outside the loaded tables.
    [[nodiscard]] std::optional<Wdl> probe(const core::Position& pos) const;

    // The same without the capture search. Precondition: the side to move has no capture.
    [[nodiscard]] std::optional<Wdl> probe_quiet(const core::Position& pos) const;
    // The same, also giving the longest win or loss of the position's table before a capture or
    // man move (TableInfo::max_conversion_plies), for the search's move-limit margin.
    [[nodiscard]] std::optional<Wdl> probe_quiet(const core::Position& pos,
                                                 std::uint32_t& conversion_plies) const;

    [[nodiscard]] std::vector<TableInfo> tables() const;

    struct Impl;

private:
    explicit Database(std::unique_ptr<Impl> impl);
    std::unique_ptr<Impl> impl_;
};

// The database of a directory, opened once per process and shared (the server's AI threads and
// every Engine built with the same EngineOptions::egdb_dir use one set of mappings). The report
// is that of the first opening.
[[nodiscard]] std::shared_ptr<const Database> shared_database(const std::filesystem::path& dir,
                                                              OpenReport* report = nullptr);

// Opens the directory again (tables were added) and makes that the shared database of dir: the
// searches that start afterwards use it; those running keep the one they started with.
std::shared_ptr<const Database> reload_shared_database(const std::filesystem::path& dir,
                                                       OpenReport* report = nullptr);

// Which sets are loaded, for a log line or a status page: "american 5, international 4" (each
// variant with tables and the largest piece count of which every slice is loaded), or "none".
[[nodiscard]] std::string loaded_sets(const Database& db);

struct BuildOptions {
    core::VariantId variant   = core::VariantId::American;
    int pieces                = 4;  // every slice with at most this many pieces
    std::filesystem::path dir = "data/egdb";
    int threads               = 2;
    // Progress and per-slice figures, one line each (the CLI prints them).
    std::function<void(const std::string&)> log;
    // When set and true, the build ends before its next slice (BuildReport::error "stopped");
    // the slices written are kept and a later build resumes from them.
    const std::atomic<bool>* stop = nullptr;
};

struct BuildReport {
    int slices_built            = 0;
    int slices_loaded           = 0;  // already on disk (verified) and reused
    std::uint64_t positions     = 0;  // index space of every slice of the set
    std::uint64_t bytes_on_disk = 0;
    double seconds              = 0;
    std::string error;  // empty on success
};

// Builds (or completes) the set: slices in dependency order, each written to its file at once
// (a build that is stopped resumes from the files written). Blocking; uses options.threads.
[[nodiscard]] BuildReport build(const BuildOptions& options);

// The largest piece count build() accepts for a variant (memory and index limits).
[[nodiscard]] int max_build_pieces(core::VariantId v) noexcept;

// A set of tables: every slice of the variant with at most `pieces` pieces.
struct SetSpec {
    core::VariantId variant{};
    int pieces = 0;
};

// The sets that build in a few minutes on one core (docs/engine.md, "Endgame databases"): the
// 8x8 diagonal variants up to 5 pieces, International and Turkish up to 4.
[[nodiscard]] std::vector<SetSpec> small_sets();

// Builds sets into a directory on a thread of its own at nice 19 (the server's background build:
// `papan serve` starts one unless --no-build-endgames; tests may keep the normal priority), one set
// after another, skipping those already complete there, and reloads the shared database of the
// directory after each set it built, so that the searches starting afterwards use the new
// tables. Progress goes to `log`, one line each. Only one build works in a directory at a time
// (a lock file, `.build.lock`): another process already building there makes this one log that
// and end. The destructor stops the build before its next slice and joins the thread.
class BackgroundBuild {
public:
    using Log = std::function<void(const std::string&)>;

    BackgroundBuild(std::filesystem::path dir,
                    std::vector<SetSpec> sets,
                    Log log,
                    bool low_priority = true);
    ~BackgroundBuild();
    BackgroundBuild(const BackgroundBuild&)            = delete;
    BackgroundBuild& operator=(const BackgroundBuild&) = delete;

    struct Status {
        bool running = false;
        std::string building;  // "russian 5" while a set is being built
        int sets_done  = 0;    // built or found complete
        int sets_total = 0;
    };

    [[nodiscard]] Status status() const;

    // Blocks until the build has ended (tests).
    void wait();

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace papan::engine::egdb
