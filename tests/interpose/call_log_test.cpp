#include "interpose/call_log.hpp"

#include <gtest/gtest.h>

namespace numacoll {
namespace {

TEST(InterposeCallLog, ARowHasItsCallsTotalAndMedian) {
    interpose::CallLog log;
    const interpose::CallRow served{sched::Collective::allreduce, "tree", "double", 8, ""};
    const interpose::CallRow handed_back{sched::Collective::allreduce, "native", "int", 8, "user-defined operation"};
    for (double ns : {300.0, 100.0, 200.0, 1000.0}) log.record(served, ns);
    log.record(handed_back, 50);
    const auto rows = log.summaries();
    ASSERT_EQ(rows.size(), 2u);
    const auto& tree = rows[0].row.algorithm == "tree" ? rows[0] : rows[1];
    EXPECT_EQ(tree.calls, 4u);
    EXPECT_DOUBLE_EQ(tree.total_ns, 1600);
    EXPECT_DOUBLE_EQ(tree.median_ns, 250);
    const auto& native = rows[0].row.algorithm == "tree" ? rows[1] : rows[0];
    EXPECT_EQ(native.calls, 1u);
    EXPECT_DOUBLE_EQ(native.median_ns, 50);
    EXPECT_EQ(native.row.reason, "user-defined operation");
}

TEST(InterposeCallLog, ALongRunKeepsABoundedSampleForItsMedian) {
    interpose::CallLog log;
    const interpose::CallRow row{sched::Collective::barrier, "tree", "bytes", 0, ""};
    for (int k = 0; k < 100000; ++k) log.record(row, k % 2 == 0 ? 100.0 : 300.0);
    const auto rows = log.summaries();
    ASSERT_EQ(rows.size(), 1u);
    EXPECT_EQ(rows[0].calls, 100000u);
    EXPECT_GE(rows[0].median_ns, 100);
    EXPECT_LE(rows[0].median_ns, 300);
}

}  // namespace
}  // namespace numacoll
