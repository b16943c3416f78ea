// The one translation unit that compiles Asio and Beast. BOOST_*_SEPARATE_COMPILATION is set on
// papan_transport and so on everything linking it (the server, the load tool), whose files then
// include only declaration headers.
#include <boost/asio/impl/src.hpp>
#include <boost/beast/src.hpp>
