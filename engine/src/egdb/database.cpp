// Database: the loaded tables of every variant, probing, and the per-process cache of opened
// directories.
#include "egdb/board_index.hpp"
#include "egdb/codec.hpp"
#include "egdb/table_file.hpp"

#include <papan/core/movegen.hpp>
#include <papan/core/rules/registry.hpp>
#include <papan/engine/egdb.hpp>

#include <algorithm>
#include <array>
#include <cstdio>
#include <map>
#include <mutex>
#include <sstream>
#include <system_error>

namespace papan::engine::egdb {

using core::Position;
using detail::BoardIndex;
using detail::Table;

std::string_view wdl_name(Wdl w) noexcept {
    switch (w) {
    case Wdl::Win:
        return "win";
    case Wdl::Loss:
        return "loss";
    case Wdl::Draw:
        return "draw";
    }
    return "draw";
}

std::string Material::name() const {
    char buf[48];
    std::snprintf(buf, sizeof buf, "m%dk%d-m%dk%d", own_men, own_kings, opp_men, opp_kings);
    return buf;
}

namespace {

// "m1k1-m0k1" -> material; nullopt for any other name.
std::optional<Material> parse_material(const std::string& s) {
    Material m;
    if (s.size() != 9 || s[0] != 'm' || s[2] != 'k' || s[4] != '-' || s[5] != 'm' || s[7] != 'k') {
        return std::nullopt;
    }
    const auto digit = [](char c, int& out) {
        if (c < '0' || c > '9') {
            return false;
        }
        out = c - '0';
        return true;
    };
    if (!digit(s[1], m.own_men) || !digit(s[3], m.own_kings) || !digit(s[6], m.opp_men) ||
        !digit(s[8], m.opp_kings)) {
        return std::nullopt;
    }
    if (m.own_men + m.own_kings == 0 || m.opp_men + m.opp_kings == 0 ||
        m.pieces() > detail::kMaxIndexedPieces) {
        return std::nullopt;
    }
    return m;
}

// Every material with exactly n pieces, both sides with at least one.
std::vector<Material> materials_with(int n) {
    std::vector<Material> out;
    for (int a = 0; a <= n; ++a) {
        for (int b = 0; a + b <= n; ++b) {
            for (int c = 0; a + b + c <= n; ++c) {
                const int d = n - a - b - c;
                if (a + b > 0 && c + d > 0) {
                    out.push_back({a, b, c, d});
                }
            }
        }
    }
    return out;
}

}  // namespace

struct VariantTables {
    explicit VariantTables(core::VariantId v)
        : variant(v)
        , index(core::rules(v).topology)
        , tables(detail::kMaterialIds) {}

