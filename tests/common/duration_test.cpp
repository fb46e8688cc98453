// Durations as people write them, and what is not one.
#include "common/duration.hpp"

#include <gtest/gtest.h>

#include "common/error.hpp"

using namespace numacoll;

TEST(Duration, ParsesUnits) {
    EXPECT_DOUBLE_EQ(parse_duration_ns("2500"), 2500);
    EXPECT_DOUBLE_EQ(parse_duration_ns("2500ns"), 2500);
    EXPECT_DOUBLE_EQ(parse_duration_ns("2.5us"), 2500);
    EXPECT_DOUBLE_EQ(parse_duration_ns("3ms"), 3e6);
    EXPECT_DOUBLE_EQ(parse_duration_ns("1s"), 1e9);
    EXPECT_DOUBLE_EQ(parse_duration_ns("0"), 0);
}

TEST(Duration, RefusesWhatIsNotOne) {
    for (const char* text : {"", "us", "5 us", "5min", "-1us", "1e30s", "nan", "inf", "2h", "5usx"})
        EXPECT_THROW(parse_duration_ns(text), UsageError) << text;
}

TEST(Duration, FormatsWithTheLargestUnit) {
    EXPECT_EQ(format_duration(800), "800ns");
    EXPECT_EQ(format_duration(2500), "2.5us");
    EXPECT_EQ(format_duration(3e6), "3ms");
    EXPECT_EQ(format_duration(1.5e9), "1.5s");
}
