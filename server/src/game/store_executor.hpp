// StoreExecutor: the one thread that owns the Store (SQLite connection). Jobs run in the order
// they were queued; a job posts its result back to whoever asked (a room strand, a session).
// Because jobs are FIFO, a reply queued after a write is sent only once that write is stored.
#pragma once

#include "support/asio_config.hpp"

#include <papan/server/store.hpp>

#include <boost/asio/executor_work_guard.hpp>

#include <functional>
#include <memory>
#include <thread>

namespace papan::server {

class StoreExecutor {
public:
    explicit StoreExecutor(std::unique_ptr<Store> store);
    ~StoreExecutor();
    StoreExecutor(const StoreExecutor&)            = delete;
    StoreExecutor& operator=(const StoreExecutor&) = delete;

    // Queues a job; exceptions it throws are logged (the job's caller gets no reply then).
    void run(std::function<void(Store&)> job);
    // Runs the queued jobs to the end and joins the thread. Idempotent.
    void stop();

    // The store itself, for start-up work before any job runs.
    Store& direct() { return *store_; }

private:
    std::unique_ptr<Store> store_;
    net::io_context ioc_;
    net::executor_work_guard<IoExecutor> work_;
    std::thread thread_;
};

}  // namespace papan::server
