// Aliases for the Asio types the server uses, so game/ and api/ code names them one way.
// Only declaration headers are included; the implementation is compiled once (papan_transport).
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/strand.hpp>

namespace papan::server {

namespace net = boost::asio;

using IoExecutor = net::io_context::executor_type;
using Strand     = net::strand<IoExecutor>;

}  // namespace papan::server
