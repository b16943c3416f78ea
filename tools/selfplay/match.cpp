// Match driver (see match.hpp).
#include "match.hpp"

#include <papan/core/notation/move_text.hpp>
#include <papan/engine/hub.hpp>

#include <atomic>
#include <cstdlib>
#include <mutex>
#include <thread>
#include <utility>

namespace papan::selfplay {

namespace {

std::uint64_t next_random(std::uint64_t& x) noexcept {
    x += 0x9e3779b97f4a7c15ULL;
    std::uint64_t z = x;
    z               = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z               = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

struct Forfeit {
    Side side;
    std::string why;
};

struct Worker {
    Worker(const EngineSpec& c, const EngineSpec& b) : candidate(c), baseline(b) {}

    HubEngine candidate;
    HubEngine baseline;
    TimeStats time_candidate;
    TimeStats time_baseline;
    std::int64_t forfeits_candidate = 0;
    std::int64_t forfeits_baseline  = 0;
};

void count_time(TimeStats& t, const EngineReply& reply, std::size_t legal_moves) {
    ++t.moves;
    t.seconds += reply.seconds;
    t.max_seconds   = std::max(t.max_seconds, reply.seconds);
    TimeShare* kind = nullptr;
    switch (move_time_kind(reply, legal_moves)) {
    case MoveTimeKind::Forced:
        kind = &t.forced;
        break;
    case MoveTimeKind::Unsearched:
        kind = &t.unsearched;
        break;
    case MoveTimeKind::Proven:
        kind = &t.proven;
        break;
    case MoveTimeKind::SearchedOut:
        kind = &t.searched_out;
        break;
    case MoveTimeKind::Open:
        if (reply.depth) {
            ++t.depth_moves;
            t.depth_sum += *reply.depth;
        }
        if (reply.nodes && reply.info_seconds > 0) {
            t.nodes += *reply.nodes;
            t.nodes_seconds += reply.info_seconds;
        }
        break;
    }
    if (kind != nullptr) {
        ++kind->moves;
        kind->seconds += reply.seconds;
    }
}

// Plays one game; the engine that fails (an illegal move, no answer, a crash) loses it and is
// restarted for the next game.
GameRecord play_game(const MatchOptions& o, Worker& w, std::size_t opening, bool candidate_white) {
    GameRecord rec;
    rec.opening         = opening;
    rec.candidate_white = candidate_white;
    core::Game g(o.variant);
    for (const core::Move& m : o.openings[opening].moves) {
        if (!rec.moves.empty()) {
            rec.moves += ' ';
        }
        rec.moves += core::move_text(g.position(), m);
        (void)g.play(m);
    }
    const core::Color candidate_colour = candidate_white ? core::Color::White : core::Color::Black;
    (void)w.candidate.new_game();
    (void)w.baseline.new_game();

    std::optional<Forfeit> forfeit;
    while (!g.is_over() && g.ply() < o.max_plies) {
        const bool cand     = g.side_to_move() == candidate_colour;
        HubEngine& e        = cand ? w.candidate : w.baseline;
        const MoveLimit& ml = cand ? o.candidate_limit : o.baseline_limit;
        const Side side     = cand ? Side::Candidate : Side::Baseline;
        auto reply          = e.think(g, ml, o.move_timeout);
        if (!reply) {
            forfeit = Forfeit{side, reply.error()};
            break;
        }
        count_time(cand ? w.time_candidate : w.time_baseline, *reply, g.legal_moves().size());
        // The rules core is the referee: the text must name one legal move of this game.
        const auto m = engine::parse_hub_move(g.position(), reply->move, g.movegen_options());
        if (!m || !g.find_legal(*m)) {
            forfeit = Forfeit{
                side, "illegal move " + reply->move + " in " + engine::hub_position(g.position())};
            break;
        }
        rec.moves += ' ';
        rec.moves += core::move_text(g.position(), *m);
        (void)g.play(*m);
    }
    rec.plies = g.ply();
    if (forfeit) {
        const bool cand           = forfeit->side == Side::Candidate;
        rec.candidate_half_points = cand ? 0 : 2;
        rec.ending = std::string(cand ? "candidate" : "baseline") + " forfeits: " + forfeit->why;
        (cand ? w.forfeits_candidate : w.forfeits_baseline) += 1;
        HubEngine& e = cand ? w.candidate : w.baseline;
        e.stop_process();
        if (auto s = e.start(o.variant); !s) {
            rec.ending += " (restart failed: " + s.error() + ")";
        }
        return rec;
    }
    if (!g.is_over()) {
        rec.candidate_half_points = 1;
        rec.ending                = "Draw: the ply cap (" + std::to_string(o.max_plies) + ")";
        return rec;
    }
    rec.ending                = g.result_text();
    const auto w_             = core::winner(g.result().outcome);
    rec.candidate_half_points = !w_ ? 1 : (*w_ == candidate_colour ? 2 : 0);
    return rec;
}

void add(TimeStats& into, const TimeStats& t) {
    into.moves += t.moves;
    into.seconds += t.seconds;
    into.max_seconds = std::max(into.max_seconds, t.max_seconds);
    into.depth_moves += t.depth_moves;
    into.depth_sum += t.depth_sum;
    into.nodes += t.nodes;
    into.nodes_seconds += t.nodes_seconds;
    for (TimeShare TimeStats::*kind : TimeStats::kSettledKinds) {
        (into.*kind).moves += (t.*kind).moves;
        (into.*kind).seconds += (t.*kind).seconds;
    }
}

}  // namespace

MoveTimeKind move_time_kind(const EngineReply& reply, std::size_t legal_moves) noexcept {
    if (legal_moves == 1) {
        return MoveTimeKind::Forced;
    }
    if (!reply.score && !reply.depth) {
        return MoveTimeKind::Unsearched;
    }
    if (reply.score && std::abs(*reply.score) >= kProvenScore) {
        return MoveTimeKind::Proven;
    }
    if (reply.depth && *reply.depth >= kSearchedOutDepth) {
        return MoveTimeKind::SearchedOut;
    }
    return MoveTimeKind::Open;
}

MatchResult run_match(const MatchOptions& o, const PairCallback& on_pair) {
    MatchResult result;
    if (o.openings.empty()) {
        result.error = "no openings";
        return result;
    }
    if (o.sprt) {
        result.bounds = sprt_bounds(*o.sprt);
    }
    // Openings in a seeded order, each used once before any is used again.
    std::vector<std::size_t> order(o.openings.size());
    for (std::size_t i = 0; i < order.size(); ++i) {
        order[i] = i;
    }
    std::uint64_t x = o.seed;
    for (std::size_t i = order.size(); i > 1; --i) {
        std::swap(order[i - 1], order[next_random(x) % i]);
    }

    const int n_workers = std::max(1, o.concurrency);
    std::vector<std::unique_ptr<Worker>> workers;
    for (int i = 0; i < n_workers; ++i) {
        workers.push_back(std::make_unique<Worker>(o.candidate, o.baseline));
        for (HubEngine* e : {&workers.back()->candidate, &workers.back()->baseline}) {
            if (auto s = e->start(o.variant); !s) {
                result.error = s.error();
                return result;
            }
            const MoveLimit& limit =
                e == &workers.back()->candidate ? o.candidate_limit : o.baseline_limit;
            if (e->protocol() == HubProtocol::V1 && limit.nodes > 0) {
                result.error = e->spec().label + ": a Hub v1 engine plays at a fixed move time "
                                                 "(--movetime), not at a node count";
                return result;
            }
        }
    }

    std::atomic<std::int64_t> next_pair{0};
    std::atomic<bool> stop{false};
    std::mutex mu;
    const auto work = [&](Worker& w) {
        for (;;) {
            if (stop.load()) {
                return;
            }
            const std::int64_t k = next_pair.fetch_add(1);
            if (k >= o.max_pairs) {
                return;
            }
            const std::size_t opening = order[static_cast<std::size_t>(k) % order.size()];
            const GameRecord first    = play_game(o, w, opening, true);
            const GameRecord second   = play_game(o, w, opening, false);
            const std::lock_guard lock(mu);
            result.counts.add_pair(first.candidate_half_points, second.candidate_half_points);
            if (o.sprt) {
                result.llr      = llr(result.counts, *o.sprt, o.counting);
                result.decision = decide(result.llr, result.bounds);
                if (result.decision != Decision::Continue) {
                    stop.store(true);
                }
            }
            if (on_pair) {
                on_pair(first, second, result);
            }
        }
    };
    std::vector<std::thread> threads;
    for (int i = 1; i < n_workers; ++i) {
        threads.emplace_back(work, std::ref(*workers[static_cast<std::size_t>(i)]));
    }
    work(*workers[0]);
    for (auto& t : threads) {
        t.join();
    }
    for (const auto& w : workers) {
        add(result.time_candidate, w->time_candidate);
        add(result.time_baseline, w->time_baseline);
        result.forfeits_candidate += w->forfeits_candidate;
        result.forfeits_baseline += w->forfeits_baseline;
    }
    return result;
}

}  // namespace papan::selfplay
