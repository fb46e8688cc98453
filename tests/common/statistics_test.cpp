// One median and nearest-rank percentile for every reported figure.
#include "common/statistics.hpp"

#include <gtest/gtest.h>

using namespace numacoll;

TEST(TimeStats, MedianAndPercentiles) {
    std::vector<double> values;
    for (int i = 10; i >= 1; --i) values.push_back(i * 100.0);
    const auto stats = summarize_times(values);
    EXPECT_EQ(stats.iterations, 10);
    EXPECT_DOUBLE_EQ(stats.median_ns, 550);
    EXPECT_DOUBLE_EQ(stats.p10_ns, 100);
    EXPECT_DOUBLE_EQ(stats.p90_ns, 900);
    EXPECT_DOUBLE_EQ(stats.min_ns, 100);
    EXPECT_DOUBLE_EQ(stats.max_ns, 1000);
}
