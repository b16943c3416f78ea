// One game slot of the run: a Session plays one game after another on one connection (hot-seat:
// the client plays both sides, the server still checks every move; computer: the client plays
// white against the server's computer player and times its replies) or two (friend: the creator
// and the player who joins by the invite, round robin over the URLs). Its connections, timers and
// game share one strand, so the game's bookkeeping needs no lock. One move in flight per game.
// With --reconnect a dropped connection comes back (backoff, next URL), says hello with the same
// guest secret, resumes the game with the last version it saw and sorts out the move that was in
// flight from the state the server returns.
//
// The member functions live in three files by concern: session.cpp (connections: connect, drop,
// reconnect, close), session_rejoin.cpp (getting a connection back into its game: welcome, join,
// resume) and session_play.cpp (the server's messages and the game: moves, acks, the next game).
#pragma once

#include "asio_types.hpp"
#include "connection.hpp"
#include "game_view.hpp"
#include "run_state.hpp"

#include <papan/loadtest/store_check.hpp>

#include <boost/asio/steady_timer.hpp>

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <vector>

namespace papan::loadtest {

// With --reconnect, errors in a row (on moves, resumes or creates) before a game is given up:
// with the retries' backoff (100 ms doubling to 1 s) that is about half a minute.
inline constexpr int kMaxErrorsInARow = 30;
// With --reconnect, seconds a resume or join may go unanswered before it is sent again.
inline constexpr double kRequestTimeout = 1.0;

enum class Phase {
    Down,
    Connecting,
    Welcoming,
    Ready
};

// One player of a game and its connection.
struct Player {
    explicit Player(const Strand& s) : retry(s), quiet(s), wait(s) {}

    int index       = 0;
    std::size_t url = 0;
    std::shared_ptr<Connection> link;
    Phase phase = Phase::Down;
    net::steady_timer retry;  // the next reconnection, or the next resume after a refused one
    net::steady_timer quiet;  // a resume answered by missed events: done when they stop coming
    net::steady_timer wait;   // a resume or join unanswered for --stall seconds is sent again
    bool retrying           = false;
    std::uint64_t retry_gen = 0;
    int attempt             = 0;  // failed reconnections in a row
    int resume_errors       = 0;  // resumes refused in a row
    std::string name;
    std::string secret;  // the guest secret from the first welcome: the same player again
    std::string player_id;
    bool dropped = false;  // lost its connection; not yet back in its game
    Clock::time_point drop_at;
    bool resyncing            = false;  // resume sent, its answer not complete
    std::int64_t resync_id    = 0;
    bool have_version         = false;
    std::int64_t last_version = 0;  // of the current game, as this connection saw it
    int seen_ply              = 0;  // highest ply of the current game seen on this connection
    Json state;  // the current game's full state on this connection (events carry deltas)
    bool joined          = false;  // friend joiner: seated in the current game
    bool join_pending    = false;
    int join_attempts    = 0;
    std::int64_t join_id = 0;
};

class Session : public std::enable_shared_from_this<Session> {
public:
    Session(RunState& run, int slot, std::function<void()> on_done);

    [[nodiscard]] int connections() const { return static_cast<int>(players_.size()); }

    // The runner has counted this session as active.
    void start();

    // The duration is over: no new moves; close once the move in flight is acknowledged.
    void deadline();

    // The drain time is over: drop the sockets whatever is in flight.
    void force_close();

private:
    // --- connections (session.cpp) ---------------------------------------------------------
    [[nodiscard]] bool current(int pi, const Connection* link) const {
        return players_[static_cast<std::size_t>(pi)]->link.get() == link;
    }

    Player& player(int pi) { return *players_[static_cast<std::size_t>(pi)]; }

    [[nodiscard]] bool friend_mode() const { return players_.size() == 2; }

    void connect(int pi);
    void on_opened(int pi);
    void on_received(int pi, const std::string& text);
    void send(int pi, const Json& j);
    void link_failed(int pi, const std::string& code);
    void schedule_reconnect(int pi);
    void schedule_resume(int pi);
    template <class Then>
    void retry_after(int pi, std::int64_t wait_ms, Then then);
    void cancel_timers();
    void begin_close();
    void check_finished();

    // --- back into the game after a (re)connection (session_rejoin.cpp) ---------------------
    void on_welcome(int pi, const Json& msg);
    void sync(int pi);
    void maybe_join();
    void send_resume(int pi, bool with_version);
    void arm_request_timeout(int pi, std::int64_t id);
    void resumed(int pi);
    void finish_resync(int pi, bool nothing_missed = false);

    // --- messages and the game (session_play.cpp) -------------------------------------------
    void handle(int pi, const Json& msg);
    void on_game_message(int pi, const Json& msg, bool is_event, std::int64_t ref);
    void on_error(int pi, const Json& msg, std::int64_t ref);
    [[nodiscard]] int mover_index() const;
    [[nodiscard]] bool awaiting_opponent() const;
    void progress();
    void send_move(int m);
    void resend();
    void transmit();
    void arm_stall();
    void settle_stored(const std::string& text);
    void ack(const std::string& text);
    void maybe_end_game();
    void end_game(bool finished_by_rules);
    void new_game();
    void store_game();
    void maybe_close();
    void track_computer_reply();
    void settle_computer_reply();

    RunState& run_;
    int slot_;
    std::function<void()> on_done_;
    Strand strand_;
    std::vector<std::unique_ptr<Player>> players_;
    net::steady_timer think_timer_;
    net::steady_timer stall_timer_;
    net::steady_timer end_timer_;
    std::mt19937_64 rng_;
    bool closing_         = false;
    bool done_            = false;
    bool deadline_        = false;
    bool think_armed_     = false;
    bool end_wait_armed_  = false;
    bool end_wait_over_   = false;
    std::int64_t next_id_ = 0;

    // The current game.
    bool in_game_ = false;
    GameCheck game_;
    GameView view_;
    std::string invite_;
    bool awaiting_create_   = false;
    std::int64_t create_id_ = 0;
    std::vector<int> mover_;                    // by ply: the player whose move was acknowledged
    std::array<int, 2> last_acked_by_{-1, -1};  // highest ply acknowledged per player
    int consecutive_errors_ = 0;
    int create_errors_      = 0;
    Clock::time_point next_move_at_;

    // Computer games: the computer's move being waited for.
    bool awaiting_reply_ = false;
    int reply_ply_       = 0;  // the ply of the computer's move
    Clock::time_point reply_from_;
    bool reply_late_ = false;  // a reply of this game took longer than --reply-deadline
    bool replied_    = false;  // the computer has moved in this game

    // The move in flight.
    bool pending_              = false;
    int pending_ply_           = 0;
    int pending_player_        = 0;
    std::int64_t pending_id_   = 0;
    bool pending_crossed_drop_ = false;
    bool resent_after_resumed_ = false;
    Json pending_path_         = Json::array();
    std::string pending_text_;
    Clock::time_point sent_at_;
};

}  // namespace papan::loadtest
