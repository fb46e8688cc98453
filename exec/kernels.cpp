#include "exec/kernels.hpp"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <vector>

namespace numacoll::exec {

namespace {

// Elements folded per block: 2 KiB, so a block of the destination stays in
// L1 while every source is folded into it. The vector then crosses memory
// once (each source read once, the destination written once) instead of
// once per source.
constexpr std::size_t block_elements = 256;

template <typename Op>
inline void combine(double* __restrict__ into, const double* __restrict__ a, const double* __restrict__ b,
                    std::size_t count, Op op) {
    for (std::size_t i = 0; i < count; ++i) into[i] = op(a[i], b[i]);
}

template <typename Op>
inline void fold(double* __restrict__ into, const double* __restrict__ from, std::size_t count, Op op) {
    for (std::size_t i = 0; i < count; ++i) into[i] = op(into[i], from[i]);
}

bool overlaps(const double* destination, const double* source, std::size_t count) {
    return destination < source + count && source < destination + count;
}

// Folds one block of every source into `into`, which overlaps none of them.
template <typename Op>
inline void fold_block(double* into, std::span<const double* const> sources, std::size_t at, std::size_t count, Op op) {
    if (sources.size() == 1) {
        std::copy_n(sources[0] + at, count, into);
        return;
    }
    combine(into, sources[0] + at, sources[1] + at, count, op);
    for (std::size_t k = 2; k < sources.size(); ++k) fold(into, sources[k] + at, count, op);
}

template <typename Op>
void fold_all(double* destination, std::span<const double* const> sources, std::size_t count, Op op) {
    // A destination that is one of the sources (in-place folding) is
    // computed block by block in a scratch block: each block of every
    // source is read before that block of the destination is written.
    const bool aliased = std::any_of(sources.begin(), sources.end(),
                                     [&](const double* source) { return overlaps(destination, source, count); });
    alignas(64) double scratch[block_elements];
    for (std::size_t at = 0; at < count; at += block_elements) {
        const std::size_t n = std::min(block_elements, count - at);
        if (!aliased) {
            fold_block(destination + at, sources, at, n, op);
            continue;
        }
        fold_block(scratch, sources, at, n, op);
        std::copy_n(scratch, n, destination + at);
    }
}

}  // namespace

double compute_flops(double flops) {
    // Eight independent multiply-add chains: 16 flops per step. The factor
    // keeps every value bounded (a contraction towards 1), so no step
    // overflows or turns denormal, whatever the count.
    constexpr int chains = 8;
    double value[chains] = {1.0, 1.1, 1.2, 1.3, 1.4, 1.5, 1.6, 1.7};
    const auto steps = static_cast<std::uint64_t>(flops / (2.0 * chains)) + (flops > 0 ? 1 : 0);
    for (std::uint64_t step = 0; step < steps; ++step)
        for (double& v : value) v = v * 0.999999 + 0.000001;
    double sum = 0;
    for (double v : value) sum += v;
    return sum;
}

void reduce_into(double* destination, std::span<const double* const> sources, std::size_t count, sched::ReduceOp op) {
    if (sources.empty()) return;
    switch (op) {
        case sched::ReduceOp::sum: return fold_all(destination, sources, count, [](double a, double b) { return a + b; });
        case sched::ReduceOp::prod: return fold_all(destination, sources, count, [](double a, double b) { return a * b; });
        case sched::ReduceOp::min: return fold_all(destination, sources, count, [](double a, double b) { return b < a ? b : a; });
        case sched::ReduceOp::max: return fold_all(destination, sources, count, [](double a, double b) { return b > a ? b : a; });
    }
}

double measure_compute_flops_per_ns() {
    // The amount goes through a volatile so that the compiler can neither
    // fold the kernel at compile time nor hoist the call out of the timing
    // (it is a pure function of a constant otherwise).
    volatile double amount = 2e6;
    volatile double sink = compute_flops(amount);  // the first run warms the core's clock up
    std::vector<double> rates;
    for (int run = 0; run < 7; ++run) {
        const double flops = amount;
        const auto start = std::chrono::steady_clock::now();
        sink = compute_flops(flops);
        const double ns = std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start).count();
        rates.push_back(flops / std::max(ns, 1.0));
    }
    (void)sink;
    std::sort(rates.begin(), rates.end());
    return rates[rates.size() / 2];
}

}  // namespace numacoll::exec
