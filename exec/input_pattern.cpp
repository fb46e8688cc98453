#include "exec/input_pattern.hpp"

#include <algorithm>
#include <cmath>

namespace numacoll::exec {

double input_value(int rank, std::size_t element, std::uint32_t iteration, algo::ReduceOp op) {
    const std::size_t r = static_cast<std::size_t>(rank);
    switch (op) {
        case algo::ReduceOp::sum:  // quarters up to 3.75: sums of thousands stay exact
            return static_cast<double>((r * 7 + element * 3 + iteration) % 16) * 0.25;
        case algo::ReduceOp::prod:  // 1/2, 1 or 2: products are exact powers of two
            return std::ldexp(1.0, static_cast<int>((r + element + iteration) % 3) - 1);
        case algo::ReduceOp::min:
        case algo::ReduceOp::max:
            return static_cast<double>((r * 13 + element * 5 + iteration) % 101) - 50.0;
    }
    return 0;
}

double reduced_value(int ranks, std::size_t element, std::uint32_t iteration, algo::ReduceOp op) {
    double value = input_value(0, element, iteration, op);
    for (int rank = 1; rank < ranks; ++rank) {
        const double next = input_value(rank, element, iteration, op);
        switch (op) {
            case algo::ReduceOp::sum: value += next; break;
            case algo::ReduceOp::prod: value *= next; break;
            case algo::ReduceOp::min: value = std::min(value, next); break;
            case algo::ReduceOp::max: value = std::max(value, next); break;
        }
    }
    return value;
}

}  // namespace numacoll::exec
