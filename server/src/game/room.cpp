#include "game/room.hpp"

#include "cluster/cluster.hpp"
#include "game/ai_pool.hpp"
#include "game/lobby.hpp"
#include "game/messages.hpp"
#include "game/store_executor.hpp"
#include "support/log.hpp"

#include <papan/core/movegen.hpp>
#include <papan/core/notation/fen.hpp>
#include <papan/core/notation/move_text.hpp>
#include <papan/core/notation/squares.hpp>
#include <papan/server/elo.hpp>

#include <boost/asio/post.hpp>

#include <algorithm>
#include <chrono>
#include <ctime>

namespace papan::server {

using Json = nlohmann::json;

namespace {

constexpr std::size_t kRecentEvents = 64;

std::string color_name(core::Color c) {
    return c == core::Color::White ? "white" : "black";
}

std::string_view reason_key(core::Reason r) {
    switch (r) {
    case core::Reason::None:
        return "";
    case core::Reason::NoPieces:
        return "no_pieces";
    case core::Reason::NoMoves:
        return "no_moves";
    case core::Reason::Resignation:
        return "resignation";
    case core::Reason::Timeout:
        return "timeout";
    case core::Reason::Agreement:
        return "agreement";
    case core::Reason::Repetition:
        return "repetition";
    case core::Reason::NoProgress:
        return "no_progress";
    case core::Reason::MoveLimit:
        return "move_limit";
    case core::Reason::EndgameRule:
        return "endgame_rule";
    case core::Reason::InsufficientMaterial:
        return "insufficient_material";
    case core::Reason::TimeoutWithDrawClaimable:
        return "timeout_draw_claimable";
    case core::Reason::TimeoutOpponentCannotWin:
        return "timeout_opponent_cannot_win";
    }
    return "";
}

std::string_view outcome_key(core::Outcome o) {
    switch (o) {
    case core::Outcome::Ongoing:
        return "";
    case core::Outcome::WhiteWins:
        return "white_wins";
    case core::Outcome::BlackWins:
        return "black_wins";
    case core::Outcome::Draw:
        return "draw";
    }
    return "";
}

Json squares_json(core::VariantId v, core::Bitboard b) {
    Json out = Json::array();
    std::vector<int> sq;
    while (b != 0) {
        sq.push_back(core::square_of_bit(v, core::pop_lsb(b)));
    }
    std::sort(sq.begin(), sq.end());
    for (int s : sq) {
        out.push_back(s);
    }
    return out;
}

std::string utc_day(std::int64_t ms) {
    const std::time_t t = static_cast<std::time_t>(ms / 1000);
    std::tm tm{};
    gmtime_r(&t, &tm);
    char buf[16];
    std::strftime(buf, sizeof buf, "%Y-%m-%d", &tm);
    return buf;
}

Json clock_state_json(const std::array<PlayerClock, 2>& c, std::int64_t turn_started) {
    return Json{{"white", {{"main_ms", c[0].main_ms}, {"periods", c[0].periods}}},
                {"black", {{"main_ms", c[1].main_ms}, {"periods", c[1].periods}}},
                {"turn_started_ms", turn_started}};
}

}  // namespace

Json time_control_json(const TimeControl& tc) {
    switch (tc.kind) {
    case TimeKind::None:
        return nullptr;
    case TimeKind::ByoYomi:
        return Json{{"kind", "byoyomi"},
                    {"main", static_cast<double>(tc.main_ms) / 1000.0},
                    {"periods", tc.periods},
                    {"period", static_cast<double>(tc.period_ms) / 1000.0}};
    case TimeKind::Fischer:
        return Json{{"kind", "fischer"},
                    {"main", static_cast<double>(tc.main_ms) / 1000.0},
                    {"increment", static_cast<double>(tc.increment_ms) / 1000.0}};
    }
    return nullptr;
}

TimeControl time_control_from_json(const Json& j) {
    TimeControl tc;
    if (!j.is_object() || !j.contains("kind")) {
        return tc;
    }
    const auto ms = [&](const char* k) {
        return static_cast<std::int64_t>(j.value(k, 0.0) * 1000.0);
    };
    if (j["kind"] == "byoyomi") {
        tc.kind      = TimeKind::ByoYomi;
        tc.main_ms   = ms("main");
        tc.periods   = j.value("periods", 0);
        tc.period_ms = ms("period");
    } else if (j["kind"] == "fischer") {
        tc.kind         = TimeKind::Fischer;
        tc.main_ms      = ms("main");
        tc.increment_ms = ms("increment");
    }
    return tc;
}

core::Expected<std::shared_ptr<Room>> Room::from_record(Services& services, GameRecord rec) {
    const auto v = core::variant_from_key(rec.variant);
    if (!v) {
        return core::Error{"unknown variant '" + rec.variant + "'"};
    }
    auto pos = core::parse_fen(*v, rec.start_fen);
    if (!pos) {
        return core::Error{"bad start position: " + pos.error()};
    }
    core::GameOptions opts;
    opts.forced_capture = rec.forced_capture;
    opts.draw_rules     = static_cast<core::DrawRuleSet>(rec.draw_rules);
    auto game           = core::Game::create(*pos, opts);
    if (!game) {
        return core::Error{game.error()};
    }
    core::Game g = std::move(game).value();
    std::vector<std::int64_t> times;
    for (const auto& m : rec.moves) {
        auto r = g.play(m.text);
        if (!r) {
            return core::Error{"game " + rec.id + ": stored move " + std::to_string(m.ply) + " '" +
                               m.text + "' does not replay: " + r.error()};
        }
        times.push_back(m.at_ms);
    }
    // Non-move endings are recorded by outcome + reason.
    if (rec.status == "over" && !g.is_over()) {
        const auto loser = rec.outcome == "white_wins" ? core::Color::Black : core::Color::White;
        if (rec.reason == "resignation") {
            (void)g.resign(loser);
        } else if (rec.reason == "agreement") {
            (void)g.agree_draw();
        } else if (rec.reason.rfind("timeout", 0) == 0) {
            // The flagged side: the loser, or for a timeout draw the side that was to move.
            (void)g.flag(rec.outcome == "draw" ? g.side_to_move() : loser);
        } else if (rec.reason == "repetition" || rec.reason == "insufficient_material") {
            (void)g.claim_draw();
        }
    }
    rec.moves.clear();
    auto room         = std::make_shared<Room>(services, std::move(rec), std::move(g));
    room->move_times_ = std::move(times);
    return room;
}

Room::Room(Services& services, GameRecord rec, core::Game game)
    : svc_(services)
    , id_(rec.id)
    , strand_(net::make_strand(services.ioc))
    , timer_(strand_)
    , rec_(std::move(rec))
    , game_(std::move(game)) {
    version_         = rec_.version;
    turn_started_ms_ = services.clock.now_ms();  // a new game's clock starts now
    tc_              = time_control_from_json(Json::parse(rec_.time_control, nullptr, false));
    const Json c     = Json::parse(rec_.clocks, nullptr, false);
    if (tc_.enabled()) {
        clocks_[0] = initial_clock(tc_);
        clocks_[1] = initial_clock(tc_);
        if (c.is_object() && c.contains("white")) {
            clocks_[0] = {c["white"].value("main_ms", tc_.main_ms), c["white"].value("periods", 0)};
            clocks_[1] = {c["black"].value("main_ms", tc_.main_ms), c["black"].value("periods", 0)};
            turn_started_ms_ = c.value("turn_started_ms", turn_started_ms_);
        }
    }
}

void Room::post(std::function<void()> fn) {
    net::post(strand_, std::move(fn));
}

bool Room::is_computer(core::Color c) const {
    return rec_.seats[static_cast<std::size_t>(core::index(c))].computer;
}

bool Room::owns(const Identity& who, core::Color c) const {
    return who.known() &&
           rec_.seats[static_cast<std::size_t>(core::index(c))].player_id == who.player_id;
}

std::optional<core::Color> Room::owned_color(const Identity& who) const {
    if (owns(who, core::Color::White)) {
        return core::Color::White;
    }
    if (owns(who, core::Color::Black)) {
        return core::Color::Black;
    }
    return std::nullopt;
}

std::int64_t Room::elapsed_ms() const {
    return std::max<std::int64_t>(0, svc_.clock.now_ms() - turn_started_ms_);
}

bool Room::clock_running() const {
    return tc_.enabled() && rec_.status == "playing" && !game_.is_over();
}

GameRecord Room::next_header() const {
    GameRecord h = header();
    h.version    = version_ + 1;  // commit() numbers the event being stored with it
    return h;
}

GameRecord Room::header() const {
    GameRecord h = rec_;
    h.version    = version_;
    h.clocks     = clock_state_json(clocks_, turn_started_ms_).dump();
    h.updated_ms = svc_.clock.now_ms();
    return h;
}

void Room::update_status() {
    if (game_.is_over()) {
        if (rec_.status != "over" && svc_.lobby != nullptr) {
            svc_.lobby->post([lobby = svc_.lobby, id = id_] { lobby->retire_later(id); });
        }
        const auto& r    = game_.result();
        rec_.status      = "over";
        rec_.outcome     = std::string(outcome_key(r.outcome));
        rec_.reason      = std::string(reason_key(r.reason));
        rec_.result_text = game_.result_text();
        timer_.cancel();
    } else if (rec_.status == "over") {
        rec_.status = "playing";
        rec_.outcome.clear();
        rec_.reason.clear();
        rec_.result_text.clear();
    }
}

Json Room::state_json() const {
    const auto v    = game_.variant();
    const auto& pos = game_.position();
    Json s;
    s["id"]           = id_;
    s["version"]      = version_;
    s["variant"]      = rec_.variant;
    s["variant_name"] = std::string(core::rules(v).name);
    s["mode"]         = rec_.mode;
    s["level"]        = rec_.level;
    s["status"]       = rec_.status;
    s["rated"]        = rec_.rated;
    s["options"]      = {{"forced_capture", rec_.forced_capture}, {"draw_rules", rec_.draw_rules}};
    Json players;
    for (int c = 0; c < 2; ++c) {
        const auto& seat = rec_.seats[static_cast<std::size_t>(c)];
        Json p           = nullptr;
        if (!seat.player_id.empty()) {
            // The computer of a random pairing shows as a player (features.md).
            const bool hide = rec_.mode == "random";
            p = {{"id", hide && seat.computer ? "g" + id_ + std::to_string(c) : seat.player_id},
                 {"name", seat.name},
                 {"computer", seat.computer && !hide},
                 {"account", seat.user_id.has_value()}};
        }
        players[c == 0 ? "white" : "black"] = p;
    }
    s["players"]   = players;
    s["start_fen"] = rec_.start_fen;
    s["fen"]       = core::to_fen(pos);
    s["turn"]      = color_name(pos.side);
    s["ply"]       = game_.ply();
    s["position"]  = {{"white", squares_json(v, pos.men(core::Color::White))},
                      {"white_kings", squares_json(v, pos.kings_of(core::Color::White))},
                      {"black", squares_json(v, pos.men(core::Color::Black))},
                      {"black_kings", squares_json(v, pos.kings_of(core::Color::Black))}};
    Json legal     = Json::array();
    if (rec_.status == "playing") {
        for (const auto& m : game_.legal_moves()) {
            legal.push_back({{"text", core::move_text(pos, m, game_.legal_moves())},
                             {"path", core::path_squares(v, m)},
                             {"captures", core::captured_squares(v, m)}});
        }
    }
    s["legal_moves"]     = legal;
    s["capturers"]       = rec_.status == "playing" && game_.options().forced_capture
                               ? squares_json(v, core::capturers(pos))
                               : Json::array();
    Json moves           = Json::array();
    const auto positions = game_.positions();
    for (std::size_t i = 0; i < game_.moves().size(); ++i) {
        const auto& before = positions[i];
        const auto& m      = game_.moves()[i];
        moves.push_back({{"ply", i},
                         {"color", color_name(before.side)},
                         {"text", core::move_text(before, m)},
                         {"path", core::path_squares(v, m)},
                         {"captures", core::captured_squares(v, m)}});
    }
    s["moves"]  = moves;
    Json limits = Json::array();
    if (!game_.is_over()) {
        for (const auto& d : game_.move_limits()) {
            limits.push_back({{"rule", d.key},
                              {"text", d.text},
                              {"moves_left", d.moves_left},
                              {"plies_left", d.plies_left}});
        }
    }
    s["move_limits"] = limits;
    const auto claim = game_.claimable_draw();
    s["claimable_draw"] =
        claim && rec_.status == "playing" ? Json(std::string(reason_key(*claim))) : Json(nullptr);
    s["draw_offer"] = draw_offer_ ? Json(color_name(*draw_offer_)) : Json(nullptr);
    s["rematch"]    = {{"white", rematch_wanted_[0]},
                       {"black", rematch_wanted_[1]},
                       {"game", rematch_game_.empty() ? Json(nullptr) : Json(rematch_game_)}};
    if (tc_.enabled()) {
        Json clock{{"time_control", time_control_json(tc_)},
                   {"server_time_ms", svc_.clock.now_ms()}};
        const bool running = clock_running();
        for (int c = 0; c < 2; ++c) {
            const auto col  = static_cast<core::Color>(c);
            const auto& pc  = clocks_[static_cast<std::size_t>(c)];
            const auto view = clock_at(tc_, pc, running && col == pos.side ? elapsed_ms() : 0)
                                  .value_or(ClockView{});
            clock[color_name(col)] = {{"main_ms", view.main_ms},
                                      {"periods", view.periods},
                                      {"period_ms", view.period_ms}};
        }
        clock["running"] = running ? Json(color_name(pos.side)) : Json(nullptr);
        s["clock"]       = clock;
    } else {
        s["clock"] = nullptr;
    }
    if (game_.is_over()) {
        s["result"] = {
            {"outcome", rec_.outcome}, {"reason", rec_.reason}, {"text", rec_.result_text}};
    } else {
        s["result"] = nullptr;
    }
    return s;
}

std::string Room::state_message(std::optional<std::int64_t> ref) const {
    Json j{{"type", "state"}, {"game", id_}, {"version", version_}, {"state", state_json()}};
    if (ref) {
        j["ref"] = *ref;
    }
    return j.dump();
}

void Room::send_error(const std::shared_ptr<Peer>& peer,
                      std::string_view code,
                      std::string message,
                      std::optional<std::int64_t> ref) const {
    if (peer) {
        peer->send_text(error_text(code, message, ref));
    }
}

void Room::subscribe(const std::shared_ptr<Peer>& peer, const Identity& who) {
    if (!peer) {
        return;
    }
    std::erase_if(subscribers_, [&](const Subscriber& s) {
        auto p = s.peer.lock();
        return !p || p == peer;
    });
    subscribers_.push_back(Subscriber{peer, who.player_id});
}

void Room::reply_after_store(const std::shared_ptr<Peer>& peer, std::string text) {
    if (!peer) {
        return;
    }
    svc_.store.run(
        [peer, text = std::move(text)](Store&) mutable { peer->send_text(std::move(text)); });
}

void Room::commit(Json event, std::function<void(Store&)> op) {
    ++version_;
    Json msg{{"type", "event"},
             {"game", id_},
             {"version", version_},
             {"event", std::move(event)},
             {"state", state_json()}};
    auto text = std::make_shared<const std::string>(msg.dump());
    recent_.emplace_back(version_, text);
    if (recent_.size() > kRecentEvents) {
        recent_.pop_front();
    }
    std::vector<std::shared_ptr<Peer>> to;
    for (const auto& s : subscribers_) {
        if (auto p = s.peer.lock()) {
            to.push_back(std::move(p));
        }
    }
    svc_.store.run([op = std::move(op), to = std::move(to), text](Store& store) {
        op(store);
        for (const auto& p : to) {
            p->send(text);
        }
    });
}

void Room::create_and_announce(std::vector<std::pair<std::shared_ptr<Peer>, Identity>> peers,
                               std::string first) {
    for (const auto& [peer, who] : peers) {
        subscribe(peer, who);
    }
    const GameRecord h = header();
    std::vector<std::shared_ptr<Peer>> to;
    for (const auto& pw : peers) {
        if (pw.first) {
            to.push_back(pw.first);
        }
    }
    auto state = std::make_shared<const std::string>(state_message(std::nullopt));
    // With several nodes the new game is this node's from the start (its lease).
    std::string node;
    std::int64_t lease = 0;
    if (svc_.cluster != nullptr) {
        node  = svc_.cluster->node();
        lease = svc_.cluster->lease_ms();
    }
    const auto now = svc_.clock.now_ms();
    svc_.store.run([h, to, state, first = std::move(first), node, lease, now](Store& store) {
        store.transaction([&] {
            store.insert_game(h);
            if (!node.empty()) {
                (void)store.claim_game(h.id, node, now, lease);
            }
        });
        for (std::size_t i = 0; i < to.size(); ++i) {
            if (i == 0 && !first.empty()) {
                to[i]->send_text(first);
            }
            to[i]->send(state);
        }
    });
    start();
}

void Room::start() {
    if (rec_.status != "playing" || game_.is_over()) {
        return;
    }
    arm_timer();
    schedule_ai();
}

void Room::shutdown() {
    closed_ = true;
    timer_.cancel();
    ++ai_epoch_;
}

void Room::refresh_subscribers() {
    if (closed_) {
        return;
    }
    const auto text = state_message(std::nullopt);
    for (const auto& s : subscribers_) {
        if (auto p = s.peer.lock()) {
            reply_after_store(p, text);
        }
    }
}

void Room::resume(const std::shared_ptr<Peer>& peer,
                  const Identity& who,
                  std::optional<std::int64_t> last_version,
                  std::optional<std::int64_t> ref) {
    subscribe(peer, who);
    if (last_version && *last_version == version_) {
        Json j{{"type", "resumed"}, {"game", id_}, {"version", version_}};
        if (ref) {
            j["ref"] = *ref;
        }
        reply_after_store(peer, j.dump());
        return;
    }
    if (last_version && *last_version < version_ && !recent_.empty() &&
        recent_.front().first <= *last_version + 1) {
        std::vector<std::shared_ptr<const std::string>> missed;
        for (const auto& [ver, text] : recent_) {
            if (ver > *last_version) {
                missed.push_back(text);
            }
        }
        svc_.store.run([peer, missed](Store&) {
            for (const auto& t : missed) {
                peer->send(t);
            }
        });
        return;
    }
    reply_after_store(peer, state_message(ref));
}

void Room::join(const std::shared_ptr<Peer>& peer,
                const Identity& who,
                const std::string& invite_hash,
                std::optional<std::int64_t> ref) {
    if (owned_color(who)) {
        resume(peer, who, std::nullopt, ref);  // the creator opened their own link, or a rejoin
        return;
    }
    if (rec_.status != "waiting" || rec_.invite_hash != invite_hash) {
        send_error(peer, "invite_used", "this game has already started with someone else", ref);
        return;
    }
    const auto free = rec_.seats[0].player_id.empty() ? core::Color::White : core::Color::Black;
    auto& seat      = rec_.seats[static_cast<std::size_t>(core::index(free))];
    seat            = SeatRecord{who.player_id, who.name, false, who.user_id};
    if (rec_.rated && !(rec_.seats[0].user_id && rec_.seats[1].user_id)) {
        rec_.rated = false;  // rated only between two signed-in players
    }
    rec_.status = "playing";
    rec_.invite_hash.clear();
    turn_started_ms_ = svc_.clock.now_ms();
    subscribe(peer, who);
    const GameRecord h = next_header();
    commit(Json{{"kind", "start"}, {"joined", color_name(free)}},
           [h](Store& s) { s.update_game(h); });
    start();
}

void Room::handle(const ClientMessage& m, const Identity& who, const std::shared_ptr<Peer>& peer) {
    if (closed_) {
        send_error(peer, "shutting_down", "the server is shutting down", m.id);
        return;
    }
    const auto mine = owned_color(who);
    if (!mine) {
        send_error(peer, "not_your_game", "you are not a player of game " + id_, m.id);
        return;
    }
    subscribe(peer, who);
    const bool hotseat = rec_.mode == "hotseat";
    // In hot-seat one player holds both seats: they act for the side to move.
    const core::Color me = hotseat ? game_.side_to_move() : *mine;
    switch (m.type) {
    case MessageType::Move:
        on_move(m, who, peer);
        return;
    case MessageType::Undo:
        on_undo(m, who, peer);
        return;
    case MessageType::Rematch:
        on_rematch(m, who, peer);
        return;
    case MessageType::Resign:
    case MessageType::DrawOffer:
    case MessageType::DrawAccept:
    case MessageType::DrawDecline:
    case MessageType::DrawClaim:
        break;
    case MessageType::Hello:
    case MessageType::Create:
    case MessageType::Join:
    case MessageType::Resume:
    case MessageType::Seek:
    case MessageType::CancelSeek:
        send_error(peer, "bad_message", "not a game command", m.id);
        return;
    }
    if (rec_.status == "waiting") {
        send_error(peer, "not_started", "the game has not started: waiting for the opponent", m.id);
        return;
    }
    if (game_.is_over()) {
        send_error(peer, "game_over", "the game is over: " + game_.result_text(), m.id);
        return;
    }
    switch (m.type) {
    case MessageType::Resign: {
        auto r = game_.resign(me);
        if (!r) {
            send_error(peer, "refused", r.error(), m.id);
            return;
        }
        apply_ending("resign", me, *r);
        return;
    }
    case MessageType::DrawOffer: {
        if (draw_offer_ == me) {
            send_error(peer, "already_offered", "you have already offered a draw", m.id);
            return;
        }
        if (draw_offer_ == core::opposite(me)) {
            auto r = game_.agree_draw();
            if (r) {
                apply_ending("draw_agreed", me, *r);
            }
            return;
        }
        if (is_computer(core::opposite(me))) {
            commit(Json{{"kind", "draw_decline"}, {"by", color_name(core::opposite(me))}},
                   [](Store&) {});
            return;
        }
        draw_offer_        = me;
        const GameRecord h = next_header();
        commit(Json{{"kind", "draw_offer"}, {"by", color_name(me)}},
               [h](Store& s) { s.update_game(h); });
        return;
    }
    case MessageType::DrawAccept: {
        const core::Color other = hotseat ? core::opposite(draw_offer_.value_or(me)) : me;
        if (!draw_offer_ || *draw_offer_ == other) {
            send_error(peer, "no_draw_offer", "there is no draw offer to accept", m.id);
            return;
        }
        auto r = game_.agree_draw();
        if (!r) {
            send_error(peer, "refused", r.error(), m.id);
            return;
        }
        apply_ending("draw_agreed", other, *r);
        return;
    }
    case MessageType::DrawDecline: {
        const core::Color other = hotseat ? core::opposite(draw_offer_.value_or(me)) : me;
        if (!draw_offer_ || *draw_offer_ == other) {
            send_error(peer, "no_draw_offer", "there is no draw offer to decline", m.id);
            return;
        }
        draw_offer_        = std::nullopt;
        const GameRecord h = next_header();
        commit(Json{{"kind", "draw_decline"}, {"by", color_name(other)}},
               [h](Store& s) { s.update_game(h); });
        return;
    }
    case MessageType::DrawClaim: {
        if (!game_.claimable_draw()) {
            send_error(peer, "no_claim", "no draw can be claimed in this position", m.id);
            return;
        }
        if (game_.side_to_move() != me) {
            send_error(peer, "not_your_turn", "a draw is claimed on your turn", m.id);
            return;
        }
        auto r = game_.claim_draw(me);
        if (!r) {
            send_error(peer, "no_claim", r.error(), m.id);
            return;
        }
        apply_ending("draw_claimed", me, *r);
        return;
    }
    case MessageType::Hello:
    case MessageType::Create:
    case MessageType::Join:
    case MessageType::Resume:
    case MessageType::Move:
    case MessageType::Undo:
    case MessageType::Rematch:
    case MessageType::Seek:
    case MessageType::CancelSeek:
        break;
    }
}

void Room::on_move(const ClientMessage& m, const Identity& who, const std::shared_ptr<Peer>& peer) {
    if (rec_.status == "waiting") {
        send_error(peer, "not_started", "the game has not started: waiting for the opponent", m.id);
        return;
    }
    if (!m.ply) {
        send_error(peer, "bad_message", "a move needs the ply it is played on ('ply')", m.id);
        return;
    }
    const int ply = *m.ply;
    const auto v  = game_.variant();
    if (ply < game_.ply()) {
        // A resend of a move already applied gets the current state; anything else is stale.
        const auto idx     = static_cast<std::size_t>(ply);
        const auto& done   = game_.moves()[idx];
        const auto& before = game_.positions()[idx];
        bool same          = false;
        if (!m.path.empty()) {
            same = core::path_squares(v, done) == m.path ||
                   (m.path.size() == 2 && m.path.front() == core::path_squares(v, done).front() &&
                    m.path.back() == core::path_squares(v, done).back());
        } else if (m.from && m.to) {
            const auto p = core::path_squares(v, done);
            same         = p.front() == *m.from && p.back() == *m.to;
        } else if (!m.text.empty()) {
            auto parsed = core::parse_move(before, m.text, game_.movegen_options());
            same        = parsed && parsed->same_as(done);
        }
        if (same && owns(who, before.side)) {
            reply_after_store(peer, state_message(m.id));
            return;
        }
        send_error(peer,
                   "stale_ply",
                   "ply " + std::to_string(ply) + " was already played; the game is at ply " +
                       std::to_string(game_.ply()),
                   m.id);
        return;
    }
    if (game_.is_over()) {
        send_error(peer, "game_over", "the game is over: " + game_.result_text(), m.id);
        return;
    }
    if (ply > game_.ply()) {
        send_error(peer,
                   "bad_ply",
                   "ply " + std::to_string(ply) + " is ahead of the game (at ply " +
                       std::to_string(game_.ply()) + ")",
                   m.id);
        return;
    }
    const auto side = game_.side_to_move();
    if (!owns(who, side)) {
        send_error(peer, "not_your_turn", "it is " + color_name(side) + "'s turn", m.id);
        return;
    }
    const auto& pos = game_.position();
    std::optional<core::Move> found;
    std::string described;
    if (!m.path.empty()) {
        described = "path";
        for (int sq : m.path) {
            described += " " + std::to_string(sq);
        }
        if (m.path.size() >= 2) {
            std::optional<core::Move> partial;
            int partial_count = 0;
            for (const auto& mv : game_.legal_moves()) {
                const auto p = core::path_squares(v, mv);
                if (p == m.path) {
                    found = mv;
                    break;
                }
                if (p.front() == m.path.front() && p.back() == m.path.back()) {
                    partial = mv;
                    ++partial_count;
                }
            }
            if (!found && partial_count == 1) {
                found = partial;
            }
        }
    } else if (m.from && m.to) {
        described = std::to_string(*m.from) + "-" + std::to_string(*m.to);
        auto r    = core::find_move(pos, *m.from, *m.to, m.captures, game_.movegen_options());
        if (r) {
            found = *r;
        } else if (m.captures.empty()) {
            std::optional<core::Move> only;
            int count = 0;
            for (const auto& mv : game_.legal_moves()) {
                const auto p = core::path_squares(v, mv);
                if (p.front() == *m.from && p.back() == *m.to) {
                    only = mv;
                    ++count;
                }
            }
            if (count == 1) {
                found = only;
            }
        }
    } else if (!m.text.empty()) {
        described = "'" + m.text + "'";
        auto r    = core::parse_move(pos, m.text, game_.movegen_options());
        if (r) {
            found = *r;
        }
    } else {
        send_error(peer, "bad_message", "a move needs 'path', 'from' and 'to', or 'text'", m.id);
        return;
    }
    if (!found || !game_.find_legal(*found)) {
        std::string hint;
        if (game_.options().forced_capture && core::has_capture(pos)) {
            hint = " (a capture is compulsory)";
        }
        send_error(peer, "illegal_move", described + " is not a legal move here" + hint, m.id);
        return;
    }
    if (tc_.enabled() && !clock_after_move(tc_,
                                           clocks_[static_cast<std::size_t>(core::index(side))],
                                           elapsed_ms())) {
        check_flag();
        send_error(peer, "out_of_time", "your time ran out before the move arrived", m.id);
        return;
    }
    apply_move(*found, false);
    (void)peer;
}

void Room::apply_move(const core::Move& mv, bool by_computer) {
    const auto side   = game_.side_to_move();
    const auto before = game_.position();
    const auto now    = svc_.clock.now_ms();
    if (tc_.enabled()) {
        auto& pc = clocks_[static_cast<std::size_t>(core::index(side))];
        pc       = clock_after_move(tc_, pc, now - turn_started_ms_).value_or(PlayerClock{});
    }
    const std::string text = core::move_text(before, mv, game_.legal_moves());
    const std::string full = core::move_text_full(before, mv);
    auto r                 = game_.play(mv);
    if (!r) {
        log_line("room " + id_, "internal: a checked move failed: " + r.error());
        return;
    }
    move_times_.push_back(now);
    turn_started_ms_ = now;
    draw_offer_      = std::nullopt;
    update_status();
    const int ply      = game_.ply() - 1;
    const GameRecord h = next_header();
    const MoveRecord mr{ply, full, now};
    std::function<void(Store&)> op = [h, mr](Store& s) { s.append_move(h, mr); };
    if (game_.is_over()) {
        finish_ops(op);
    }
    commit(Json{{"kind", "move"},
                {"computer", by_computer},
                {"move",
                 {{"ply", ply},
                  {"color", color_name(side)},
                  {"text", text},
                  {"path", core::path_squares(game_.variant(), mv)},
                  {"captures", core::captured_squares(game_.variant(), mv)}}}},
           std::move(op));
    if (!game_.is_over()) {
        arm_timer();
        schedule_ai();
    }
}

void Room::apply_ending(const std::string& kind, core::Color by, const core::GameResult& r) {
    (void)r;
    if (tc_.enabled() && kind != "flag") {
        auto& pc         = clocks_[static_cast<std::size_t>(core::index(game_.side_to_move()))];
        pc               = clock_after_move(tc_, pc, elapsed_ms()).value_or(PlayerClock{});
        turn_started_ms_ = svc_.clock.now_ms();
    }
    draw_offer_ = std::nullopt;
    ++ai_epoch_;
    update_status();
    const GameRecord h             = next_header();
    std::function<void(Store&)> op = [h](Store& s) { s.update_game(h); };
    finish_ops(op);
    commit(Json{{"kind", kind}, {"by", color_name(by)}}, std::move(op));
}

void Room::finish_ops(std::function<void(Store&)>& op) {
    // Ratings (rated games between two accounts) and reward points, in the same transaction.
    const auto& r   = game_.result();
    const int plies = game_.ply();

    struct Seat {
        std::string player_id;
        std::optional<std::int64_t> user_id;
        bool computer;
        double score;
    };

    std::array<Seat, 2> seats;
    for (int c = 0; c < 2; ++c) {
        const auto& s                      = rec_.seats[static_cast<std::size_t>(c)];
        const auto col                     = static_cast<core::Color>(c);
        const double score                 = r.outcome == core::Outcome::Draw ? 0.5
                                             : core::winner(r.outcome) == col ? 1.0
                                                                              : 0.0;
        seats[static_cast<std::size_t>(c)] = Seat{s.player_id, s.user_id, s.computer, score};
    }
    const bool rated = rec_.rated && seats[0].user_id && seats[1].user_id && !seats[0].computer &&
                       !seats[1].computer;
    const std::string variant = rec_.variant;
    const std::string mode    = rec_.mode;
    const std::string day     = utc_day(svc_.clock.now_ms());
    const int cap             = svc_.options.reward_daily_cap;
    op = [prev = std::move(op), seats, rated, variant, mode, day, cap, plies](Store& s) {
        s.transaction([&] {
            prev(s);
            if (rated) {
                auto a              = s.rating(*seats[0].user_id, variant);
                auto b              = s.rating(*seats[1].user_id, variant);
                const auto [na, nb] = elo_update(a.rating, b.rating, seats[0].score);
                a.rating            = na;
                b.rating            = nb;
                ++a.games;
                ++b.games;
                s.set_rating(a);
                s.set_rating(b);
            }
            if (plies < 16 || mode == "hotseat") {
                return;
            }
            const bool vs_computer = seats[0].computer || seats[1].computer;
            for (const auto& seat : seats) {
                if (seat.computer || seat.player_id.empty()) {
                    continue;
                }
                int points = 0;
                if (vs_computer) {
                    points = seat.score == 1.0 ? 6 : 0;
                } else {
                    points = seat.score == 1.0 ? 15 : seat.score == 0.5 ? 8 : 5;
                }
                if (points > 0) {
                    (void)s.add_reward(seat.player_id, day, points, cap);
                }
            }
        });
    };
}

void Room::on_undo(const ClientMessage& m, const Identity& who, const std::shared_ptr<Peer>& peer) {
    if (rec_.mode != "computer") {
        send_error(peer, "undo_not_allowed", "undo is allowed only against the computer", m.id);
        return;
    }
    const auto human = *owned_color(who);
    if (game_.is_over()) {
        const auto reason = game_.result().reason;
        if (reason == core::Reason::Resignation || reason == core::Reason::Agreement) {
            send_error(peer, "game_over", "the game is over: " + game_.result_text(), m.id);
            return;
        }
    }
    // Take back the computer's reply (if it has moved) and the player's last move.
    int plies             = game_.side_to_move() == human ? 2 : 1;
    const auto start_side = game_.start_position().side;
    if (game_.ply() < plies || (plies == 2 && game_.ply() == 2 && start_side != human) ||
        (plies == 1 && game_.ply() == 1 && start_side != human)) {
        send_error(peer, "nothing_to_undo", "you have no move to take back", m.id);
        return;
    }
    for (int i = 0; i < plies; ++i) {
        (void)game_.undo();
        move_times_.pop_back();
    }
    ++ai_epoch_;
    ai_thinking_ = false;
    draw_offer_  = std::nullopt;
    update_status();
    const GameRecord h = next_header();
    const int from     = game_.ply();
    commit(Json{{"kind", "undo"}, {"plies", plies}},
           [h, from](Store& s) { s.truncate_moves(h, from); });
    schedule_ai();
}

void Room::on_rematch(const ClientMessage& m,
                      const Identity& who,
                      const std::shared_ptr<Peer>& peer) {
    if (!game_.is_over()) {
        send_error(peer, "game_not_over", "a rematch can be asked once the game is over", m.id);
        return;
    }
    if (!rematch_game_.empty()) {
        reply_after_store(peer, state_message(m.id));
        return;
    }
    const auto mine                                              = *owned_color(who);
    rematch_wanted_[static_cast<std::size_t>(core::index(mine))] = true;
    const auto other                                             = core::opposite(mine);
    const bool both = rec_.mode == "hotseat" || is_computer(other) || owns(who, other) ||
                      rematch_wanted_[static_cast<std::size_t>(core::index(other))];
    if (!both) {
        commit(Json{{"kind", "rematch_offer"}, {"by", color_name(mine)}}, [](Store&) {});
        return;
    }
    GameRecord next;
    next.id             = "";  // the lobby assigns
    next.variant        = rec_.variant;
    next.mode           = rec_.mode;
    next.level          = rec_.level;
    next.forced_capture = rec_.forced_capture;
    next.draw_rules     = rec_.draw_rules;
    next.start_fen      = rec_.start_fen;
    next.seats          = {rec_.seats[1], rec_.seats[0]};  // colours swap
    next.time_control   = rec_.time_control;
    next.status         = "playing";
    next.rated          = rec_.rated;
    next.rematch_of     = id_;
    std::vector<std::pair<std::shared_ptr<Peer>, Identity>> peers;
    for (const auto& s : subscribers_) {
        if (auto p = s.peer.lock()) {
            Identity i;
            i.player_id = s.player_id;
            peers.emplace_back(std::move(p), std::move(i));
        }
    }
    auto self = shared_from_this();
    svc_.lobby->post(
        [lobby = svc_.lobby, self, next = std::move(next), peers = std::move(peers)]() mutable {
            const std::string new_id = lobby->add_rematch(std::move(next), peers);
            self->post([self, new_id] {
                self->rematch_game_ = new_id;
                self->commit(Json{{"kind", "rematch"}, {"game", new_id}}, [](Store&) {});
            });
        });
}

void Room::arm_timer() {
    if (!clock_running()) {
        timer_.cancel();
        return;
    }
    const auto& pc  = clocks_[static_cast<std::size_t>(core::index(game_.side_to_move()))];
    const auto left = std::max<std::int64_t>(0, time_to_flag(tc_, pc) - elapsed_ms());
    timer_.expires_after(std::chrono::milliseconds(left + 5));
    std::weak_ptr<Room> weak = shared_from_this();
    timer_.async_wait([weak](const boost::system::error_code& ec) {
        if (ec) {
            return;
        }
        if (auto self = weak.lock()) {
            self->check_flag();
        }
    });
}

void Room::check_flag() {
    if (!clock_running() || closed_) {
        return;
    }
    const auto side = game_.side_to_move();
    const auto& pc  = clocks_[static_cast<std::size_t>(core::index(side))];
    if (clock_at(tc_, pc, elapsed_ms())) {
        arm_timer();  // woke early
        return;
    }
    clocks_[static_cast<std::size_t>(core::index(side))] = PlayerClock{0, 0};
    auto r                                               = game_.flag(side);
    if (!r) {
        return;
    }
    apply_ending("flag", side, *r);
}

void Room::schedule_ai() {
    if (closed_ || rec_.status != "playing" || game_.is_over() ||
        !is_computer(game_.side_to_move())) {
        return;
    }
    const auto epoch         = ++ai_epoch_;
    ai_thinking_             = true;
    std::weak_ptr<Room> weak = shared_from_this();
    std::string level        = rec_.level.empty() ? "normal" : rec_.level;
    svc_.ai.think(game_, std::move(level), [weak, epoch](std::optional<core::Move> mv) {
        if (auto self = weak.lock()) {
            self->post([self, epoch, mv] { self->on_ai_move(epoch, mv); });
        }
    });
}

void Room::on_ai_move(std::uint64_t epoch, std::optional<core::Move> mv) {
    if (epoch != ai_epoch_ || closed_ || game_.is_over() || !is_computer(game_.side_to_move())) {
        return;
    }
    ai_thinking_ = false;
    if (!mv || !game_.find_legal(*mv)) {
        log_line("room " + id_, "the computer returned no legal move; using the quick player");
        mv = quick_move(game_, svc_.seed);
        if (!mv) {
            return;
        }
    }
    apply_move(*game_.find_legal(*mv), true);
}

}  // namespace papan::server
