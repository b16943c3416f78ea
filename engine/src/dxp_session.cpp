// DXP sessions (see dxp.hpp and docs/engine-protocols.md): the initiator and the follower.
//
// One session runs on one connected TCP socket, single-threaded: when it is our turn the engine
// searches (the peer's messages wait in the socket buffer), otherwise we block reading the next
// NUL-terminated message. A malformed message, an illegal move or a message that breaks the
// order of the protocol is reported on the error stream and closes the connection.
#include "dxp_socket.hpp"

#include <papan/core/game.hpp>
#include <papan/core/notation/fen.hpp>
#include <papan/core/notation/move_text.hpp>
#include <papan/core/notation/squares.hpp>
#include <papan/engine/dxp.hpp>
#include <papan/engine/engine.hpp>
#include <papan/engine/hub.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <optional>
#include <ostream>

namespace papan::engine {

namespace {

using Connection = detail::DxpConnection;
using detail::accept_connection;
using detail::close_socket;
using detail::open_connection;
using detail::open_listener;
using detail::port_of;

class Session {
public:
    enum class End : std::uint8_t {
        Finished,  // no more games wanted (by us or by the peer)
        Closed,    // the peer closed the connection
        Failed,    // protocol error, timeout or socket error
    };

    Session(Connection& c,
            const DxpOptions& o,
            Engine& e,
            std::ostream& out,
            std::ostream& err,
            int& games_done)
        : conn_(c)
        , opts_(o)
        , engine_(e)
        , out_(out)
        , err_(err)
        , games_done_(games_done) {}

    End run() {
        for (;;) {
            if (playing_ && !awaiting_end_ && game_->side_to_move() == us_) {
                if (game_->is_over()) {
                    if (!initiate_end()) {
                        return End::Failed;
                    }
                    continue;
                }
                if (!play_our_move()) {
                    return End::Failed;
                }
                continue;
            }
            if (opts_.initiator && !playing_ && !awaiting_accept_) {
                if (stop_ || games_done_ >= opts_.games) {
                    return End::Finished;
                }
                if (!send_request()) {
                    return End::Failed;
                }
            }
            const bool peer_should_end = playing_ && !awaiting_end_ && game_->is_over();
            const double timeout =
                awaiting_accept_ || awaiting_end_ || peer_should_end ? opts_.reply_timeout : -1;
            std::string text;
            std::string error;
            switch (conn_.receive(text, timeout, error)) {
            case Connection::Status::Message:
                break;
            case Connection::Status::Closed:
                if (playing_ || awaiting_accept_ || awaiting_end_) {
                    err_ << "dxp: error: the peer closed the connection during a game\n";
                    return End::Closed;
                }
                return stop_ ? End::Finished : End::Closed;
            case Connection::Status::Timeout:
                if (peer_should_end) {
                    // The peer does not end the game our rules ended: we do.
                    if (!initiate_end()) {
                        return End::Failed;
                    }
                    continue;
                }
                err_ << "dxp: error: no answer from the peer within " << opts_.reply_timeout
                     << " s\n";
                return End::Failed;
            case Connection::Status::Error:
                err_ << "dxp: error: " << error << '\n';
                return End::Failed;
            }
            auto message = parse_dxp(text);
            if (!message) {
                err_ << "dxp: error: " << message.error() << "; closing the connection\n";
                return End::Failed;
            }
            const std::optional<End> end = std::visit(
                [this](const auto& m) -> std::optional<End> { return handle(m); }, *message);
            if (end) {
                return *end;
            }
            if (stop_ && !playing_ && !awaiting_end_ && !opts_.initiator) {
                return End::Finished;
            }
        }
    }

private:
    bool send(const DxpMessage& m) {
        std::string error;
        if (!conn_.send(encode_dxp(m), error)) {
            err_ << "dxp: error: " << error << '\n';
            return false;
        }
        return true;
    }

    [[nodiscard]] std::string colour_name(core::Color c) const {
        return c == core::Color::White ? "White" : "Black";
    }

    // Would we rather stop after the current game?
    [[nodiscard]] bool last_game() const {
        return opts_.games > 0 && games_done_ + 1 >= opts_.games;
    }

