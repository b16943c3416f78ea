#include <papan/loadtest/report.hpp>

#include <cmath>
#include <iomanip>
#include <sstream>

namespace papan::loadtest {

namespace {

std::string fixed(double v, int digits) {
    std::ostringstream s;
    s << std::fixed << std::setprecision(digits) << v;
    return s.str();
}

nlohmann::ordered_json latency_json(const LatencySummary& s, bool percentiles99) {
    const auto round3 = [](double v) { return std::round(v * 1000.0) / 1000.0; };
    nlohmann::ordered_json j{{"p50", round3(s.p50_ms)}, {"p95", round3(s.p95_ms)}};
    if (percentiles99) {
        j["p99"] = round3(s.p99_ms);
    }
    j["max"]  = round3(s.max_ms);
    j["mean"] = round3(s.mean_ms);
    return j;
}

}  // namespace

nlohmann::ordered_json Report::to_json() const {
    nlohmann::ordered_json by_code = nlohmann::ordered_json::object();
    for (const auto& [code, n] : errors) {
        by_code[code] = n;
    }
    const auto round3         = [](double v) { return std::round(v * 1000.0) / 1000.0; };
    const ReconnectReport& rc = reconnect;
    return nlohmann::ordered_json{
        {"url", options.urls.empty() ? std::string{} : options.urls.front()},
        {"urls", options.urls},
        {"mode", mode_name(options.mode)},
        {"level", options.mode == Mode::Computer ? options.level : std::string{}},
        {"reply_deadline_s", options.reply_deadline},
        {"reconnect", options.reconnect},
        {"variant", options.variant},
        {"games", options.games},
        {"rate", options.rate},
        {"duration_s", options.duration},
        {"think_ms", options.think_ms},
        {"seed", options.seed},
        {"connections", connections},
        {"games_created", games_created},
        {"games_finished", games_finished},
        {"peak_games", peak_games},
        {"moves", moves},
        {"messages_in", messages_in},
        {"played_s", round3(played_s)},
        {"stopped_by_signal", stopped_by_signal},
        {"elapsed_s", round3(elapsed_s)},
        {"moves_per_s", round3(moves_per_s)},
        {"ack_ms", latency_json(ack, true)},
        {"computer_moves", computer.moves},
        {"computer_moves_per_s", round3(computer.moves_per_s)},
        {"computer_reply_ms", latency_json(computer.reply, true)},
        {"computer_games_late", computer.games_late},
        {"computer_games_without_reply", computer.games_without_reply},
        {"computer_replies_awaited", computer.replies_awaited},
        {"errors", {{"total", error_total}, {"by_code", by_code}}},
        {"opponent_missed", opponent_missed},
        {"drops", rc.drops},
        {"reconnects", rc.reconnects},
        {"reconnect_failed_attempts", rc.failed_attempts},
        {"resume_ms", latency_json(rc.resume, false)},
        {"resumes", rc.resumed_samples},
        {"in_flight_stored", rc.in_flight_stored},
        {"resumed_but_stored", rc.resumed_but_stored},
        {"resent", rc.resent},
        {"creates_unanswered", rc.creates_unanswered},
        {"stalls", rc.stalls},
        {"request_timeouts", rc.request_timeouts},
        {"games_interrupted", rc.games_interrupted},
        {"games_continued", rc.games_continued},
        {"not_continued", rc.not_continued},
        {"verified_games", verified_games},
        {"lost", verify.lost},
        {"duplicated", verify.duplicated},
        {"stored_unacked", verify.stored_unacked},
        {"mismatches", mismatches},
        {"ok", ok}};
}

std::string Report::to_text() const {
    std::ostringstream o;
    o << "mode " << mode_name(options.mode) << ", " << options.urls.size() << " URL"
      << (options.urls.size() == 1 ? "" : "s") << ", reconnect "
      << (options.reconnect ? "on" : "off") << ", played " << fixed(played_s, 1) << " s"
      << (stopped_by_signal ? " (ended by a signal)" : "") << '\n';
    o << "games " << games_created << " created (" << connections << " connections, peak "
      << peak_games << " live, " << games_finished << " finished by the rules)\n";
    o << "moves " << moves << " acknowledged in " << fixed(elapsed_s, 1)
      << " s: " << fixed(moves_per_s, 1) << " moves/s, " << messages_in << " messages received\n";
    o << "ack latency ms: p50 " << fixed(ack.p50_ms, 2) << "  p95 " << fixed(ack.p95_ms, 2)
      << "  p99 " << fixed(ack.p99_ms, 2) << "  max " << fixed(ack.max_ms, 2) << "  mean "
      << fixed(ack.mean_ms, 2) << '\n';
    if (options.reconnect) {
        const ReconnectReport& rc = reconnect;
        o << "reconnect: " << rc.drops << " drops, " << rc.reconnects << " reconnections ("
          << rc.failed_attempts << " failed attempts), back in the game after p50 "
          << fixed(rc.resume.p50_ms, 1) << " ms, max " << fixed(rc.resume.max_ms, 1) << " ms\n";
        o << "moves in flight at a drop: " << rc.resent << " sent again, " << rc.in_flight_stored
          << " found stored (" << rc.resumed_but_stored << " after a 'resumed'); " << rc.stalls
          << " stalled acks; " << rc.creates_unanswered << " creates unanswered; "
          << rc.request_timeouts << " resumes/joins unanswered\n";
        o << "games interrupted " << rc.games_interrupted << ", continued " << rc.games_continued;
        for (const auto& id : rc.not_continued) {
            o << "  " << id;
        }
        o << '\n';
    }
    if (options.mode == Mode::Computer) {
        o << "computer (" << options.level << "): " << computer.moves << " moves, "
          << fixed(computer.moves_per_s, 1) << " moves/s; reply ms: p50 "
          << fixed(computer.reply.p50_ms, 1) << "  p99 " << fixed(computer.reply.p99_ms, 1)
          << "  max " << fixed(computer.reply.max_ms, 1) << '\n';
        o << "games without a computer reply within " << fixed(options.reply_deadline, 1)
          << " s: " << computer.games_late << " (" << computer.games_without_reply
          << " without any reply; " << computer.replies_awaited
          << " replies still awaited at the end, for less than that)\n";
    }
    if (options.mode == Mode::Friend) {
        o << "moves the opponent's connection missed: " << opponent_missed << '\n';
    }
    o << "errors " << error_total;
    for (const auto& [code, n] : errors) {
        o << "  " << code << '=' << n;
    }
    o << '\n';
    o << "checked " << verified_games << " games against the store: lost " << verify.lost
      << ", duplicated " << verify.duplicated << ", stored but ack not seen "
      << verify.stored_unacked << '\n';
    for (const auto& m : mismatches) {
        o << "  " << m << '\n';
    }
    o << (ok ? "OK" : "FAILED") << '\n';
    return o.str();
}

}  // namespace papan::loadtest
