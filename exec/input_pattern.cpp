#include "exec/input_pattern.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstring>
#include <vector>

#include "exec/element_types.hpp"
#include "exec/kernels.hpp"

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

// The bytes of a scalar that hold its value: an x87 long double's 10 of 16.
template <typename V>
constexpr std::size_t scalar_value_bytes = std::is_same_v<V, long double> ? 10 : sizeof(V);

// Calls f(offset, length) for each run of value bytes of T.
template <typename T, typename F>
constexpr void each_value_span(F&& f) {
    if constexpr (is_complex_element<T>) {
        using V = typename T::value_type;
        f(std::size_t{0}, scalar_value_bytes<V>);
        f(sizeof(V), scalar_value_bytes<V>);
    } else if constexpr (is_pair_element<T>) {
        f(std::size_t{0}, scalar_value_bytes<decltype(T::value)>);
        f(offsetof(T, index), sizeof(int));
    } else {
        f(std::size_t{0}, scalar_value_bytes<T>);
    }
}

// Logical inputs: mostly true for land, mostly false for lor, even for lxor
// (and for copies), so that a reduction over a few ranks gives both results.
bool truth_of(std::uint64_t h, sched::ReduceOp op) {
    switch (op) {
        case sched::ReduceOp::land: return h % 32 != 0;
        case sched::ReduceOp::lor: return h % 32 == 0;
        default: return (h & 1) != 0;
    }
}

template <typename T>
T value_of(std::uint64_t h, sched::ReduceOp op) {
    using sched::ReduceOp;
    if constexpr (is_integer_element<T>) {
        const T nonzero = static_cast<T>((h >> 8) | 1);
        if constexpr (std::is_signed_v<T>) {
            // A signed overflow is undefined in C, and so in MPI: Open MPI
            // 4.1's op/avx saturates int8 sums of 64 elements or more (100 +
            // 100 is 127 there, -56 with OMPI_MCA_op=^avx). Sums stay within
            // the type up to 127 ranks (int8) or 1,023, products are of 1 and -1.
            constexpr std::int64_t bound = std::max<std::int64_t>(1, (std::int64_t{1} << (8 * sizeof(T) - 1)) / 1024);
            if (op == ReduceOp::sum) return static_cast<T>(static_cast<std::int64_t>(h % (2 * bound + 1)) - bound);
            if (op == ReduceOp::prod) return static_cast<T>(h & 1 ? 1 : -1);
        }
        switch (op) {
            case ReduceOp::prod: return static_cast<T>(h | 1);  // odd: products do not vanish (unsigned: they wrap)
            case ReduceOp::band: return static_cast<T>(h | std::rotl(h, 17) | std::rotl(h, 31));  // bits mostly set
            case ReduceOp::bor: return static_cast<T>(h & std::rotl(h, 17) & std::rotl(h, 31));   // bits mostly clear
            case ReduceOp::land:
            case ReduceOp::lor:
            case ReduceOp::lxor: return truth_of(h, op) ? nonzero : T{0};
            default: return static_cast<T>(h);  // sums wrap: any order gives the same bits
        }
    } else if constexpr (is_floating_element<T>) {
        switch (op) {
            case ReduceOp::prod: return std::ldexp(T{1}, static_cast<int>(h % 3) - 1);
            case ReduceOp::min:
            case ReduceOp::max: return static_cast<T>(static_cast<double>(h % 2000001) - 1000000.0);
            default: return static_cast<T>(h % 1024) * T{0.25};
        }
    } else if constexpr (is_complex_element<T>) {
        using V = typename T::value_type;
        if (op == ReduceOp::prod) {
            static const T units[4] = {{1, 0}, {0, 1}, {-1, 0}, {0, -1}};
            return units[h % 4] * std::ldexp(V{1}, static_cast<int>((h >> 2) % 3) - 1);
        }
        return {static_cast<V>(h % 1024) * V{0.25}, static_cast<V>((h >> 20) % 1024) * V{0.25}};
    } else if constexpr (is_logical_element<T>) {
        return T{static_cast<decltype(T::value)>(truth_of(h, op))};
    } else if constexpr (std::is_same_v<T, Byte>) {
        switch (op) {
            case ReduceOp::band: return Byte{static_cast<std::uint8_t>(h | std::rotl(h, 17) | std::rotl(h, 31))};
            case ReduceOp::bor: return Byte{static_cast<std::uint8_t>(h & std::rotl(h, 17) & std::rotl(h, 31))};
            default: return Byte{static_cast<std::uint8_t>(h)};
        }
    } else {
        static_assert(is_pair_element<T>);
        // Values from 16: equal values, and so the index rule, are common.
        return T{static_cast<decltype(T::value)>(h % 16), static_cast<int>((h >> 8) % 1000) - 500};
    }
}

template <typename T>
constexpr bool has_padding() {
    std::size_t value_bytes = 0;
    each_value_span<T>([&](std::size_t, std::size_t length) { value_bytes += length; });
    return value_bytes != sizeof(T);
}

