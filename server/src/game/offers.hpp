// The offers a game keeps in memory only (docs/protocol.md, "Commands"; a restart forgets
// them): a draw offer, a takeback request and the rematch wishes. Small values with their rules.
#pragma once

#include <papan/core/game.hpp>

#include <array>
#include <optional>
#include <string>

namespace papan::server {

// A standing draw offer: by whom, until the opponent answers or a move is made.
class DrawOffer {
public:
    enum class Offered : std::uint8_t {
        Made,            // the offer stands now
        AlreadyOffered,  // `by` had offered already
        Agreed,          // the other side's offer stood: a draw by agreement
    };

    [[nodiscard]] std::optional<core::Color> by() const noexcept { return by_; }

    Offered offer(core::Color by) {
        if (by_ == by) {
            return Offered::AlreadyOffered;
        }
        if (by_) {
            return Offered::Agreed;
        }
        by_ = by;
        return Offered::Made;
    }

    // Whether `side` may answer (accept or decline): the other side's offer stands.
    [[nodiscard]] bool answerable_by(core::Color side) const noexcept {
        return by_.has_value() && *by_ != side;
    }

    void clear() noexcept { by_.reset(); }

    friend bool operator==(const DrawOffer&, const DrawOffer&) = default;

private:
    std::optional<core::Color> by_;
};

// A takeback request between people: the side asking to take back its last move (and the reply
// since, if the opponent has answered it). One at a time.
class TakebackRequest {
public:
    [[nodiscard]] std::optional<core::Color> asker() const noexcept { return asker_; }

    void ask(core::Color by) noexcept { asker_ = by; }

    void clear() noexcept { asker_.reset(); }

    // The plies a takeback asked by `by` would take back now: by's last move and the reply since
    // (if by is to move again); 0 when by has no move to take back.
    [[nodiscard]] static int plies(const core::Game& game, core::Color by) noexcept {
        const int n = game.side_to_move() == by ? 2 : 1;
        return game.ply() >= n ? n : 0;
    }

    friend bool operator==(const TakebackRequest&, const TakebackRequest&) = default;

private:
    std::optional<core::Color> asker_;
};

// The rematch of a finished game: which sides asked for one, and the new game once it exists.
class Rematch {
public:
    [[nodiscard]] bool wanted(core::Color c) const noexcept {
        return wanted_[static_cast<std::size_t>(core::index(c))];
    }

    void want(core::Color c) noexcept { wanted_[static_cast<std::size_t>(core::index(c))] = true; }

    [[nodiscard]] const std::string& game() const noexcept { return game_; }

    void made(std::string game) { game_ = std::move(game); }

    friend bool operator==(const Rematch&, const Rematch&) = default;

private:
    std::array<bool, 2> wanted_{};
    std::string game_;
};

}  // namespace papan::server
