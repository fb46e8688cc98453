// OSU's overlap figure on hand-made cases (util/osu_util.c of the OSU
// micro-benchmarks: max(0, 100 - 100 x (overall - compute) / pure)).
#include "overlap/osu_overlap.hpp"

#include <gtest/gtest.h>

#include "common/error.hpp"

using namespace numacoll;

TEST(OsuOverlap, HandMadeCases) {
    // 10 us of collective behind 10 us of computation.
    EXPECT_DOUBLE_EQ(overlap::osu_overlap_percent(10000, 10000, 10000), 100.0);  // hidden entirely
    EXPECT_DOUBLE_EQ(overlap::osu_overlap_percent(10000, 10000, 12000), 80.0);   // adds 2 of its 10 us
    EXPECT_DOUBLE_EQ(overlap::osu_overlap_percent(10000, 10000, 15000), 50.0);
    EXPECT_DOUBLE_EQ(overlap::osu_overlap_percent(10000, 10000, 20000), 0.0);    // adds all of it
    EXPECT_DOUBLE_EQ(overlap::osu_overlap_percent(10000, 10000, 26000), 0.0);    // worse than serial: 0, not -60
    // 4.35 us overall, 2.10 compute, 2.24 pure: 100 - 100 x 2.25 / 2.24 < 0, reported as 0.
    EXPECT_DOUBLE_EQ(overlap::osu_overlap_percent(2240, 2100, 4350), 0.0);
    EXPECT_NEAR(overlap::osu_overlap_percent(2000, 2100, 2600), 75.0, 1e-12);
}

TEST(OsuOverlap, RefusesTimesWithoutMeaning) {
    EXPECT_THROW(overlap::osu_overlap_percent(0, 10, 10), Error);
    EXPECT_THROW(overlap::osu_overlap_percent(10, -1, 10), Error);
    EXPECT_THROW(overlap::osu_overlap_percent(10, 10, -1), Error);
}
