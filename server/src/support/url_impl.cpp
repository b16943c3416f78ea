// The one translation unit that compiles Boost.URL (Debian ships it without a library).
#include <boost/url/src.hpp>
