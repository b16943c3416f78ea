#include "game/store_executor.hpp"

#include "support/log.hpp"

#include <boost/asio/post.hpp>

#include <exception>

namespace papan::server {

StoreExecutor::StoreExecutor(std::unique_ptr<Store> store)
    : store_(std::move(store))
    , work_(ioc_.get_executor())
    , thread_([this] { ioc_.run(); }) {}

StoreExecutor::~StoreExecutor() {
    stop();
}

void StoreExecutor::run(std::function<void(Store&)> job) {
    net::post(ioc_, [this, job = std::move(job)] {
        try {
            job(*store_);
        } catch (const std::exception& e) {
            log_line("store", std::string("job failed: ") + e.what());
        }
    });
}

void StoreExecutor::stop() {
    work_.reset();
    if (thread_.joinable()) {
        thread_.join();
    }
}

}  // namespace papan::server