    void start_game(const core::Game& g, core::Color us, int minutes, int moves) {
        game_.emplace(g);
        us_           = us;
        minutes_      = minutes;
        moves_        = moves;
        used_         = 0;
        playing_      = true;
        awaiting_end_ = false;
        engine_.new_game();
        out_ << "dxp: game " << games_done_ + 1 << ": " << opts_.name << " (" << colour_name(us_)
             << ") vs " << (peer_name_.empty() ? "?" : peer_name_) << ", "
             << core::rules(g.variant()).key << ", " << minutes_ << " min / " << moves_ << " moves"
             << std::endl;
    }

    void finish_game(const std::string& how) {
        playing_      = false;
        awaiting_end_ = false;
        ++games_done_;
        out_ << "dxp: game " << games_done_ << " over (" << how
             << "): " << (game_ ? game_->result_text() : std::string("no game")) << std::endl;
        if (opts_.games > 0 && games_done_ >= opts_.games) {
            stop_ = true;
        }
    }

    bool send_request() {
        const core::Color our = games_done_ % 2 == 0 ? core::Color::White : core::Color::Black;
        core::Position start  = core::start_position(opts_.variant);
        if (!opts_.fen.empty()) {
            auto p = core::parse_fen(opts_.variant, opts_.fen);
            if (!p) {
                err_ << "dxp: error: bad --fen: " << p.error() << '\n';
                return false;
            }
            start = *p;
        }
        DxpGameRequest r;
        r.version        = 1;
        r.initiator_name = opts_.name;
        r.follower_color = core::opposite(our);
        r.minutes        = opts_.minutes;
        r.moves          = opts_.moves;
        if (!(start == core::start_position(opts_.variant))) {
            r.custom_start = true;
            r.to_move      = start.side;
            r.position     = dxp_squares(start);
        }
        auto g = core::Game::create(start);
        if (!g) {
            err_ << "dxp: error: " << g.error() << '\n';
            return false;
        }
        pending_.emplace(std::move(g).value());
        pending_us_      = our;
        awaiting_accept_ = true;
        return send(DxpMessage{r});
    }

    bool initiate_end() {
        char reason                 = '0';
        const core::GameResult& res = game_->result();
        if (res.outcome == core::Outcome::Draw) {
            reason = '2';
        } else if (const auto w = core::winner(res.outcome)) {
            reason = *w == us_ ? '3' : '1';
        }
        awaiting_end_ = true;
        return send(DxpMessage{DxpGameEnd{reason, last_game() ? '1' : '0'}});
    }

    SearchLimits limits() const {
        SearchLimits l;
        if (opts_.depth > 0 || opts_.nodes > 0 || opts_.move_time > 0) {
            l.depth     = opts_.depth;
            l.nodes     = opts_.nodes;
            l.move_time = opts_.move_time;
            return l;
        }
        if (minutes_ <= 0) {
            l.move_time = 1.0;
            return l;
        }
        int our_moves = 0;
        for (std::size_t i = 0; i + 1 < game_->positions().size(); ++i) {
            our_moves += game_->positions()[i].side == us_ ? 1 : 0;
        }
        // `moves` moves in `minutes`, repeated; with no move count, plan for 30 more moves.
        const double period = minutes_ * 60.0;
        double available    = period - used_;
        int moves_left      = 30;
        if (moves_ > 0) {
            available  = period * (our_moves / moves_ + 1) - used_;
            moves_left = moves_ - our_moves % moves_;
        }
        l.move_time = std::clamp(0.9 * available / moves_left, 0.02, std::max(0.02, available / 2));
        return l;
    }

    bool play_our_move() {
        const auto start = std::chrono::steady_clock::now();
        std::optional<core::Move> best;
        try {
            best = engine_.search(*game_, limits(), opts_.level).best;
        } catch (const std::exception& ex) {
            err_ << "dxp: error: search failed: " << ex.what() << '\n';
        }
        const double seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        used_ += seconds;
        std::optional<core::Move> move = best ? game_->find_legal(*best) : std::nullopt;
        if (!move) {
            err_ << "dxp: error: the engine gave no legal move; playing the first legal one\n";
            move = game_->legal_moves()[0];
        }
        const core::VariantId v = game_->variant();
        DxpMove m;
        m.seconds              = static_cast<int>(std::lround(seconds));
        m.from                 = core::square_of_bit(v, move->from);
        m.to                   = core::square_of_bit(v, move->to);
        m.captured             = core::captured_squares(v, *move);
        const std::string text = core::move_text(game_->position(), *move, game_->legal_moves());
        if (!send(DxpMessage{m})) {
            return false;
        }
        const auto played = game_->play(*move);
        if (!played) {
            err_ << "dxp: error: " << played.error() << '\n';
            return false;
        }
        out_ << "dxp: " << opts_.name << " plays " << text << std::endl;
        return true;
    }