    core::VariantId variant;
    BoardIndex index;
    std::vector<std::unique_ptr<Table>> tables;  // by material_id
    std::vector<std::filesystem::path> files;    // by material_id
    int max_pieces = 0;
};

struct Database::Impl {
    std::array<std::unique_ptr<VariantTables>, core::kVariantCount> variants;
};

Database::Database(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

Database::~Database() = default;

std::shared_ptr<const Database> Database::open(const std::filesystem::path& dir,
                                               OpenReport& report) {
    auto impl = std::make_unique<Impl>();
    report    = {};
    std::error_code ec;
    if (!std::filesystem::is_directory(dir, ec)) {
        report.summary = "no endgame databases in " + dir.string() + " (directory not found)";
        return std::shared_ptr<const Database>(new Database(std::move(impl)));
    }
    std::ostringstream loaded;
    for (const core::RuleSet& r : core::all_variants()) {
        const std::filesystem::path vdir = dir / std::string(r.key);
        if (!std::filesystem::is_directory(vdir, ec)) {
            continue;
        }
        auto vt = std::make_unique<VariantTables>(r.id);
        std::vector<std::filesystem::path> names;
        for (const auto& entry : std::filesystem::directory_iterator(vdir, ec)) {
            if (entry.path().extension() == ".egdb") {
                names.push_back(entry.path());
            }
        }
        std::sort(names.begin(), names.end());
        int count = 0;
        for (const auto& path : names) {
            const auto m = parse_material(path.stem().string());
            if (!m) {
                report.problems.push_back(path.string() + ": not a table name (expected like " +
                                          "m1k1-m0k1.egdb)");
                continue;
            }
            std::string error;
            auto t = Table::open(path, r.id, *m, vt->index, error);
            if (!t) {
                report.problems.push_back(path.string() + ": refused: " + error);
                continue;
            }
            vt->tables[static_cast<std::size_t>(detail::material_id(*m))] = std::move(t);
            vt->files.resize(detail::kMaterialIds);
            vt->files[static_cast<std::size_t>(detail::material_id(*m))] = path;
            ++count;
        }
        for (int n = 2; n <= detail::kMaxIndexedPieces; ++n) {
            const auto all      = materials_with(n);
            const bool complete = std::all_of(all.begin(), all.end(), [&](const Material& m) {
                return vt->tables[static_cast<std::size_t>(detail::material_id(m))] != nullptr;
            });
            if (!complete) {
                break;
            }
            vt->max_pieces = n;
        }
        if (count == 0) {
            continue;
        }
        report.tables += count;
        loaded << (report.tables == count ? "" : ", ") << r.key << " " << count << " tables";
        if (vt->max_pieces >= 2) {
            loaded << " (up to " << vt->max_pieces << " pieces)";
        } else {
            loaded << " (incomplete: unused)";
        }
        impl->variants[static_cast<std::size_t>(r.id)] = std::move(vt);
    }
    if (report.tables == 0) {
        report.summary = "no endgame databases in " + dir.string();
    } else {
        report.summary = "endgame databases from " + dir.string() + ": " + loaded.str();
    }
    if (!report.problems.empty()) {
        report.summary += "; " + std::to_string(report.problems.size()) + " file(s) refused";
    }
    return std::shared_ptr<const Database>(new Database(std::move(impl)));
}

int Database::max_pieces(core::VariantId v) const noexcept {
    const auto& vt = impl_->variants[static_cast<std::size_t>(v)];
    return vt ? vt->max_pieces : 0;
}

std::optional<Wdl> Database::probe_quiet(const Position& pos) const {
    std::uint32_t unused = 0;
    return probe_quiet(pos, unused);
}

std::optional<Wdl> Database::probe_quiet(const Position& pos,
                                         std::uint32_t& conversion_plies) const {
    conversion_plies = 0;
    const auto& vt   = impl_->variants[static_cast<std::size_t>(pos.variant)];
    if (!vt || core::popcount(pos.occupied()) > vt->max_pieces) {
        return std::nullopt;
    }
    if (pos.of(pos.side) == 0) {
        return Wdl::Loss;
    }
    if (pos.of(core::opposite(pos.side)) == 0) {
        return Wdl::Win;
    }
    const Position n  = vt->index.normalise(pos);
    const Material m  = detail::material_of(n);
    const auto& table = vt->tables[static_cast<std::size_t>(detail::material_id(m))];
    if (!table) {
        return std::nullopt;
    }
    conversion_plies = table->stats().max_conversion_plies;
    switch (table->symbol(vt->index.index(n, m))) {
    case detail::kWinSymbol:
        return Wdl::Win;
    case detail::kLossSymbol:
        return Wdl::Loss;
    case detail::kDrawSymbol:
        return Wdl::Draw;
    default:
        return std::nullopt;
    }
}

std::optional<Wdl> Database::probe(const Position& pos) const {
    if (!pos.is_consistent()) {
        return std::nullopt;
    }
    const auto& vt = impl_->variants[static_cast<std::size_t>(pos.variant)];
    if (!vt || core::popcount(pos.occupied()) > vt->max_pieces) {
        return std::nullopt;
    }
    if (!core::has_capture(pos)) {
        return probe_quiet(pos);
    }
    auto list = std::make_unique<core::MoveList>();
    core::generate_moves(pos, *list);
    Wdl best = Wdl::Loss;
    for (const core::Move& m : *list) {
        const auto r = probe(core::make_move(pos, m));
        if (!r) {
            return std::nullopt;
        }
        best = std::max(best, negate(*r));
        if (best == Wdl::Win) {
            break;
        }
    }
    return best;
}

std::vector<TableInfo> Database::tables() const {
    std::vector<TableInfo> out;
    for (const auto& vt : impl_->variants) {
        if (!vt) {
            continue;
        }
        for (int n = 2; n <= detail::kMaxIndexedPieces; ++n) {
            for (const Material& m : materials_with(n)) {
                const auto id = static_cast<std::size_t>(detail::material_id(m));
                const auto& t = vt->tables[id];
                if (!t) {
                    continue;
                }
                const auto& s = t->stats();
                out.push_back({vt->variant,
                               m,
                               vt->files[id],
                               t->positions(),
                               s.wins,
                               s.losses,
                               s.draws,
                               s.captures,
                               t->file_bytes(),
                               s.max_conversion_plies,
                               s.build_seconds});
            }
        }
    }
    return out;
}

namespace {

struct SharedDatabases {
    std::mutex mutex;
    std::map<std::string, std::pair<std::shared_ptr<const Database>, OpenReport>> cache;
};

SharedDatabases& shared() {
    static SharedDatabases s;
    return s;
}

std::string cache_key(const std::filesystem::path& dir) {
    std::error_code ec;
    return std::filesystem::absolute(dir, ec).lexically_normal().string();
}

}  // namespace

std::shared_ptr<const Database> shared_database(const std::filesystem::path& dir,
                                                OpenReport* report) {
    SharedDatabases& s = shared();
    const auto key     = cache_key(dir);
    const std::lock_guard lock(s.mutex);
    auto it = s.cache.find(key);
    if (it == s.cache.end()) {
        OpenReport r;
        auto db = Database::open(dir, r);
        it      = s.cache.emplace(key, std::make_pair(std::move(db), std::move(r))).first;
    }
    if (report != nullptr) {
        *report = it->second.second;
    }
    return it->second.first;
}

std::shared_ptr<const Database> reload_shared_database(const std::filesystem::path& dir,
                                                       OpenReport* report) {
    OpenReport r;
    auto db            = Database::open(dir, r);  // outside the lock: it reads every header
    SharedDatabases& s = shared();
    const std::lock_guard lock(s.mutex);
    if (report != nullptr) {
        *report = r;
    }
    s.cache[cache_key(dir)] = std::make_pair(db, std::move(r));
    return db;
}

std::string loaded_sets(const Database& db) {
    std::string out;
    for (const core::RuleSet& r : core::all_variants()) {
        if (const int n = db.max_pieces(r.id); n > 0) {
            out += (out.empty() ? "" : ", ") + std::string(r.key) + " " + std::to_string(n);
        }
    }
    return out.empty() ? "none" : out;
}

}  // namespace papan::engine::egdb
