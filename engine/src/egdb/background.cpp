// The server's background build of the small endgame table sets (papan/engine/egdb.hpp,
// BackgroundBuild): one thread at the lowest priority, one set after another.
#include <papan/core/rules/registry.hpp>
#include <papan/engine/egdb.hpp>

#include <chrono>
#include <fcntl.h>
#include <mutex>
#include <sys/file.h>
#include <thread>
#include <unistd.h>

#if defined(__linux__)
#include <sys/resource.h>
#include <sys/syscall.h>
#endif

namespace papan::engine::egdb {

std::vector<SetSpec> small_sets() {
    std::vector<SetSpec> out;
    for (const core::RuleSet& r : core::all_variants()) {
        // Measured on one core (docs/engine.md): 8x8 up to 5 pieces 0.5-1.5 min, International
        // up to 4 about 15 s, Turkish up to 4 about 2 min; one piece more takes 10-40 times as
        // long.
        out.push_back({r.id, r.topology == core::Topology::Diagonal8 ? 5 : 4});
    }
    return out;
}

struct BackgroundBuild::Impl {
    std::filesystem::path dir;
    std::vector<SetSpec> sets;
    Log log;
    bool low_priority = true;
    std::atomic<bool> stop{false};
    mutable std::mutex mutex;
    Status status;  // under mutex
    std::thread thread;

    void say(const std::string& line) const {
        if (log) {
            log(line);
        }
    }

    void set_status(bool running, std::string building, int done) {
        const std::lock_guard lock(mutex);
        status.running   = running;
        status.building  = std::move(building);
        status.sets_done = done;
    }

    void run();
};

namespace {

// The calling thread at nice 19, the lowest priority that still makes progress on a busy
// machine (SCHED_IDLE would wait for an idle core, which a loaded server may never have).
void lowest_priority() noexcept {
#if defined(__linux__)
    (void)setpriority(PRIO_PROCESS, static_cast<id_t>(::syscall(SYS_gettid)), 19);
#endif
}

// An exclusive lock on DIR/.build.lock, or -1 when another process holds it.
int lock_directory(const std::filesystem::path& dir) {
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    const std::string path = (dir / ".build.lock").string();
    const int fd           = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) {
        return -1;
    }
    if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
        ::close(fd);
        return -1;
    }
    return fd;
}

}  // namespace

void BackgroundBuild::Impl::run() {
    if (low_priority) {
        lowest_priority();
    }
    const int lock = lock_directory(dir);
    if (lock < 0) {
        say("endgame tables: not building in " + dir.string() +
            " (another process is building there, or it cannot be written)");
        set_status(false, {}, 0);
        return;
    }
    int done = 0;
    for (const SetSpec& set : sets) {
        if (stop.load()) {
            break;
        }
        const std::string name =
            std::string(core::rules(set.variant).key) + " " + std::to_string(set.pieces);
        if (shared_database(dir)->max_pieces(set.variant) >= set.pieces) {
            set_status(true, {}, ++done);
            continue;
        }
        set_status(true, name, done);
        say("endgame tables: building " + name + " pieces in " + dir.string() +
            " (background, lowest priority)");
        BuildOptions o;
        o.variant           = set.variant;
        o.pieces            = set.pieces;
        o.dir               = dir;
        o.threads           = 1;
        o.stop              = &stop;
        const BuildReport r = build(o);
        if (!r.error.empty()) {
            say("endgame tables: " + name + " pieces not built: " + r.error);
            if (r.error == "stopped") {
                break;
            }
            continue;
        }
        char secs[32];
        std::snprintf(secs, sizeof secs, "%.0f s", r.seconds);
        OpenReport report;
        const auto db = reload_shared_database(dir, &report);
        set_status(true, {}, ++done);
        say("endgame tables: " + name + " pieces built (" + std::to_string(r.slices_built) +
            " slices in " + secs + "); playing with " + loaded_sets(*db));
        for (const auto& p : report.problems) {
            say(p);
        }
    }
    ::close(lock);
    set_status(false, {}, done);
}

BackgroundBuild::BackgroundBuild(std::filesystem::path dir,
                                 std::vector<SetSpec> sets,
                                 Log log,
                                 bool low_priority)
    : impl_(std::make_unique<Impl>()) {
    impl_->low_priority      = low_priority;
    impl_->dir               = std::move(dir);
    impl_->sets              = std::move(sets);
    impl_->log               = std::move(log);
    impl_->status.running    = true;
    impl_->status.sets_total = static_cast<int>(impl_->sets.size());
    impl_->thread            = std::thread([impl = impl_.get()] { impl->run(); });
}

BackgroundBuild::~BackgroundBuild() {
    impl_->stop.store(true);
    wait();
}

void BackgroundBuild::wait() {
    if (impl_->thread.joinable()) {
        impl_->thread.join();
    }
}

BackgroundBuild::Status BackgroundBuild::status() const {
    const std::lock_guard lock(impl_->mutex);
    return impl_->status;
}

}  // namespace papan::engine::egdb
