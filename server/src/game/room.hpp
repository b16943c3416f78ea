// GameRoom: one live game, on its own strand (a single writer; no locks). It applies commands
// in order through core::Game, runs the clocks with timers on the strand, asks the AI pool for
// the computer's moves, persists every change through the store executor and, once the change
// is stored, sends it as a versioned event to the subscribed peers (write, then acknowledge).
//
// Every public member except id() and post() must be called on the strand (use post()).
#pragma once

#include "game/peer.hpp"
#include "game/services.hpp"

#include <papan/core/game.hpp>
#include <papan/server/protocol.hpp>
#include <papan/server/store.hpp>
#include <papan/server/time_control.hpp>

#include <boost/asio/steady_timer.hpp>
#include <nlohmann/json.hpp>

#include <array>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace papan::server {

class Room : public std::enable_shared_from_this<Room> {
public:
    // Builds a room from a record (a new game or one read back from the store): replays the
    // moves and the recorded ending. Error when the record does not make a valid game.
    static core::Expected<std::shared_ptr<Room>> from_record(Services& services, GameRecord rec);

    Room(Services& services, GameRecord rec, core::Game game);

    [[nodiscard]] const std::string& id() const noexcept { return id_; }

    void post(std::function<void()> fn);

    // On the strand: arm the clock timer and start the computer if it is to move.
    void start();
    // On the strand: persists a new room's record, then subscribes the peers and sends them the
    // state (after `first` for the first of them: e.g. the "created" message).
    void create_and_announce(std::vector<std::pair<std::shared_ptr<Peer>, Identity>> peers,
                             std::string first);
    // On the strand.
    void handle(const ClientMessage& m, const Identity& who, const std::shared_ptr<Peer>& peer);
    void resume(const std::shared_ptr<Peer>& peer,
                const Identity& who,
                std::optional<std::int64_t> last_version,
                std::optional<std::int64_t> ref);
    // A friend sits down (invite already checked by the lobby).
    void join(const std::shared_ptr<Peer>& peer,
              const Identity& who,
              const std::string& invite_hash,
              std::optional<std::int64_t> ref);
    void shutdown();
    // Sends the stored state to every subscriber (after the bus between nodes lost messages).
    void refresh_subscribers();

    [[nodiscard]] nlohmann::json state_json() const;

private:
    struct Subscriber {
        std::weak_ptr<Peer> peer;
        std::string player_id;
    };

    void send_error(const std::shared_ptr<Peer>& peer,
                    std::string_view code,
                    std::string message,
                    std::optional<std::int64_t> ref) const;
    void subscribe(const std::shared_ptr<Peer>& peer, const Identity& who);
    // Records an event (version + 1), persists with `op`, then broadcasts once stored.
    void commit(nlohmann::json event, std::function<void(Store&)> op);
    // Sends `text` to one peer once every queued store write before it is done.
    void reply_after_store(const std::shared_ptr<Peer>& peer, std::string text);
    [[nodiscard]] std::string state_message(std::optional<std::int64_t> ref) const;

    void on_move(const ClientMessage& m, const Identity& who, const std::shared_ptr<Peer>& peer);
    void on_undo(const ClientMessage& m, const Identity& who, const std::shared_ptr<Peer>& peer);
    void on_rematch(const ClientMessage& m, const Identity& who, const std::shared_ptr<Peer>& peer);
    void apply_move(const core::Move& mv, bool by_computer);
    void apply_ending(const std::string& kind, core::Color by, const core::GameResult& r);
    void finish_ops(std::function<void(Store&)>& op);

    void arm_timer();
    void check_flag();
    void schedule_ai();
    void on_ai_move(std::uint64_t epoch, std::optional<core::Move> mv);

    [[nodiscard]] std::optional<core::Color> owned_color(const Identity& who) const;
    [[nodiscard]] bool owns(const Identity& who, core::Color c) const;
    [[nodiscard]] bool is_computer(core::Color c) const;
    [[nodiscard]] std::int64_t elapsed_ms() const;
    [[nodiscard]] bool clock_running() const;
    [[nodiscard]] GameRecord header() const;
    // The header to store with the change commit() is about to number (its version).
    [[nodiscard]] GameRecord next_header() const;
    void update_status();

    Services& svc_;
    std::string id_;
    Strand strand_;
    net::steady_timer timer_;
    GameRecord rec_;  // header fields (moves are in game_)
    core::Game game_;
    std::vector<std::int64_t> move_times_;
    TimeControl tc_;
    std::array<PlayerClock, 2> clocks_{};
    std::int64_t turn_started_ms_ = 0;
    std::int64_t version_         = 0;
    std::optional<core::Color> draw_offer_;
    std::array<bool, 2> rematch_wanted_{};
    std::string rematch_game_;
    std::uint64_t ai_epoch_ = 0;
    bool ai_thinking_       = false;
    std::deque<std::pair<std::int64_t, std::shared_ptr<const std::string>>> recent_;
    std::vector<Subscriber> subscribers_;
    bool closed_ = false;
};

// JSON of time controls and clocks as stored and sent.
[[nodiscard]] nlohmann::json time_control_json(const TimeControl& tc);
[[nodiscard]] TimeControl time_control_from_json(const nlohmann::json& j);

}  // namespace papan::server
