#include "search/move_order.hpp"

#include <cmath>

namespace papan::engine::detail {

const LmrTable kLmr = [] {
    LmrTable t{};
    for (std::size_t d = 1; d < t.size(); ++d) {
        for (std::size_t n = 1; n < t[d].size(); ++n) {
            t[d][n] = static_cast<int>(std::lround(std::log(static_cast<double>(d)) *
                                                   std::log(static_cast<double>(n)) / kLmrDivisor));
        }
    }
    return t;
}();

}  // namespace papan::engine::detail
