// One WebSocket connection of a player: connect, handshake, a queue of text frames to write (one
// write at a time, as Beast requires), reads until it fails, and a graceful or an immediate close.
// Its handlers run on the strand it is made with (the session's). It reports its end once; a
// reconnection makes a new Connection.
#pragma once

#include "asio_types.hpp"
#include "server_address.hpp"

#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/websocket/stream.hpp>

#include <deque>
#include <functional>
#include <memory>
#include <string>

namespace papan::loadtest {

class Connection : public std::enable_shared_from_this<Connection> {
public:
    struct Handlers {
        std::function<void()> opened;                    // the handshake is done
        std::function<void(std::string text)> received;  // a message from the server
        // The connection is gone: "connect", "handshake", "read", "write", "closed_by_server"
        // (the server closed the WebSocket), or "close" (our close completed).
        std::function<void(const char* code)> ended;
    };

    explicit Connection(const Strand& strand) : ws_(strand) {}

    // Connects to the server (5 s at most) and opens the WebSocket.
    void open(const ServerAddress& server, Handlers handlers);

    // Queues a text frame; dropped when the connection is not up or is closing (what is still
    // needed is sent again after a reconnection).
    void send(std::string text);

    // Closes gracefully once the queued frames are written (at once before the handshake).
    void close();

    // Closes the socket now: the operations in progress fail and end the connection.
    void abort();

    [[nodiscard]] bool up() const { return up_; }  // the handshake is done

    [[nodiscard]] bool closing() const { return closing_; }  // we are closing it

private:
    void on_connect(beast::error_code ec);
    void on_handshake(beast::error_code ec);
    void read();
    void on_read(beast::error_code ec);
    void write_next();
    void on_write(beast::error_code ec);
    void start_close();
    void end(const char* code);

    beast::websocket::stream<beast::tcp_stream> ws_;
    Handlers handlers_;
    Url url_;
    beast::flat_buffer buf_;
    std::deque<std::string> outbox_;
    bool writing_      = false;
    bool up_           = false;
    bool closing_      = false;
    bool close_wanted_ = false;  // close once the outbox is written
    bool ended_        = false;
};

}  // namespace papan::loadtest
