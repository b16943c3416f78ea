// StoreExecutor: the one thread that owns the Store (the SQLite or PostgreSQL connection). Jobs
// run in the order they were queued; a job posts its result back to whoever asked (a room
// strand, a session). Because jobs are FIFO, a reply queued after a write is sent only once that
// write is stored.
//
// Group commit: the writes that are waiting together (the changes of many games that arrived
// while the thread was busy) are stored in one transaction, one commit for all of them. Each
// write's `done(true)` runs only after that commit: nothing is acknowledged before it is stored.
// When the group fails (one write refused, or the commit), every write of it is tried again alone
// in its own transaction, so a write fails only for its own reason. Nothing waits to fill a
// group: a write that finds the thread idle is committed at once.
#pragma once

#include <papan/server/store.hpp>

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>

namespace papan::server {

class StoreExecutor {
public:
    explicit StoreExecutor(std::unique_ptr<Store> store);
    ~StoreExecutor();
    StoreExecutor(const StoreExecutor&)            = delete;
    StoreExecutor& operator=(const StoreExecutor&) = delete;

    // Queues a job (reads, and writes that answer for themselves); exceptions it throws are
    // logged (the job's caller gets no reply then).
    void run(std::function<void(Store&)> job);
    // Queues a write, committed with the writes queued beside it; then `done(true)`, or
    // `done(false)` when it could not be stored (it left nothing). `op` may run twice (again
    // alone after its group failed): it must only write through the store. Both run on the
    // store thread.
    void write(std::function<void(Store&)> op, std::function<void(bool)> done);
    // Runs the queued jobs to the end and joins the thread. Idempotent.
    void stop();

    // The store itself, for start-up work before any job runs.
    Store& direct() { return *store_; }

    struct Stats {
        std::uint64_t writes  = 0;  // writes stored
        std::uint64_t commits = 0;  // transactions they took
        std::uint64_t retried = 0;  // writes tried again alone after their group failed
    };

    [[nodiscard]] Stats stats() const;

private:
    struct Job {
        std::function<void(Store&)> op;
        std::function<void(bool)> done;  // set: a write
    };

    void loop();
    void run_job(Job& job);
    // Stores the writes jobs[first, last) together (one alone, as it is).
    void commit_group(std::deque<Job>& jobs, std::size_t first, std::size_t last);
    bool write_alone(Job& job);

    std::unique_ptr<Store> store_;
    mutable std::mutex mutex_;
    std::condition_variable wake_;
    std::deque<Job> queue_;
    bool stopping_ = false;
    Stats stats_;
    std::thread thread_;
};

}  // namespace papan::server
