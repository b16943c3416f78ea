// End-to-end tests of `papan dxp`: the real binary runs as a subprocess (subprocess.hpp) and the
// test is the scripted DXP peer on a real TCP socket on 127.0.0.1. The test's own moves are picked
// with the rules core, and every MOVE papan sends is checked legal by the core. Messages are built
// by hand here (not with our codec), so the wire format itself is under test.
#include "subprocess.hpp"

#include <papan/core/game.hpp>
#include <papan/core/notation/fen.hpp>
#include <papan/core/notation/move_text.hpp>
#include <papan/core/notation/squares.hpp>
#include <papan/core/position.hpp>

#include <gtest/gtest.h>

#include <arpa/inet.h>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <netinet/in.h>
#include <optional>
#include <poll.h>
#include <string>
#include <sys/socket.h>
#include <unistd.h>
#include <vector>

namespace {

using namespace std::chrono_literals;
using papan::core::Color;
using papan::core::VariantId;
using papan::test::kTimeout;

// `papan dxp ...` with its stdout on a pipe (progress lines; the follower's first line names its
// port) and stderr inherited.
class DxpProcess : public papan::test::Subprocess {
public:
    explicit DxpProcess(const std::vector<std::string>& args)
        : Subprocess(with_command(args), Stdin::Null) {}

    // The port of a follower started with --port 0 (from "dxp: listening on HOST:PORT").
    int listening_port() {
        const auto l = line();
        if (!l || l->find("listening on") == std::string::npos) {
            ADD_FAILURE() << "no listening line: " << l.value_or("(none)");
            return -1;
        }
        return std::stoi(l->substr(l->rfind(':') + 1));
    }

private:
    static std::vector<std::string> with_command(const std::vector<std::string>& args) {
        std::vector<std::string> all{"dxp"};
        all.insert(all.end(), args.begin(), args.end());
        return all;
    }
};

// One end of a DXP connection: NUL-terminated messages, reads with a timeout.
class Peer {
public:
    explicit Peer(int fd) : fd_(fd) {}

    ~Peer() {
        if (fd_ >= 0) {
            close(fd_);
        }
    }

    Peer(const Peer&)            = delete;
    Peer& operator=(const Peer&) = delete;

    static int connect_to(int port) {
        const int fd = socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in a{};
        a.sin_family      = AF_INET;
        a.sin_port        = htons(static_cast<std::uint16_t>(port));
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        if (connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) {
            ADD_FAILURE() << "connect failed: " << std::strerror(errno);
            close(fd);
            return -1;
        }
        return fd;
    }

    void send(const std::string& message) { send_raw(message + std::string(1, '\0')); }

    void send_raw(const std::string& data) {
        std::size_t done = 0;
        while (done < data.size()) {
            const ssize_t n = ::send(fd_, data.data() + done, data.size() - done, MSG_NOSIGNAL);
            if (n <= 0) {
                ADD_FAILURE() << "send failed";
                return;
            }
            done += static_cast<std::size_t>(n);
        }
    }

    // The next message; nullopt when the peer closed the connection or on timeout (`closed`
    // tells which).
    std::optional<std::string> receive(std::chrono::milliseconds timeout = kTimeout) {
        return messages_.next(fd_, timeout);
    }

