#include "fit.hpp"

#include <papan/engine/evaluation.hpp>

#include <algorithm>
#include <cmath>
#include <thread>
#include <unordered_set>

namespace papan::tune {

namespace {

struct Item {
    const Sample* sample = nullptr;
    double target        = 0.5;
};

std::uint64_t splitmix(std::uint64_t& x) noexcept {
    x += 0x9e3779b97f4a7c15ULL;
    std::uint64_t z = x;
    z               = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z               = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

// log(1 + e^z) - y z: the log-loss of sigmoid(z) against y, without overflow.
double log_loss(double z, double y) noexcept {
    return std::max(z, 0.0) + std::log1p(std::exp(-std::abs(z))) - y * z;
}

double sigmoid(double z) noexcept {
    return 1.0 / (1.0 + std::exp(-z));
}

// White's-view evaluation of the real-valued model (evaluation.hpp), weights in hundredths.
struct Forward {
    double value = 0;  // scale * raw
    double scale = 1;
    double mg    = 0;  // middle-game share
};

Forward forward(const std::vector<double>& w, const engine::EvalFeatures& f) noexcept {
    Forward out;
    out.mg     = static_cast<double>(f.phase) / static_cast<double>(f.phase_total);
    double raw = 0;
    for (std::size_t i = 0; i < f.count; ++i) {
        const auto& e = f.entries[i];
        raw += e.coef * (w[2 * e.pair] * out.mg + w[2 * e.pair + 1] * (1.0 - out.mg));
    }
    out.scale = (raw >= 0 ? f.scale_white : f.scale_black) / 16.0;
    out.value = out.scale * raw;
    return out;
}

// Runs job(lane) for every lane 0..kLanes-1 on `threads` threads (the caller combines lane
// results in lane order).
template <class Job>
void for_lanes(int threads, const Job& job) {
    const int t = std::clamp(threads, 1, kLanes);
    if (t == 1) {
        for (int lane = 0; lane < kLanes; ++lane) {
            job(lane);
        }
        return;
    }
    std::vector<std::thread> pool;
    for (int i = 1; i < t; ++i) {
        pool.emplace_back([&, i] {
            for (int lane = i; lane < kLanes; lane += t) {
                job(lane);
            }
        });
    }
    for (int lane = 0; lane < kLanes; lane += t) {
        job(lane);
    }
    for (auto& th : pool) {
        th.join();
    }
}

struct Slice {
    std::size_t begin = 0;
    std::size_t end   = 0;
};

Slice lane_slice(std::size_t n, int lane) noexcept {
    const auto l = static_cast<std::size_t>(lane);
    return {n * l / kLanes, n * (l + 1) / kLanes};
}

double mean_loss(const std::vector<double>& evals, const std::vector<Item>& items, double k) {
    if (items.empty()) {
        return 0;
    }
    double sum = 0;
    for (std::size_t i = 0; i < items.size(); ++i) {
        sum += log_loss(k * evals[i], items[i].target);
    }
    return sum / static_cast<double>(items.size());
}

// The k minimising the loss: golden-section search on log k over [1e-4, 1e-1].
double fit_k(const std::vector<double>& evals, const std::vector<Item>& items) {
    double lo        = std::log(1e-4);
    double hi        = std::log(1e-1);
    const double phi = (std::sqrt(5.0) - 1.0) / 2.0;
    double a         = hi - phi * (hi - lo);
    double b         = lo + phi * (hi - lo);
    double fa        = mean_loss(evals, items, std::exp(a));
    double fb        = mean_loss(evals, items, std::exp(b));
    for (int it = 0; it < 50; ++it) {
        if (fa < fb) {
            hi = b;
            b  = a;
            fb = fa;
            a  = hi - phi * (hi - lo);
            fa = mean_loss(evals, items, std::exp(a));
        } else {
            lo = a;
            a  = b;
            fa = fb;
            b  = lo + phi * (hi - lo);
            fb = mean_loss(evals, items, std::exp(b));
        }
    }
    return std::exp((lo + hi) / 2.0);
}

// One pass: every item's evaluation and, when asked, the gradient and the diagonal Gauss-Newton
// curvature of the mean loss at scale k (summed per lane, then in lane order).
class Pass {
public:
    explicit Pass(std::size_t n_weights)
        : grad_(kLanes, std::vector<double>(n_weights))
        , curv_(kLanes, std::vector<double>(n_weights)) {}

    void run(const std::vector<double>& w,
             const std::vector<Item>& items,
             double k,
             int threads,
             bool with_gradient,
             std::vector<double>& evals,
             std::vector<double>& grad,
             std::vector<double>& curv) {
        evals.assign(items.size(), 0.0);
        const double inv_n = items.empty() ? 0.0 : 1.0 / static_cast<double>(items.size());
        for_lanes(threads, [&](int lane) {
            auto& g = grad_[static_cast<std::size_t>(lane)];
            auto& h = curv_[static_cast<std::size_t>(lane)];
            if (with_gradient) {
                std::fill(g.begin(), g.end(), 0.0);
                std::fill(h.begin(), h.end(), 0.0);
            }
            engine::EvalFeatures f;
            const Slice s = lane_slice(items.size(), lane);
            for (std::size_t i = s.begin; i < s.end; ++i) {
                engine::eval_features(items[i].sample->position, f);
                const Forward fw = forward(w, f);
                evals[i]         = fw.value;
                if (!with_gradient) {
                    continue;
                }
                const double p  = sigmoid(k * fw.value);
                const double d  = k * (p - items[i].target) * fw.scale * inv_n;
                const double dd = k * k * p * (1.0 - p) * fw.scale * fw.scale * inv_n;
                const double a  = fw.mg;
                for (std::size_t e = 0; e < f.count; ++e) {
                    const auto& en = f.entries[e];
                    const double c = en.coef;
                    g[2 * en.pair] += d * c * a;
                    g[2 * en.pair + 1] += d * c * (1.0 - a);
                    h[2 * en.pair] += dd * c * c * a * a;
                    h[2 * en.pair + 1] += dd * c * c * (1.0 - a) * (1.0 - a);
                }
            }
        });
        if (!with_gradient) {
            return;
        }
        grad.assign(grad_[0].size(), 0.0);
        curv.assign(curv_[0].size(), 0.0);
        for (int lane = 0; lane < kLanes; ++lane) {
            const auto& g = grad_[static_cast<std::size_t>(lane)];
            const auto& h = curv_[static_cast<std::size_t>(lane)];
            for (std::size_t i = 0; i < g.size(); ++i) {
                grad[i] += g[i];
                curv[i] += h[i];
            }
        }
    }

private:
    std::vector<std::vector<double>> grad_;
    std::vector<std::vector<double>> curv_;
};

}  // namespace

FitResult fit(core::VariantId variant,
              const std::vector<SampleSet>& data,
              const std::vector<std::int16_t>& initial,
              const FitOptions& o,
              const EpochCallback& on_epoch) {
    const engine::EvalLayoutInfo info = engine::eval_layout(variant);
    const std::size_t n_weights       = info.weight_count;
    const double unit                 = info.fine_units;

    // Split by game: a game's positions are all in training or all held out. A game that
    // repeats one seen before (same positions in the same order) is left out.
    std::vector<Item> train;
    std::vector<Item> validation;
    std::unordered_set<std::uint64_t> seen_games;
    std::size_t duplicates = 0;
    for (std::size_t set = 0; set < data.size(); ++set) {
        const auto& samples = data[set].samples;
        for (std::size_t begin = 0; begin < samples.size();) {
            std::size_t end = begin;
            std::uint64_t h = 0xcbf29ce484222325ULL;
            while (end < samples.size() && samples[end].game == samples[begin].game) {
                h = (h ^ samples[end].position.key()) * 0x100000001b3ULL;
                ++end;
            }
            if (!seen_games.insert(h).second) {
                ++duplicates;
                begin = end;
                continue;
            }
            std::uint64_t x = o.seed ^ (std::uint64_t{samples[begin].game} << 8) ^ set;
            const double u  = static_cast<double>(splitmix(x) >> 11) * 0x1.0p-53;
            auto& into      = u < o.validation_fraction ? validation : train;
            for (std::size_t i = begin; i < end; ++i) {
                into.push_back(Item{&samples[i], white_score(samples[i].result)});
            }
            begin = end;
        }
    }

    std::vector<double> w(n_weights);
    for (std::size_t i = 0; i < n_weights; ++i) {
        w[i] = i < initial.size() ? initial[i] / unit : 0.0;
    }
    const std::size_t first_pattern = 2 * info.terms;  // piece squares and regions: the prior

    FitResult result;
    result.train_positions      = train.size();
    result.validation_positions = validation.size();
    result.duplicate_games      = duplicates;

    Pass pass(n_weights);
    std::vector<double> evals;
    std::vector<double> grad;
    std::vector<double> curv;
    std::vector<double> validation_evals;
    std::vector<double> unused;
    std::vector<double> velocity(n_weights, 0.0);

    // The prior: the curvature of `prior` positions of average weight (k^2 p (1 - p), p = 1/2)
    // on every piece-square and pattern entry.
    const auto lambda_at = [&](double k) {
        return train.empty() ? 0.0 : o.prior * 0.25 * k * k / static_cast<double>(train.size());
    };
    const auto objective =
        [&](const std::vector<double>& weights, const std::vector<double>& ev, double k) {
            double ridge = 0;
            for (std::size_t i = first_pattern; i < n_weights; ++i) {
                ridge += weights[i] * weights[i];
            }
            return mean_loss(ev, train, k) + 0.5 * lambda_at(k) * ridge;
        };
    const auto report = [&](int epoch, double k, double rate) {
        pass.run(w, validation, k, o.threads, false, validation_evals, unused, unused);
        const EpochReport rep{
            epoch, mean_loss(evals, train, k), mean_loss(validation_evals, validation, k), k, rate};
        result.epochs.push_back(rep);
        if (on_epoch) {
            on_epoch(rep);
        }
    };

    pass.run(w, train, 0.0, o.threads, false, evals, unused, unused);
    double k    = fit_k(evals, train);
    double rate = o.learning_rate;
    pass.run(w, train, k, o.threads, true, evals, grad, curv);
    report(0, k, rate);

    std::vector<double> trial(n_weights);
    std::vector<double> trial_velocity(n_weights);
    std::vector<double> trial_evals;
    std::vector<double> trial_grad;
    std::vector<double> trial_curv;
    for (int epoch = 1; epoch <= o.epochs; ++epoch) {
        const double k_new     = k;
        const double reference = objective(w, evals, k_new);
        const double lambda    = lambda_at(k);
        const double floor     = 1e-3 * lambda;  // scalar terms: no prior, a safe denominator
        for (int attempt = 0;; ++attempt) {
            for (std::size_t i = 0; i < n_weights; ++i) {
                const bool prior_on = i >= first_pattern;
                const double g      = grad[i] + (prior_on ? lambda * w[i] : 0.0);
                const double h      = curv[i] + (prior_on ? lambda : floor);
                trial_velocity[i]   = o.momentum * velocity[i] - rate * g / h;
                trial[i]            = w[i] + trial_velocity[i];
            }
            pass.run(trial, train, k_new, o.threads, true, trial_evals, trial_grad, trial_curv);
            if (objective(trial, trial_evals, k_new) <= reference || attempt == 6) {
                break;
            }
            rate *= 0.5;  // too far: back, half the step, no momentum
            std::fill(velocity.begin(), velocity.end(), 0.0);
        }
        std::swap(w, trial);
        std::swap(velocity, trial_velocity);
        std::swap(evals, trial_evals);
        std::swap(grad, trial_grad);
        std::swap(curv, trial_curv);
        report(epoch, k, rate);
        rate = std::min(o.learning_rate, rate * 1.25);
    }

    (void)first_pattern;
    // Back to the engine's unit: a man is 100 (the mean of its middle-game and endgame values;
    // the search's margins and the weaker levels' noise are set in this unit); k takes the
    // inverse factor, the losses are unchanged.
    const double man         = (w[0] + w[1]) / 2.0;
    const double unit_factor = man > 1.0 ? 100.0 / man : 1.0;
    for (double& x : w) {
        x *= unit_factor;
    }
    result.k           = k / unit_factor;
    result.unit_factor = unit_factor;
    result.weights.resize(n_weights);
    for (std::size_t i = 0; i < n_weights; ++i) {
        const double q    = std::round(w[i] * unit);
        result.weights[i] = static_cast<std::int16_t>(std::clamp(q, -16000.0, 16000.0));
    }
    return result;
}

}  // namespace papan::tune
