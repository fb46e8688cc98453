#include "exec/kernels.hpp"

#include <algorithm>
#include <cstring>

namespace numacoll::exec {

namespace {

template <typename Op>
void fold(double* __restrict__ into, const double* __restrict__ from, std::size_t count, Op op) {
    for (std::size_t i = 0; i < count; ++i) into[i] = op(into[i], from[i]);
}

template <typename Op>
void fold_all(double* destination, std::span<const double* const> sources, std::size_t count, Op op) {
    // The destination aliases a later source: fold element by element so that
    // no source is overwritten before it is read.
    const bool aliased = std::find(sources.begin() + 1, sources.end(), destination) != sources.end();
    if (aliased) {
        for (std::size_t i = 0; i < count; ++i) {
            double value = sources[0][i];
            for (std::size_t k = 1; k < sources.size(); ++k) value = op(value, sources[k][i]);
            destination[i] = value;
        }
        return;
    }
    if (destination != sources[0]) std::memmove(destination, sources[0], count * sizeof(double));
    for (std::size_t k = 1; k < sources.size(); ++k) fold(destination, sources[k], count, op);
}

}  // namespace

void reduce_into(double* destination, std::span<const double* const> sources, std::size_t count, algo::ReduceOp op) {
    switch (op) {
        case algo::ReduceOp::sum: return fold_all(destination, sources, count, [](double a, double b) { return a + b; });
        case algo::ReduceOp::prod: return fold_all(destination, sources, count, [](double a, double b) { return a * b; });
        case algo::ReduceOp::min: return fold_all(destination, sources, count, [](double a, double b) { return b < a ? b : a; });
        case algo::ReduceOp::max: return fold_all(destination, sources, count, [](double a, double b) { return b > a ? b : a; });
    }
}

}  // namespace numacoll::exec
