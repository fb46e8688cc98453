// The reference values' text: what a failed verification prints.
#include <gtest/gtest.h>

#include <complex>
#include <cstdint>
#include <cstring>
#include <limits>

#include "exec/input_pattern.hpp"

using namespace numacoll;

namespace {

template <typename T>
std::string text(T value, sched::Datatype datatype) {
    std::byte bytes[sizeof(T)];
    std::memcpy(bytes, &value, sizeof(T));
    return exec::element_text(bytes, datatype);
}

}  // namespace

TEST(ElementText, IntegersKeepTheirSignednessAndWidth) {
    EXPECT_EQ(text(std::numeric_limits<std::uint64_t>::max(), sched::Datatype::uint64), "18446744073709551615");
    EXPECT_EQ(text(std::uint8_t{255}, sched::Datatype::uint8), "255");
    EXPECT_EQ(text(std::int8_t{-1}, sched::Datatype::int8), "-1");
    EXPECT_EQ(text(std::numeric_limits<std::int64_t>::min(), sched::Datatype::int64), "-9223372036854775808");
}

TEST(ElementText, FloatingAndComplexValuesReadAsNumbers) {
    EXPECT_EQ(text(-0.25, sched::Datatype::double_), "-0.25");
    EXPECT_EQ(text(std::complex<float>(1.0f, -2.0f), sched::Datatype::c_float_complex), "(1,-2)");
}

TEST(SameValue, FloatingPointComparesByValueAndIntegersByBits) {
    double plus_zero = 0.0, minus_zero = -0.0;
    std::byte a[8], b[8];
    std::memcpy(a, &plus_zero, 8);
    std::memcpy(b, &minus_zero, 8);
    EXPECT_TRUE(exec::same_value(a, b, sched::Datatype::double_));
    EXPECT_FALSE(exec::same_value(a, b, sched::Datatype::int64));
}
