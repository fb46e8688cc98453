#include "exec/kernels.hpp"

#include <boost/container/small_vector.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "exec/element_types.hpp"

namespace numacoll::exec {

namespace {

// Bytes folded per block: 2 KiB, so a block of the destination stays in L1
// while every source is folded into it. The vector then crosses memory once
// (each source read once, the destination written once) instead of once
// per source.
constexpr std::size_t block_bytes = 2048;

template <typename T, typename Op>
inline void combine(T* __restrict__ into, const T* __restrict__ a, const T* __restrict__ b, std::size_t count, Op op) {
    for (std::size_t i = 0; i < count; ++i) into[i] = op(a[i], b[i]);
}

template <typename T, typename Op>
inline void fold(T* __restrict__ into, const T* __restrict__ from, std::size_t count, Op op) {
    for (std::size_t i = 0; i < count; ++i) into[i] = op(into[i], from[i]);
}

template <typename T>
bool overlaps(const T* destination, const T* source, std::size_t count) {
    return destination < source + count && source < destination + count;
}

// Folds one block of every source into `into`, which overlaps none of them.
template <typename T, typename Op>
inline void fold_block(T* into, std::span<const T* const> sources, std::size_t at, std::size_t count, Op op) {
    if (sources.size() == 1) {
        std::copy_n(sources[0] + at, count, into);
        return;
    }
    combine(into, sources[0] + at, sources[1] + at, count, op);
    for (std::size_t k = 2; k < sources.size(); ++k) fold(into, sources[k] + at, count, op);
}

template <typename T, typename Op>
void fold_all(T* destination, std::span<const T* const> sources, std::size_t count, Op op) {
    // A destination that is one of the sources (in-place folding) is
    // computed block by block in a scratch block: each block of every
    // source is read before that block of the destination is written.
    constexpr std::size_t block_elements = std::max<std::size_t>(1, block_bytes / sizeof(T));
    const bool aliased = std::any_of(sources.begin(), sources.end(),
                                     [&](const T* source) { return overlaps(destination, source, count); });
    alignas(64) std::byte scratch_bytes[block_elements * sizeof(T)];
    T* scratch = reinterpret_cast<T*>(scratch_bytes);
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

// Calls body(combiner) with the combiner of `op` on T, as MPI defines it;
// Error for a pair that MPI does not define.
template <typename T, typename Body>
void with_operation(sched::ReduceOp op, Body&& body) {
    using sched::ReduceOp;
    if constexpr (is_integer_element<T>) {
        // Sums and products wrap (in an unsigned type at least as wide as
        // int: a signed overflow, or a promoted one, is undefined in C++).
        using Wide = std::conditional_t<(sizeof(T) < sizeof(unsigned)), unsigned, std::make_unsigned_t<T>>;
        switch (op) {
            case ReduceOp::sum: return body([](T a, T b) { return static_cast<T>(static_cast<Wide>(a) + static_cast<Wide>(b)); });
            case ReduceOp::prod: return body([](T a, T b) { return static_cast<T>(static_cast<Wide>(a) * static_cast<Wide>(b)); });
            case ReduceOp::min: return body([](T a, T b) { return b < a ? b : a; });
            case ReduceOp::max: return body([](T a, T b) { return b > a ? b : a; });
            case ReduceOp::land: return body([](T a, T b) { return static_cast<T>(a != 0 && b != 0); });
            case ReduceOp::lor: return body([](T a, T b) { return static_cast<T>(a != 0 || b != 0); });
            case ReduceOp::lxor: return body([](T a, T b) { return static_cast<T>((a != 0) != (b != 0)); });
            case ReduceOp::band: return body([](T a, T b) { return static_cast<T>(a & b); });
            case ReduceOp::bor: return body([](T a, T b) { return static_cast<T>(a | b); });
            case ReduceOp::bxor: return body([](T a, T b) { return static_cast<T>(a ^ b); });
            default: break;
        }
    } else if constexpr (is_floating_element<T>) {
        switch (op) {
            case ReduceOp::sum: return body([](T a, T b) { return a + b; });
            case ReduceOp::prod: return body([](T a, T b) { return a * b; });
            case ReduceOp::min: return body([](T a, T b) { return b < a ? b : a; });
            case ReduceOp::max: return body([](T a, T b) { return b > a ? b : a; });
            default: break;
        }
    } else if constexpr (is_complex_element<T>) {
        switch (op) {
            case ReduceOp::sum: return body([](T a, T b) { return a + b; });
            case ReduceOp::prod: return body([](T a, T b) { return a * b; });
            default: break;
        }
    } else if constexpr (is_logical_element<T>) {
        using V = decltype(T::value);
        switch (op) {
            case ReduceOp::land: return body([](T a, T b) { return T{static_cast<V>(a.value != 0 && b.value != 0)}; });
            case ReduceOp::lor: return body([](T a, T b) { return T{static_cast<V>(a.value != 0 || b.value != 0)}; });
            case ReduceOp::lxor: return body([](T a, T b) { return T{static_cast<V>((a.value != 0) != (b.value != 0))}; });
            default: break;
        }
    } else if constexpr (std::is_same_v<T, Byte>) {
        switch (op) {
            case ReduceOp::band: return body([](T a, T b) { return T{static_cast<std::uint8_t>(a.value & b.value)}; });
            case ReduceOp::bor: return body([](T a, T b) { return T{static_cast<std::uint8_t>(a.value | b.value)}; });
            case ReduceOp::bxor: return body([](T a, T b) { return T{static_cast<std::uint8_t>(a.value ^ b.value)}; });
            default: break;
        }
    } else if constexpr (is_pair_element<T>) {
        // MPI: the extreme value, and of equal values the smaller index.
        switch (op) {
            case ReduceOp::minloc:
                return body([](T a, T b) {
                    if (b.value < a.value) return b;
                    if (a.value < b.value) return a;
                    return T{a.value, std::min(a.index, b.index)};
                });
            case ReduceOp::maxloc:
                return body([](T a, T b) {
                    if (b.value > a.value) return b;
                    if (a.value > b.value) return a;
                    return T{a.value, std::min(a.index, b.index)};
                });
            default: break;
        }
    }
    throw Error(fmt::format("operation {} is not defined on this element type", sched::to_string(op)));
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

void reduce_into(std::byte* destination, std::span<const std::byte* const> sources, std::size_t count,
                 sched::Datatype datatype, sched::ReduceOp op) {
    if (sources.empty()) return;
    with_element_type(sched::representation(datatype), [&]<typename T>() {
        boost::container::small_vector<const T*, 8> typed;  // no heap in the timed loop
        for (const std::byte* source : sources) typed.push_back(reinterpret_cast<const T*>(source));
        with_operation<T>(op, [&](auto combiner) {
            fold_all(reinterpret_cast<T*>(destination), std::span<const T* const>(typed.data(), typed.size()), count,
                     combiner);
        });
    });
}

void reduce_into(double* destination, std::span<const double* const> sources, std::size_t count, sched::ReduceOp op) {
    if (sources.empty()) return;
    with_operation<double>(op, [&](auto combiner) { fold_all(destination, sources, count, combiner); });
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
