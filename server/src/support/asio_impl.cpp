// The one translation unit that compiles Asio and Beast (BOOST_*_SEPARATE_COMPILATION is set on
// papan_server and everything linking it), so other files include only declarations.
#include <boost/asio/impl/src.hpp>
#include <boost/beast/src.hpp>
