// The host check: its ratio is the median of measured over charged, and its
// text says when the host no longer runs at the calibration's speed.
#include "calibrate/host_check.hpp"

#include <gtest/gtest.h>

using namespace numacoll;
using calibrate::HostCheck;
using calibrate::Measurement;
using calibrate::Microbenchmark;

namespace {

HostCheck check(double flag_ns, double copy_ns) {
    Measurement flag;
    flag.kind = Microbenchmark::flag;
    flag.bytes = 64;
    flag.time_ns = flag_ns;
    Measurement copy;
    copy.kind = Microbenchmark::copy;
    copy.bytes = 65536;
    copy.time_ns = copy_ns;
    return HostCheck{{{flag, 50}, {copy, 1000}}};
}

}  // namespace

TEST(HostCheck, SaysWhenTheHostIsNotAtTheCalibrationsSpeed) {
    EXPECT_DOUBLE_EQ(check(50, 1000).ratio(), 1.0);
    EXPECT_DOUBLE_EQ(check(55, 1300).ratio(), (1.1 + 1.3) / 2);  // the median of two
    const std::string steady = calibrate::host_check_text(check(51, 1020), check(52, 990));
    EXPECT_NE(steady.find("flag 51 ns (params 50 ns), copy 64KiB 1020 ns (params 1000 ns)"), std::string::npos) << steady;
    EXPECT_EQ(steady.find("not the calibration's"), std::string::npos) << steady;
    const std::string drifted = calibrate::host_check_text(check(51, 1020), check(75, 1600));
    EXPECT_NE(drifted.find("not the calibration's"), std::string::npos) << drifted;
    const std::string slow_from_the_start = calibrate::host_check_text(check(70, 1400), check(70, 1400));
    EXPECT_NE(slow_from_the_start.find("not the calibration's"), std::string::npos) << slow_from_the_start;
}

TEST(HostCheck, ItsWorstDeviationIsTheFarthestPoint) {
    EXPECT_NEAR(check(50, 1000).worst_deviation(), 0, 1e-12);
    // A copy 22% fast beside a flag 3% slow: the median ratio is within 20%, the copy is not.
    EXPECT_NEAR(check(51.5, 780).worst_deviation(), 0.22, 1e-9);
    EXPECT_LT(std::abs(check(51.5, 780).ratio() - 1), 0.2);
}

TEST(HostCheck, TheHostHeldWhenEveryPointOfBothChecksIsWithinTwentyPercent) {
    EXPECT_TRUE(calibrate::host_held(check(51, 1020), check(58, 830)));
    EXPECT_FALSE(calibrate::host_held(check(51, 1020), check(51, 780)));   // the copy 22% fast by the end
    EXPECT_FALSE(calibrate::host_held(check(62, 1000), check(50, 1000)));  // the flag 24% slow at the start
}

TEST(HostCheck, RunsOnThisMachine) {
    const topo::Machine machine = topo::load_live();
    const HostCheck result = calibrate::check_host(machine, costs::load_params("generic"));
    ASSERT_FALSE(result.points.empty());
    for (const auto& [measured, charged] : result.points) {
        EXPECT_GT(charged, 0);
        EXPECT_GE(measured.time_ns, 0);
    }
    EXPECT_GT(result.ratio(), 0);
}