    [[nodiscard]] bool closed() const { return messages_.closed(); }

private:
    int fd_ = -1;
    papan::test::MessageReader messages_{'\0'};
};

// A listening socket on a free port of 127.0.0.1, for papan started with --initiator.
class Listener {
public:
    Listener() {
        fd_ = socket(AF_INET, SOCK_STREAM, 0);
        if (fd_ < 0) {
            ADD_FAILURE() << "socket failed: " << std::strerror(errno);
            return;
        }
        sockaddr_in a{};
        a.sin_family      = AF_INET;
        a.sin_port        = 0;
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        socklen_t len     = sizeof a;
        if (bind(fd_, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 || listen(fd_, 1) != 0 ||
            getsockname(fd_, reinterpret_cast<sockaddr*>(&a), &len) != 0) {
            ADD_FAILURE() << "cannot listen: " << std::strerror(errno);
            return;
        }
        port_ = ntohs(a.sin_port);
    }

    ~Listener() {
        if (fd_ >= 0) {
            close(fd_);
        }
    }

    Listener(const Listener&)            = delete;
    Listener& operator=(const Listener&) = delete;

    // The port; 0 when the socket could not listen.
    [[nodiscard]] int port() const { return port_; }

    // The connection papan makes (the listener closes after it); -1 after the timeout.
    int accept_one() {
        pollfd p{fd_, POLLIN, 0};
        if (poll(&p, 1, static_cast<int>(kTimeout.count())) != 1) {
            ADD_FAILURE() << "papan did not connect";
            return -1;
        }
        const int fd = accept(fd_, nullptr, nullptr);
        close(fd_);
        fd_ = -1;
        return fd;
    }

private:
    int fd_   = -1;
    int port_ = 0;
};

std::string pad_name(const std::string& name) {
    std::string s = name.substr(0, 32);
    s.resize(32, ' ');
    return s;
}

std::string two(int n) {
    std::string s = std::to_string(n);
    if (s.size() < 2) {
        s.insert(s.begin(), '0');
    }
    return s;
}

std::string accept_message() {
    std::string s = "A";
    s += pad_name("Scripted peer");
    s += '0';
    return s;
}

std::string game_request(char follower_colour,
                         const std::string& start   = "A",
                         const std::string& version = "01") {
    return "R" + version + pad_name("Scripted peer") + follower_colour + "001" + "050" + start;
}

std::string move_message(VariantId v, const papan::core::Move& m) {
    std::string s = "M0001" + two(papan::core::square_of_bit(v, m.from)) +
                    two(papan::core::square_of_bit(v, m.to));
    const auto captured = papan::core::captured_squares(v, m);
    s += two(static_cast<int>(captured.size()));
    // Send the captured squares in descending order: the receiver must treat them as a set.
    for (auto it = captured.rbegin(); it != captured.rend(); ++it) {
        s += two(*it);
    }
    return s;
}

// Parses a MOVE message strictly and plays it in `game` (failing the test if it is illegal).
bool play_received_move(papan::core::Game& game, const std::string& msg) {
    if (msg.size() < 11 || msg[0] != 'M') {
        ADD_FAILURE() << "expected a MOVE, got \"" << msg << "\"";
        return false;
    }
    for (std::size_t i = 1; i < msg.size(); ++i) {
        if (msg[i] < '0' || msg[i] > '9') {
            ADD_FAILURE() << "non-digit in MOVE \"" << msg << "\"";
            return false;
        }
    }
    const int from = std::stoi(msg.substr(5, 2));
    const int to   = std::stoi(msg.substr(7, 2));
    const int n    = std::stoi(msg.substr(9, 2));
    if (msg.size() != static_cast<std::size_t>(11 + 2 * n)) {
        ADD_FAILURE() << "MOVE length does not match its capture count: \"" << msg << "\"";
        return false;
    }
    std::vector<int> captured;
    for (int i = 0; i < n; ++i) {
        captured.push_back(std::stoi(msg.substr(static_cast<std::size_t>(11 + 2 * i), 2)));
    }
    const auto m = papan::core::find_move(game.position(), from, to, captured);
    if (!m) {
        ADD_FAILURE() << "illegal MOVE \"" << msg << "\": " << m.error();
        return false;
    }
    return static_cast<bool>(game.play(*m));
}

// Our move: a legal move picked deterministically (varied with the ply).
papan::core::Move pick_move(const papan::core::Game& game) {
    const auto& legal = game.legal_moves();
    return legal[static_cast<std::size_t>(game.ply() * 7 + 3) % legal.size()];
}

// Plays `plies` plies against papan (we are `us`), checking papan's moves; false if the game
// ended or something failed.
bool exchange_moves(Peer& peer, papan::core::Game& game, Color us, int plies) {
    for (int i = 0; i < plies && !game.is_over(); ++i) {
        if (game.side_to_move() == us) {
            const auto m = pick_move(game);
            peer.send(move_message(game.variant(), m));
            if (!game.play(m)) {
                ADD_FAILURE() << "our own move was illegal";
                return false;
            }
        } else {
            const auto msg = peer.receive();
            if (!msg) {
                ADD_FAILURE() << "no MOVE from papan (closed=" << peer.closed() << ")";
                return false;
            }
            if (!play_received_move(game, *msg)) {
                return false;
            }
        }
    }
    return !game.is_over();
}

void expect_accept(Peer& peer, char code) {
    const auto acc = peer.receive();
    ASSERT_TRUE(acc) << "no GAMEACC";
    ASSERT_EQ(acc->size(), 34U) << "\"" << *acc << "\"";
    EXPECT_EQ((*acc)[0], 'A');
    EXPECT_EQ(acc->substr(1, 5), "Papan");
    EXPECT_EQ(acc->substr(6, 27), std::string(27, ' '));
    EXPECT_EQ((*acc)[33], code);
}

TEST(DxpTest, FollowerPlaysInternationalAndConfirmsGameEnd) {
    DxpProcess papan({"--port", "0", "--host", "127.0.0.1", "--depth", "2"});
    const int port = papan.listening_port();
    ASSERT_GT(port, 0);
    Peer peer(Peer::connect_to(port));
    peer.send(game_request('Z'));  // papan follows with Black; we are White and start
    expect_accept(peer, '0');
    papan::core::Game game(VariantId::International);
    ASSERT_TRUE(exchange_moves(peer, game, Color::White, 12));
    // A chat is ignored; then we (to move) end the game and want no more games.
    peer.send("CHello from the test");
    ASSERT_EQ(game.side_to_move(), Color::White);
    peer.send("E21");
    const auto reply = peer.receive();
    ASSERT_TRUE(reply);
    EXPECT_EQ(reply->substr(0, 2), "E0") << *reply;
    ASSERT_EQ(reply->size(), 3U);
    // With stop code 1 the follower closes this connection, but keeps serving.
    EXPECT_FALSE(peer.receive(10s));
    EXPECT_TRUE(peer.closed());
    EXPECT_TRUE(papan.running());
}

TEST(DxpTest, FollowerAsWhiteMovesFirstAndTakesBack) {
    DxpProcess papan({"--port", "0", "--host", "127.0.0.1", "--depth", "2"});
    const int port = papan.listening_port();
    ASSERT_GT(port, 0);
    Peer peer(Peer::connect_to(port));
    peer.send(game_request('W'));
    expect_accept(peer, '0');
    papan::core::Game game(VariantId::International);
    ASSERT_TRUE(exchange_moves(peer, game, Color::Black, 7));  // W B W B W B W: our turn
    ASSERT_EQ(game.side_to_move(), Color::Black);
    // Take back to move 3 with White to move (ply 4): papan accepts and plays again.
    peer.send("B003W");
    const auto acc = peer.receive();
    ASSERT_TRUE(acc);
    EXPECT_EQ(*acc, "K0");
    while (game.ply() > 4) {
        ASSERT_TRUE(game.undo());
    }
    ASSERT_TRUE(exchange_moves(peer, game, Color::Black, 3));  // W B W: our turn again
    ASSERT_EQ(game.side_to_move(), Color::Black);
    peer.send("E00");
    const auto reply = peer.receive();
    ASSERT_TRUE(reply);
    EXPECT_EQ(reply->substr(0, 2), "E0");
    // Stop code 0: the connection stays open for another GAMEREQ.
    peer.send(game_request('Z'));
    expect_accept(peer, '0');
}

TEST(DxpTest, FollowerPlaysAmericanWith32Squares) {
    DxpProcess papan(
        {"--port", "0", "--host", "127.0.0.1", "--depth", "2", "--variant", "american"});
    const int port = papan.listening_port();
    ASSERT_GT(port, 0);
    Peer peer(Peer::connect_to(port));
    // Custom start (B): Black (z, on 1-12) to move, a few men each; 32-character position.
    std::string squares(32, 'e');
    for (const int b : {1, 2, 3, 9, 10}) {
        squares[static_cast<std::size_t>(b - 1)] = 'z';
    }
    for (const int w : {22, 23, 24, 30, 31}) {
        squares[static_cast<std::size_t>(w - 1)] = 'w';
    }
    squares[26] = 'W';  // a white king on 27
    peer.send(game_request('Z', "BZ" + squares));
    expect_accept(peer, '0');
    const auto start =
        papan::core::parse_fen(VariantId::American, "B:W22,23,24,30,31,K27:B1,2,3,9,10");
    ASSERT_TRUE(start);
    papan::core::Game game(*start);
    exchange_moves(peer, game, Color::White, 6);
    EXPECT_TRUE(papan.running());
}

TEST(DxpTest, FollowerDeclinesBadRequests) {
    DxpProcess papan({"--port", "0", "--host", "127.0.0.1", "--depth", "2"});
    const int port = papan.listening_port();
    ASSERT_GT(port, 0);
    Peer peer(Peer::connect_to(port));
    peer.send(game_request('Z', "A", "02"));  // unknown version
    expect_accept(peer, '1');
    peer.send(game_request('Z', "BW" + std::string(32, 'e')));  // an 8x8 position for 10x10
    expect_accept(peer, '2');
    peer.send(game_request('Z'));  // and a good one still works
    expect_accept(peer, '0');
}

TEST(DxpTest, InitiatorSendsGameRequestAndPlays) {
    Listener listener;
    ASSERT_GT(listener.port(), 0);
    const int port = listener.port();

    DxpProcess papan({"--initiator",
                      "--host",
                      "127.0.0.1",
                      "--port",
                      std::to_string(port),
                      "--depth",
                      "2",
                      "--time",
                      "3",
                      "--moves",
                      "40",
                      "--name",
                      "Papan test"});
    const int fd = listener.accept_one();
    ASSERT_GE(fd, 0);
    Peer peer(fd);

    const auto req = peer.receive();
    ASSERT_TRUE(req);
    ASSERT_EQ(req->size(), 43U) << "\"" << *req << "\"";
    EXPECT_EQ(req->substr(0, 3), "R01");
    EXPECT_EQ(req->substr(3, 32), pad_name("Papan test"));
    EXPECT_EQ((*req)[35], 'Z');  // the first game papan plays White
    EXPECT_EQ(req->substr(36, 3), "003");
    EXPECT_EQ(req->substr(39, 3), "040");
    EXPECT_EQ((*req)[42], 'A');
    peer.send(accept_message());

    papan::core::Game game(VariantId::International);
    ASSERT_TRUE(exchange_moves(peer, game, Color::Black, 11));  // papan's move first; ours next
    ASSERT_EQ(game.side_to_move(), Color::Black);
    peer.send("E10");  // we resign
    const auto reply = peer.receive();
    ASSERT_TRUE(reply);
    EXPECT_EQ(*reply, "E01");  // reason 0; stop: its one game is played
    EXPECT_EQ(papan.wait_exit(), 0);
}

TEST(DxpTest, InitiatorEndsAGameItLoses) {
    // From a set-up position where papan (White, to move) has no legal move at all, it must send
    // GAMEREQ with the position (start B) and then GAMEEND "I lose".
    Listener listener;
    ASSERT_GT(listener.port(), 0);
    const int port = listener.port();
    // White man on 46 (a1) blocked by Black men on 41 (b2) and 37 (c3): it can neither move
    // nor capture.
    DxpProcess papan({"--initiator",
                      "--port",
                      std::to_string(port),
                      "--depth",
                      "2",
                      "--fen",
                      "W:W46:B41,37,32"});
    const int fd = listener.accept_one();
    ASSERT_GE(fd, 0);
    Peer peer(fd);
    const auto req = peer.receive();
    ASSERT_TRUE(req);
    ASSERT_EQ(req->size(), 94U) << "\"" << *req << "\"";
    EXPECT_EQ((*req)[42], 'B');
    EXPECT_EQ((*req)[43], 'W');
    std::string expected(50, 'e');
    expected[45] = 'w';
    expected[40] = 'z';
    expected[36] = 'z';
    expected[31] = 'z';
    EXPECT_EQ(req->substr(44), expected);
    peer.send(accept_message());
    const auto end = peer.receive();
    ASSERT_TRUE(end);
    EXPECT_EQ(*end, "E11");  // I lose; stop after this (only) game
    peer.send("E01");
    EXPECT_EQ(papan.wait_exit(), 0);
}

TEST(DxpTest, MalformedMessagesCloseTheConnectionWithoutCrashing) {
    DxpProcess papan({"--port", "0", "--host", "127.0.0.1", "--depth", "2"});
    const int port = papan.listening_port();
    ASSERT_GT(port, 0);
    const std::vector<std::string> bad = {
        "Xnonsense",                      // unknown type
        "R01short",                       // truncated GAMEREQ
        std::string("M0001\xff\x01", 7),  // non-ASCII
        "E9",                             // truncated GAMEEND
        std::string(5000, 'C'),           // no NUL for 5000 bytes
    };
    for (const auto& b : bad) {
        Peer peer(Peer::connect_to(port));
        if (b.size() > 1000) {
            peer.send_raw(b);
        } else {
            peer.send(b);
        }
        EXPECT_FALSE(peer.receive(30s));
        EXPECT_TRUE(peer.closed()) << "connection not closed after a malformed message";
        EXPECT_TRUE(papan.running());
    }
    // Malformed and illegal moves inside a game.
    for (const std::string move : {"M00ab3228", "M0001322800", "M000132280199"}) {
        Peer peer(Peer::connect_to(port));
        peer.send(game_request('Z'));
        expect_accept(peer, '0');
        peer.send(move);  // 32-28 is legal only without the captured square 01
        if (move == "M0001322800") {
            const auto reply = peer.receive();
            ASSERT_TRUE(reply) << "no answer to a legal move";
            EXPECT_EQ((*reply)[0], 'M');
            continue;
        }
        EXPECT_FALSE(peer.receive(30s));
        EXPECT_TRUE(peer.closed());
        EXPECT_TRUE(papan.running());
    }
    // After all that, a normal game still starts.
    Peer peer(Peer::connect_to(port));
    peer.send(game_request('Z'));
    expect_accept(peer, '0');
    papan::core::Game game(VariantId::International);
    EXPECT_TRUE(exchange_moves(peer, game, Color::White, 4));
}

}  // namespace
