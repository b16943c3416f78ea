#include "connection.hpp"

#include <boost/asio/connect.hpp>
#include <boost/beast/core/buffers_to_string.hpp>

namespace papan::loadtest {

namespace websocket = beast::websocket;

void Connection::open(const ServerAddress& server, Handlers handlers) {
    handlers_ = std::move(handlers);
    url_      = server.url;
    auto& s   = beast::get_lowest_layer(ws_);
    s.expires_after(std::chrono::seconds(5));
    s.async_connect(server.endpoints,
                    [self = shared_from_this()](beast::error_code ec, const tcp::endpoint&) {
                        self->on_connect(ec);
                    });
}

void Connection::on_connect(beast::error_code ec) {
    if (ec) {
        end("connect");
        return;
    }
    auto& s = beast::get_lowest_layer(ws_);
    s.expires_never();
    beast::error_code ignored;
    s.socket().set_option(tcp::no_delay(true), ignored);
    ws_.set_option(websocket::stream_base::timeout::suggested(beast::role_type::client));
    ws_.read_message_max(std::size_t{4} << 20);
    ws_.async_handshake(
        url_.host + ":" + url_.port, url_.path, [self = shared_from_this()](beast::error_code e) {
            self->on_handshake(e);
        });
}

void Connection::on_handshake(beast::error_code ec) {
    if (ec) {
        end("handshake");
        return;
    }
    up_ = true;
    if (!ended_ && handlers_.opened) {
        handlers_.opened();
    }
    read();
}

void Connection::read() {
    ws_.async_read(buf_, [self = shared_from_this()](beast::error_code ec, std::size_t) {
        self->on_read(ec);
    });
}

void Connection::on_read(beast::error_code ec) {
    if (ended_) {
        return;
    }
    if (ec) {
        end(ec == websocket::error::closed ? "closed_by_server" : "read");
        return;
    }
    std::string text = beast::buffers_to_string(buf_.data());
    buf_.consume(buf_.size());
    handlers_.received(std::move(text));
    if (!ended_) {
        read();
    }
}

void Connection::send(std::string text) {
    if (!up_ || closing_ || ended_) {
        return;
    }
    outbox_.push_back(std::move(text));
    if (!writing_) {
        write_next();
    }
}

void Connection::write_next() {
    writing_ = true;
    ws_.text(true);
    ws_.async_write(
        net::buffer(outbox_.front()),
        [self = shared_from_this()](beast::error_code ec, std::size_t) { self->on_write(ec); });
}

void Connection::on_write(beast::error_code ec) {
    writing_ = false;
    if (ended_) {
        return;
    }
    if (ec) {
        end("write");
        return;
    }
    outbox_.pop_front();
    if (!outbox_.empty()) {
        write_next();
    } else if (close_wanted_) {
        start_close();
    }
}

void Connection::close() {
    closing_ = true;
    if (!up_) {
        beast::get_lowest_layer(ws_).close();
    } else if (writing_ || !outbox_.empty()) {
        close_wanted_ = true;
    } else {
        start_close();
    }
}

void Connection::start_close() {
    close_wanted_ = false;
    ws_.async_close(websocket::close_code::normal,
                    [self = shared_from_this()](beast::error_code) { self->end("close"); });
}

void Connection::abort() {
    closing_ = true;
    beast::get_lowest_layer(ws_).close();
}

void Connection::end(const char* code) {
    if (ended_) {
        return;
    }
    ended_ = true;
    beast::get_lowest_layer(ws_).close();
    if (handlers_.ended) {
        handlers_.ended(code);
    }
}

}  // namespace papan::loadtest
