// The Asio, Beast and JSON names the load tool's sources share. Only declaration headers: the
// implementation is compiled once, in papan_transport (BOOST_*_SEPARATE_COMPILATION).
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/strand.hpp>
#include <boost/beast/core/error.hpp>
#include <nlohmann/json.hpp>

#include <chrono>

namespace papan::loadtest {

namespace net   = boost::asio;
namespace beast = boost::beast;
using tcp       = net::ip::tcp;
using Clock     = std::chrono::steady_clock;
using Json      = nlohmann::json;
using Strand    = net::strand<net::io_context::executor_type>;

// A duration of Clock from seconds (options are given in seconds as doubles).
inline Clock::duration seconds_of(double seconds) {
    return std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
}

}  // namespace papan::loadtest