    std::optional<End> handle(const DxpGameRequest& r) {
        if (opts_.initiator) {
            err_ << "dxp: ignoring a GAMEREQ: we are the initiator\n";
            return std::nullopt;
        }
        if (playing_ && awaiting_end_) {
            finish_game("a new GAMEREQ instead of the GAMEEND reply");
        } else if (playing_) {
            err_ << "dxp: a new GAMEREQ abandons the game in progress\n";
            playing_ = false;
        }
        peer_name_         = r.initiator_name;
        const auto decline = [&](char code, const std::string& why) -> std::optional<End> {
            err_ << "dxp: declining a game (code " << code << "): " << why << '\n';
            if (!send(DxpMessage{DxpGameAccept{opts_.name, code}})) {
                return End::Failed;
            }
            return std::nullopt;
        };
        if (r.version != 1) {
            return decline('1', "version " + std::to_string(r.version));
        }
        core::Position start = core::start_position(opts_.variant);
        if (r.custom_start) {
            auto p = parse_dxp_position(opts_.variant, r.to_move, r.position);
            if (!p) {
                return decline('2', p.error());
            }
            start = *p;
        }
        auto g = core::Game::create(start);
        if (!g) {
            return decline('2', g.error());
        }
        if (g->is_over()) {
            return decline('2', "the position is already decided");
        }
        if (!send(DxpMessage{DxpGameAccept{opts_.name, '0'}})) {
            return End::Failed;
        }
        start_game(*g, r.follower_color, r.minutes, r.moves);
        return std::nullopt;
    }

    std::optional<End> handle(const DxpGameAccept& a) {
        if (!awaiting_accept_) {
            err_ << "dxp: ignoring an unexpected GAMEACC\n";
            return std::nullopt;
        }
        awaiting_accept_ = false;
        peer_name_       = a.follower_name;
        if (a.code != '0') {
            err_ << "dxp: error: " << (peer_name_.empty() ? "the peer" : peer_name_)
                 << " declined the game (code " << a.code << ")\n";
            return End::Failed;
        }
        start_game(*pending_, pending_us_, opts_.minutes, opts_.moves);
        return std::nullopt;
    }

    std::optional<End> handle(const DxpMove& m) {
        if (!playing_ || awaiting_end_) {
            err_ << "dxp: error: a MOVE outside a game\n";
            return End::Failed;
        }
        if (game_->is_over()) {
            // Our rules ended the game (a draw rule the peer may not know): end it.
            return initiate_end() ? std::nullopt : std::optional<End>(End::Failed);
        }
        if (game_->side_to_move() == us_) {
            err_ << "dxp: error: a MOVE while it is our turn\n";
            return End::Failed;
        }
        const auto move =
            core::find_move(game_->position(), m.from, m.to, m.captured, game_->movegen_options());
        if (!move) {
            err_ << "dxp: error: illegal move from the peer (" << m.from << "-" << m.to << ", "
                 << m.captured.size() << " captured): " << move.error() << '\n';
            return End::Failed;
        }
        const std::string text = core::move_text(game_->position(), *move, game_->legal_moves());
        const auto played      = game_->play(*move);
        if (!played) {
            err_ << "dxp: error: " << played.error() << '\n';
            return End::Failed;
        }
        out_ << "dxp: " << (peer_name_.empty() ? "peer" : peer_name_) << " plays " << text
             << std::endl;
        return std::nullopt;
    }

