#include "cluster/remote_ai.hpp"

#include "cluster/ai_jobs.hpp"
#include "support/log.hpp"

#include <papan/core/notation/move_text.hpp>
#include <papan/server/tokens.hpp>

#include <boost/asio/bind_executor.hpp>
#include <boost/asio/post.hpp>

#include <chrono>

namespace papan::server {

using Json = nlohmann::json;

namespace {

constexpr auto kSweep = std::chrono::milliseconds(1000);

std::string text_of(const Json& j, const char* key) {
    const auto it = j.find(key);
    return it != j.end() && it->is_string() ? it->get<std::string>() : std::string{};
}

}  // namespace

RemoteAi::RemoteAi(net::io_context& ioc,
                   const Clock& clock,
                   const RedisAddress& address,
                   std::string node,
                   std::string_view secret,
                   RemoteAiOptions options)
    : options_(options)
    , clock_(clock)
    , node_(std::move(node))
    , reply_channel_(ai_reply_channel(node_))
    , sealer_(secret)
    , strand_(net::make_strand(ioc))
    , sweep_(strand_)
    , boot_(random_hex(4)) {
    bus_ = std::make_unique<RedisBus>(
        address,
        std::vector<std::string>{reply_channel_, std::string(kAiWorkersChannel)},
        [this](const std::string& channel, std::string payload) {
            on_message(channel, std::move(payload));
        },
        [] {});
}

RemoteAi::~RemoteAi() {
    stop();
}

void RemoteAi::start() {
    bus_->start();
    net::post(strand_, [this] { count_workers(clock_.now_ms()); });
}

void RemoteAi::stop() {
    if (stopped_.exchange(true)) {
        return;
    }
    bus_->stop();
    alive_ = 0;
}

AiOffloadStats RemoteAi::stats() const {
    return {alive_.load(), sent_.load(), answered_.load(), thought_here_.load(), refused_.load()};
}

bool RemoteAi::offer(const AiRequest& request,
                     const engine::SearchLimits& limits,
                     AiDone done,
                     std::function<void()> here) {
    if (stopped_ || alive_.load() == 0) {
        return false;
    }
    AiJob job{boot_ + "-" + std::to_string(++next_id_),
              node_,
              request.game,
              request.level,
              limits,
              request.clocked,
              clock_.now_ms() + options_.pickup_ms};
    Json message       = ai_job_json(job);
    message["kind"]    = "ai_job";
    message["from"]    = node_;
    message["at"]      = clock_.now_ms();
    std::string sealed = sealer_.seal(message);
    const std::string stream(request.clocked ? kAiStreamClocked : kAiStreamUntimed);
    net::post(strand_,
              [this,
               id     = std::move(job.id),
               game   = std::move(job.game),
               budget = ai_budget_ms(limits),
               stream,
               sealed = std::move(sealed),
               done   = std::move(done),
               here   = std::move(here)]() mutable {
                  Job j{std::move(game),
                        std::move(done),
                        std::move(here),
                        budget,
                        std::make_unique<net::steady_timer>(strand_)};
                  jobs_.emplace(id, std::move(j));
                  ++sent_;
                  arm(id, options_.pickup_ms);
                  send(id, stream, std::move(sealed));
              });
    return true;
}

void RemoteAi::send(const std::string& id, const std::string& stream, std::string sealed) {
    bus_->command({"XADD",
                   stream,
                   "MAXLEN",
                   "~",
                   std::to_string(kAiStreamMaxLen),
                   "*",
                   "job",
                   std::move(sealed)},
                  [this, id](std::optional<RedisReply> r) {
                      if (r && r->kind != RedisReply::Kind::Error) {
                          return;
                      }
                      const std::string why = r ? r->str : std::string("Redis unreachable");
                      net::post(strand_, [this, id, why] {
                          think_here(id, "the job could not be queued (" + why + ")");
                      });
                  });
}

void RemoteAi::arm(const std::string& id, std::int64_t ms) {
    const auto it = jobs_.find(id);
    if (it == jobs_.end()) {
        return;
    }
    it->second.timer->expires_after(std::chrono::milliseconds(ms));
    it->second.timer->async_wait([this, id, ms](const boost::system::error_code& ec) {
        if (!ec) {
            think_here(id, "no worker answered within " + std::to_string(ms) + " ms");
        }
    });
}

void RemoteAi::think_here(const std::string& id, const std::string& why) {
    const auto it = jobs_.find(id);
    if (it == jobs_.end()) {
        return;
    }
    auto here = std::move(it->second.here);
    jobs_.erase(it);
    const auto n = ++thought_here_;
    log_line("ai",
             "job " + id + ": " + why + "; thinking on this node (" + std::to_string(n) +
                 " jobs since start)");
    if (!stopped_) {
        here();
    }
}

void RemoteAi::on_message(const std::string& channel, std::string payload) {
    const auto now = clock_.now_ms();
    auto opened    = sealer_.open(payload, now);
    if (const auto* refused = std::get_if<BusSealer::Refused>(&opened)) {
        ++refused_;
        log_line("ai", "refused a message on " + channel + ": " + refused->reason);
        return;
    }
    net::post(strand_, [this, channel, now, m = std::move(std::get<Json>(opened))] {
        const std::string kind = text_of(m, "kind");
        if (channel == kAiWorkersChannel && kind == "ai_worker") {
            on_heartbeat(m, now);
        } else if (channel == reply_channel_ && kind == "ai_taken") {
            on_taken(m);
        } else if (channel == reply_channel_ && kind == "ai_move") {
            on_answer(m);
        }
    });
}

void RemoteAi::on_heartbeat(const Json& m, std::int64_t now) {
    const std::string worker = text_of(m, "from");
    if (worker.empty()) {
        return;
    }
    if (workers_.insert_or_assign(worker, now).second) {
        log_line("ai", "engine worker " + worker + " is here");
    }
    count_workers(now);
}

void RemoteAi::count_workers(std::int64_t now) {
    std::erase_if(workers_, [&](const auto& w) {
        if (now - w.second <= options_.worker_ttl) {
            return false;
        }
        log_line("ai", "engine worker " + w.first + " is gone");
        return true;
    });
    alive_ = static_cast<int>(workers_.size());
    if (stopped_) {
        return;
    }
    sweep_.expires_after(kSweep);
    sweep_.async_wait([this](const boost::system::error_code& ec) {
        if (!ec) {
            count_workers(clock_.now_ms());
        }
    });
}

void RemoteAi::on_taken(const Json& m) {
    const std::string id = text_of(m, "id");
    const auto it        = jobs_.find(id);
    if (it == jobs_.end()) {
        return;
    }
    // Taken (again, when another worker claimed it from a dead one): the budget starts now.
    arm(id, it->second.budget_ms + options_.grace_ms);
}

void RemoteAi::on_answer(const Json& m) {
    const std::string id = text_of(m, "id");
    const auto it        = jobs_.find(id);
    if (it == jobs_.end()) {
        return;  // thought here already: a late answer
    }
    const std::string worker = text_of(m, "from");
    const std::string text   = text_of(m, "move");
    const core::Game& game   = it->second.game;
    const auto move          = core::parse_move(game.position(), text, game.movegen_options());
    if (!move || !game.find_legal(*move)) {
        ++refused_;
        think_here(id,
                   "worker " + worker + " answered '" + text + "', not a legal move (" +
                       (move ? std::string("the game is over") : move.error()) + ")");
        return;
    }
    auto done = std::move(it->second.done);
    jobs_.erase(it);
    ++answered_;
    done(*move);
}

}  // namespace papan::server