template <typename T>
void write_element(std::byte* out, std::uint64_t h, sched::ReduceOp op) {
    const T value = value_of<T>(h, op);
    if constexpr (!has_padding<T>()) {
        std::memcpy(out, &value, sizeof(T));
    } else {
        // Padding from the hash, then the value's bytes over it.
        for (std::size_t k = 0; k < sizeof(T); k += sizeof(std::uint64_t)) {
            const std::uint64_t bytes = mix(h + k);
            std::memcpy(out + k, &bytes, std::min(sizeof(std::uint64_t), sizeof(T) - k));
        }
        each_value_span<T>([&](std::size_t offset, std::size_t length) {
            std::memcpy(out + offset, reinterpret_cast<const std::byte*>(&value) + offset, length);
        });
    }
}

template <typename T>
std::string text_of(const std::byte* element) {
    T value;
    std::memcpy(&value, element, sizeof(T));
    if constexpr (is_integer_element<T> && std::is_unsigned_v<T>)
        return fmt::format("{}", static_cast<unsigned long long>(value));
    else if constexpr (is_integer_element<T>) return fmt::format("{}", static_cast<long long>(value));
    else if constexpr (is_floating_element<T>) return fmt::format("{}", static_cast<double>(value));
    else if constexpr (is_complex_element<T>)
        return fmt::format("({},{})", static_cast<double>(value.real()), static_cast<double>(value.imag()));
    else if constexpr (is_pair_element<T>) return fmt::format("({},{})", static_cast<double>(value.value), value.index);
    else return fmt::format("{}", static_cast<long long>(value.value));
}

}  // namespace

void fill_elements(std::byte* out, int rank, std::size_t first, std::size_t count, std::uint32_t iteration,
                   sched::Datatype datatype, sched::ReduceOp op) {
    with_element_type(sched::representation(datatype), [&]<typename T>() {
        for (std::size_t i = 0; i < count; ++i) write_element<T>(out + i * sizeof(T), hash(rank, first + i, iteration), op);
    });
}

std::uint8_t input_byte(int rank, std::size_t offset, std::uint32_t iteration, sched::Datatype datatype,
                        sched::ReduceOp op) {
    const std::size_t size = sched::element_size(datatype);
    std::byte element[32];
    fill_elements(element, rank, offset / size, 1, iteration, datatype, op);
    return static_cast<std::uint8_t>(element[offset % size]);
}

void fill_input(std::byte* input, std::size_t bytes, int rank, std::uint32_t iteration, sched::Datatype datatype,
                sched::ReduceOp op) {
    const std::size_t size = sched::element_size(datatype);
    const std::size_t whole = bytes / size;
    fill_elements(input, rank, 0, whole, iteration, datatype, op);
    for (std::size_t x = whole * size; x < bytes; ++x)
        input[x] = static_cast<std::byte>(input_byte(rank, x, iteration, datatype, op));
}

void reduced_elements(std::byte* out, int ranks, std::size_t first, std::size_t count, std::uint32_t iteration,
                      sched::Datatype datatype, sched::ReduceOp op) {
    // The inputs are exact in any order: rank by rank from 0 is the reference,
    // folded with the kernel (tests/exec/kernels_test.cpp checks the kernel
    // against values worked out by hand, for every type and operation).
    fill_elements(out, 0, first, count, iteration, datatype, op);
    std::vector<std::byte> next(count * sched::element_size(datatype));
    for (int rank = 1; rank < ranks; ++rank) {
        fill_elements(next.data(), rank, first, count, iteration, datatype, op);
        const std::byte* sources[2] = {out, next.data()};
        reduce_into(out, sources, count, datatype, op);
    }
}

bool same_value(const std::byte* a, const std::byte* b, sched::Datatype datatype) {
    return with_element_type(sched::representation(datatype), [&]<typename T>() {
        if constexpr (is_floating_element<T> || is_complex_element<T>) {
            // Equal values: a complex product reaches a zero component with
            // a sign that depends on the order (0 - 0 or -0 - 0).
            T x, y;
            std::memcpy(&x, a, sizeof(T));
            std::memcpy(&y, b, sizeof(T));
            return x == y;
        }
        bool same = true;
        each_value_span<T>([&](std::size_t offset, std::size_t length) {
            same = same && std::memcmp(a + offset, b + offset, length) == 0;
        });
        return same;
    });
}

std::string element_text(const std::byte* element, sched::Datatype datatype) {
    return with_element_type(sched::representation(datatype), [&]<typename T>() { return text_of<T>(element); });
}

double input_value(int rank, std::size_t element, std::uint32_t iteration, sched::ReduceOp op) {
    double value;
    fill_elements(reinterpret_cast<std::byte*>(&value), rank, element, 1, iteration, sched::Datatype::double_, op);
    return value;
}

double reduced_value(int ranks, std::size_t element, std::uint32_t iteration, sched::ReduceOp op) {
    double value;
    reduced_elements(reinterpret_cast<std::byte*>(&value), ranks, element, 1, iteration, sched::Datatype::double_, op);
    return value;
}

void fill_input(std::byte* input, std::size_t bytes, int rank, std::uint32_t iteration, sched::ReduceOp op) {
    fill_input(input, bytes, rank, iteration, sched::Datatype::double_, op);
}

std::uint8_t input_byte(int rank, std::size_t offset, std::uint32_t iteration, sched::ReduceOp op) {
    return input_byte(rank, offset, iteration, sched::Datatype::double_, op);
}

}  // namespace numacoll::exec