    std::optional<End> handle(const DxpGameEnd& e) {
        if (e.stop == '1') {
            stop_ = true;
        }
        if (awaiting_end_) {
            finish_game("confirmed by the peer");
            return std::nullopt;
        }
        if (playing_) {
            const char stop = stop_ || last_game() ? '1' : '0';
            if (!send(DxpMessage{DxpGameEnd{'0', stop}})) {
                return End::Failed;
            }
            finish_game(std::string("ended by the peer, reason ") + e.reason);
            if (stop == '1') {
                stop_ = true;
            }
            return std::nullopt;
        }
        if (stop_) {
            return End::Finished;
        }
        return std::nullopt;  // a GAMEEND between games: nothing to end
    }

    std::optional<End> handle(const DxpChat& c) {
        out_ << "dxp: chat from " << (peer_name_.empty() ? "peer" : peer_name_) << ": " << c.text
             << std::endl;
        return std::nullopt;
    }

    std::optional<End> handle(const DxpBackRequest& b) {
        // Take back to the position where move `move_number` is to be played by `to_move`.
        char code = '2';
        if (playing_ && !awaiting_end_ && b.move_number >= 1) {
            const core::Color first = game_->start_position().side;
            const int ply           = (b.move_number - 1) * 2 + (b.to_move == first ? 0 : 1);
            if (ply <= game_->ply()) {
                while (game_->ply() > ply) {
                    (void)game_->undo();
                }
                code = '0';
                out_ << "dxp: took back to move " << b.move_number << " (" << colour_name(b.to_move)
                     << " to move)" << std::endl;
            }
        }
        return send(DxpMessage{DxpBackAccept{code}}) ? std::nullopt
                                                     : std::optional<End>(End::Failed);
    }

    std::optional<End> handle(const DxpBackAccept& /*k*/) {
        return std::nullopt;  // we never send BACKREQ
    }

    Connection& conn_;
    const DxpOptions& opts_;
    Engine& engine_;
    std::ostream& out_;
    std::ostream& err_;
    int& games_done_;

    std::optional<core::Game> game_;
    std::optional<core::Game> pending_;  // the game of a GAMEREQ awaiting GAMEACC
    core::Color pending_us_ = core::Color::White;
    core::Color us_         = core::Color::White;
    std::string peer_name_;
    int minutes_          = 0;
    int moves_            = 0;
    double used_          = 0;
    bool playing_         = false;
    bool awaiting_accept_ = false;
    bool awaiting_end_    = false;
    bool stop_            = false;
};

EngineOptions engine_options(const DxpOptions& o) {
    EngineOptions e;
    e.hash_mb = o.hash_mb;
    e.seed    = o.seed;
    e.threads = o.threads;
    return e;
}

}  // namespace

int run_dxp_initiator(const DxpOptions& options, std::ostream& out, std::ostream& err) {
    const std::string host = options.host.empty() ? "127.0.0.1" : options.host;
    std::string error;
    const int fd = open_connection(host, options.port, options.connect_timeout, error);
    if (fd < 0) {
        err << "dxp: error: " << error << '\n';
        return 1;
    }
    Connection conn(fd);
    out << "dxp: connected to " << host << ":" << options.port << std::endl;
    Engine engine(engine_options(options));
    int games_done = 0;
    Session session(conn, options, engine, out, err, games_done);
    const Session::End end = session.run();
    out << "dxp: " << games_done << " game(s) played" << std::endl;
    return end == Session::End::Finished ? 0 : 1;
}

int run_dxp_follower(const DxpOptions& options, std::ostream& out, std::ostream& err) {
    const std::string host = options.host.empty() ? "0.0.0.0" : options.host;
    std::string error;
    const int listener = open_listener(host, options.port, error);
    if (listener < 0) {
        err << "dxp: error: " << error << '\n';
        return 1;
    }
    out << "dxp: listening on " << host << ":" << port_of(listener) << std::endl;
    Engine engine(engine_options(options));
    int games_done = 0;
    int rc         = 0;
    while (options.games <= 0 || games_done < options.games) {
        const int fd = accept_connection(listener, error);
        if (fd < 0) {
            err << "dxp: error: " << error << '\n';
            rc = 1;
            break;
        }
        Connection conn(fd);
        out << "dxp: connection accepted" << std::endl;
        Session session(conn, options, engine, out, err, games_done);
        (void)session.run();
        out << "dxp: connection closed" << std::endl;
    }
    close_socket(listener);
    return rc;
}

}  // namespace papan::engine
