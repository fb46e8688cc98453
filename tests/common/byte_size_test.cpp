#include "common/byte_size.hpp"

#include <gtest/gtest.h>

#include "common/error.hpp"

using namespace numacoll;

TEST(ByteSize, ParsesUnits) {
    EXPECT_EQ(parse_byte_size("64"), 64u);
    EXPECT_EQ(parse_byte_size("8B"), 8u);
    EXPECT_EQ(parse_byte_size("4KiB"), 4096u);
    EXPECT_EQ(parse_byte_size("4k"), 4096u);
    EXPECT_EQ(parse_byte_size("16MiB"), 16u << 20);
    EXPECT_EQ(parse_byte_size("1GB"), 1u << 30);
    EXPECT_EQ(parse_byte_size("0"), 0u);
}

TEST(ByteSize, RejectsNonsense) {
    EXPECT_THROW(parse_byte_size("-5"), UsageError);
    EXPECT_THROW(parse_byte_size("abc"), UsageError);
    EXPECT_THROW(parse_byte_size("12XB"), UsageError);
    EXPECT_THROW(parse_byte_size(""), UsageError);
    EXPECT_THROW(parse_byte_size("99999999999999999999"), UsageError);
    EXPECT_THROW(parse_byte_size("17179869184GiB"), UsageError);
}

TEST(ByteSize, ParsesListsAndDoublingRanges) {
    EXPECT_EQ(parse_byte_sizes("8B:64"), (std::vector<std::uint64_t>{8, 16, 32, 64}));
    EXPECT_EQ(parse_byte_sizes("64,4KiB"), (std::vector<std::uint64_t>{64, 4096}));
    EXPECT_EQ(parse_byte_sizes("8:16,1KiB"), (std::vector<std::uint64_t>{8, 16, 1024}));
    EXPECT_THROW(parse_byte_sizes("64:8"), UsageError);
    EXPECT_THROW(parse_byte_sizes("0:8"), UsageError);
    EXPECT_THROW(parse_byte_sizes("8,,16"), UsageError);
}

TEST(ByteSize, FormatsExactly) {
    EXPECT_EQ(format_bytes(16u << 20), "16MiB");
    EXPECT_EQ(format_bytes(4096), "4KiB");
    EXPECT_EQ(format_bytes(100), "100B");
    EXPECT_EQ(format_bytes(1536), "1536B");
}
