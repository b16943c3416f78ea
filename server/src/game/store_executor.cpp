#include "game/store_executor.hpp"

#include "support/log.hpp"

#include <exception>

namespace papan::server {

StoreExecutor::StoreExecutor(std::unique_ptr<Store> store)
    : store_(std::move(store))
    , thread_([this] { loop(); }) {}

StoreExecutor::~StoreExecutor() {
    stop();
}

void StoreExecutor::run(std::function<void(Store&)> job) {
    {
        const std::lock_guard lock(mutex_);
        queue_.push_back(Job{std::move(job), {}});
    }
    wake_.notify_one();
}

void StoreExecutor::write(std::function<void(Store&)> op, std::function<void(bool)> done) {
    {
        const std::lock_guard lock(mutex_);
        queue_.push_back(Job{std::move(op), done ? std::move(done) : [](bool) {}});
    }
    wake_.notify_one();
}

void StoreExecutor::stop() {
    {
        const std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    wake_.notify_one();
    if (thread_.joinable()) {
        thread_.join();
    }
}

StoreExecutor::Stats StoreExecutor::stats() const {
    const std::lock_guard lock(mutex_);
    return stats_;
}

void StoreExecutor::loop() {
    std::deque<Job> jobs;
    for (;;) {
        {
            std::unique_lock lock(mutex_);
            wake_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
            if (queue_.empty()) {
                return;  // stopping, and everything queued ran
            }
            jobs.swap(queue_);
        }
        // In order: each run of consecutive writes is one group.
        for (std::size_t i = 0; i < jobs.size();) {
            if (!jobs[i].done) {
                run_job(jobs[i]);
                ++i;
                continue;
            }
            std::size_t end = i + 1;
            while (end < jobs.size() && jobs[end].done) {
                ++end;
            }
            commit_group(jobs, i, end);
            i = end;
        }
        jobs.clear();
    }
}

void StoreExecutor::run_job(Job& job) {
    try {
        job.op(*store_);
    } catch (const std::exception& e) {
        log_line("store", std::string("job failed: ") + e.what());
    }
}

bool StoreExecutor::write_alone(Job& job) {
    try {
        store_->transaction([&] { job.op(*store_); });
        return true;
    } catch (const std::exception& e) {
        log_line("store", std::string("write failed: ") + e.what());
        return false;
    }
}

void StoreExecutor::commit_group(std::deque<Job>& jobs, std::size_t first, std::size_t last) {
    bool together = last - first > 1;
    if (together) {
        try {
            store_->transaction([&] {
                for (std::size_t k = first; k < last; ++k) {
                    jobs[k].op(*store_);
                }
            });
        } catch (const std::exception&) {
            together = false;  // rolled back: each alone, below
            const std::lock_guard lock(mutex_);
            stats_.retried += last - first;
        }
    }
    if (together) {
        {
            const std::lock_guard lock(mutex_);
            stats_.writes += last - first;
            ++stats_.commits;
        }
        for (std::size_t k = first; k < last; ++k) {
            jobs[k].done(true);
        }
        return;
    }
    for (std::size_t k = first; k < last; ++k) {
        const bool ok = write_alone(jobs[k]);
        if (ok) {
            const std::lock_guard lock(mutex_);
            ++stats_.writes;
            ++stats_.commits;
        }
        jobs[k].done(ok);
    }
}

}  // namespace papan::server
