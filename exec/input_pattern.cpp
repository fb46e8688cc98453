#include "exec/input_pattern.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace numacoll::exec {

namespace {

// splitmix64: every (rank, element, iteration) gets its own well-mixed
// number, so no rank count, offset or iteration makes values repeat in a
// pattern a wrong result could hide in.
std::uint64_t mix(std::uint64_t value) {
    value += 0x9e3779b97f4a7c15ull;
    value = (value ^ (value >> 30)) * 0xbf58476d1ce4e5b9ull;
    value = (value ^ (value >> 27)) * 0x94d049bb133111ebull;
    return value ^ (value >> 31);
}

std::uint64_t hash(int rank, std::size_t element, std::uint32_t iteration) {
    return mix(mix(mix(static_cast<std::uint64_t>(rank)) ^ element) ^ iteration);
}

}  // namespace

double input_value(int rank, std::size_t element, std::uint32_t iteration, sched::ReduceOp op) {
    const std::uint64_t h = hash(rank, element, iteration);
    switch (op) {
        case sched::ReduceOp::sum:  // quarters from 0 to 255.75: sums of millions stay exact
            return static_cast<double>(h % 1024) * 0.25;
        case sched::ReduceOp::prod:  // 1/2, 1 or 2: products are exact powers of two
            return std::ldexp(1.0, static_cast<int>(h % 3) - 1);
        case sched::ReduceOp::min:
        case sched::ReduceOp::max:  // distinct wide integers
            return static_cast<double>(h % 2000001) - 1000000.0;
    }
    return 0;
}

std::uint8_t input_byte(int rank, std::size_t offset, std::uint32_t iteration, sched::ReduceOp op) {
    const double value = input_value(rank, offset / sizeof(double), iteration, op);
    std::uint8_t bytes[sizeof(double)];
    std::memcpy(bytes, &value, sizeof(double));
    return bytes[offset % sizeof(double)];
}

void fill_input(std::byte* input, std::size_t bytes, int rank, std::uint32_t iteration, sched::ReduceOp op) {
    auto* values = reinterpret_cast<double*>(input);
    const std::size_t whole = bytes / sizeof(double);
    for (std::size_t i = 0; i < whole; ++i) values[i] = input_value(rank, i, iteration, op);
    for (std::size_t x = whole * sizeof(double); x < bytes; ++x)
        input[x] = static_cast<std::byte>(input_byte(rank, x, iteration, op));
}

double reduced_value(int ranks, std::size_t element, std::uint32_t iteration, sched::ReduceOp op) {
    double value = input_value(0, element, iteration, op);
    for (int rank = 1; rank < ranks; ++rank) {
        const double next = input_value(rank, element, iteration, op);
        switch (op) {
            case sched::ReduceOp::sum: value += next; break;
            case sched::ReduceOp::prod: value *= next; break;
            case sched::ReduceOp::min: value = std::min(value, next); break;
            case sched::ReduceOp::max: value = std::max(value, next); break;
        }
    }
    return value;
}

}  // namespace numacoll::exec
