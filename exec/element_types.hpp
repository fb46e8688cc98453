// The C++ type behind each Representation of schedule/datatype.hpp, and a
// visitor that runs a templated body on it: the one place where a datatype
// becomes a type. Kernels, input patterns and verification are written once
// over these types.
//
// Invariants: sizeof each type is element_size() of its datatypes (checked
// below); a pair is {value, int index} laid out as MPI's pair types are (the
// C struct, padding included).
#pragma once

#include <complex>
#include <cstdint>
#include <type_traits>

#include "common/error.hpp"
#include "schedule/datatype.hpp"

namespace numacoll::exec {

// C _Bool: 0 or 1.
struct Bool8 {
    std::uint8_t value;
};
// Fortran LOGICAL (default kind): 0 is false, anything else true.
struct Logical32 {
    std::int32_t value;
};
// MPI_BYTE: bits only.
struct Byte {
    std::uint8_t value;
};
// MPI_FLOAT_INT and the other pair types of minloc and maxloc.
template <typename V>
struct ValueIndex {
    V value;
    int index;
};

template <typename T> inline constexpr bool is_integer_element = std::is_integral_v<T>;
template <typename T> inline constexpr bool is_floating_element = std::is_floating_point_v<T>;
template <typename T> struct is_complex_element_t : std::false_type {};
template <typename V> struct is_complex_element_t<std::complex<V>> : std::true_type {};
template <typename T> inline constexpr bool is_complex_element = is_complex_element_t<T>::value;
template <typename T> inline constexpr bool is_logical_element = std::is_same_v<T, Bool8> || std::is_same_v<T, Logical32>;
template <typename T> struct is_pair_element_t : std::false_type {};
template <typename V> struct is_pair_element_t<ValueIndex<V>> : std::true_type {};
template <typename T> inline constexpr bool is_pair_element = is_pair_element_t<T>::value;

static_assert(sizeof(long double) == 16 && sizeof(ValueIndex<short>) == 8 && sizeof(ValueIndex<double>) == 16 &&
                  sizeof(ValueIndex<long double>) == 32 && sizeof(std::complex<long double>) == 32,
              "the element sizes of schedule/datatype.cpp are the x86-64 Linux ABI's");

// Calls body.template operator()<T>() with the type of `representation`.
template <typename Body>
decltype(auto) with_element_type(sched::Representation representation, Body&& body) {
    using R = sched::Representation;
    switch (representation) {
        case R::i8: return body.template operator()<std::int8_t>();
        case R::i16: return body.template operator()<std::int16_t>();
        case R::i32: return body.template operator()<std::int32_t>();
        case R::i64: return body.template operator()<std::int64_t>();
        case R::u8: return body.template operator()<std::uint8_t>();
        case R::u16: return body.template operator()<std::uint16_t>();
        case R::u32: return body.template operator()<std::uint32_t>();
        case R::u64: return body.template operator()<std::uint64_t>();
        case R::f32: return body.template operator()<float>();
        case R::f64: return body.template operator()<double>();
        case R::f80: return body.template operator()<long double>();
        case R::cf32: return body.template operator()<std::complex<float>>();
        case R::cf64: return body.template operator()<std::complex<double>>();
        case R::cf80: return body.template operator()<std::complex<long double>>();
        case R::bool8: return body.template operator()<Bool8>();
        case R::logical32: return body.template operator()<Logical32>();
        case R::byte: return body.template operator()<Byte>();
        case R::float_int: return body.template operator()<ValueIndex<float>>();
        case R::double_int: return body.template operator()<ValueIndex<double>>();
        case R::long_int: return body.template operator()<ValueIndex<long>>();
        case R::int_int: return body.template operator()<ValueIndex<int>>();
        case R::short_int: return body.template operator()<ValueIndex<short>>();
        case R::long_double_int: return body.template operator()<ValueIndex<long double>>();
    }
    throw Error("an element representation that numacoll does not know");
}

}  // namespace numacoll::exec
