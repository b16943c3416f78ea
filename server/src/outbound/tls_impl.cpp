// The one translation unit that compiles Asio's TLS support (over OpenSSL) for the outgoing
// calls (http_client.cpp); the rest of Asio and Beast is compiled in papan_transport.
#include <boost/asio/ssl/impl/src.hpp>
