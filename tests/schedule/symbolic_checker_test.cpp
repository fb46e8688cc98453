#include "schedule/symbolic_checker.hpp"

#include <gtest/gtest.h>

#include "schedule_fixtures.hpp"

using namespace numacoll;

namespace {
std::string first_problem(const sched::CheckReport& report) {
    return report.problems.empty() ? "" : report.problems.front();
}

// The Westmere 64 B tree (see `numacoll dag`): task 1 is rank 0 reducing
// in0 + in1 after flag 0; task 7 is rank 0 folding rank 2's partial (out2,
// announced by flag 6); task 21 is the inter-socket step reading out6.
const sched::Schedule& westmere_tree() {
    static const auto schedule = test::tree_allreduce("westmere", 64);
    return schedule;
}
}  // namespace

TEST(SymbolicChecker, ProvesTheWestmereTree) {
    const auto& schedule = westmere_tree();
    ASSERT_EQ(schedule.task(7).kind, sched::TaskKind::reduce);
    ASSERT_EQ(schedule.task(6).kind, sched::TaskKind::flag);
    auto report = sched::check_schedule(schedule);
    EXPECT_TRUE(report.holds) << first_problem(report);
    EXPECT_EQ(report.outputs_checked, 12);
}

TEST(SymbolicChecker, RejectsAMissingEdge) {
    // Rank 0 folds rank 2's partial without waiting for rank 2's flag.
    auto broken = test::rebuild(westmere_tree(), [](int id, sched::Task&, std::vector<int>& deps) {
        if (id == 7) std::erase(deps, 6);
        return true;
    });
    auto report = sched::check_schedule(broken);
    EXPECT_FALSE(report.holds);
    EXPECT_NE(first_problem(report).find("does not depend on it"), std::string::npos) << first_problem(report);
}

TEST(SymbolicChecker, RejectsAMissingEdgeOnALeaf) {
    // Rank 0 reads rank 1's input before rank 1 said it arrived.
    auto broken = test::rebuild(westmere_tree(), [](int id, sched::Task&, std::vector<int>& deps) {
        if (id == 1) std::erase(deps, 0);
        return true;
    });
    auto report = sched::check_schedule(broken);
    EXPECT_FALSE(report.holds);
    EXPECT_NE(first_problem(report).find("before rank 1 has signalled"), std::string::npos) << first_problem(report);
}

TEST(SymbolicChecker, RejectsADoubleContribution) {
    auto broken = test::rebuild(westmere_tree(), [](int id, sched::Task& task, std::vector<int>&) {
        if (id == 7) task.reads.push_back(task.reads.back());  // rank 2's partial twice
        return true;
    });
    auto report = sched::check_schedule(broken);
    EXPECT_FALSE(report.holds);
    EXPECT_NE(first_problem(report).find("contribution 2 times"), std::string::npos) << first_problem(report);
}

TEST(SymbolicChecker, RejectsALostContribution) {
    auto broken = test::rebuild(westmere_tree(), [](int id, sched::Task& task, std::vector<int>&) {
        if (id == 21) task.reads.pop_back();  // the other socket's partial is dropped
        return true;
    });
    auto report = sched::check_schedule(broken);
    EXPECT_FALSE(report.holds);
    EXPECT_NE(first_problem(report).find("is missing rank 6's contribution"), std::string::npos) << first_problem(report);
}

TEST(SymbolicChecker, RejectsAMisplacedChunk) {
    // A 128 B vector in two 64 B chunks: rank 1 copies the wrong half.
    auto schedule = test::tree_allreduce("westmere", 128, 2, 1, {{"strip", "64"}});
    auto broken = test::rebuild(schedule, [](int, sched::Task& task, std::vector<int>&) {
        if (task.kind == sched::TaskKind::copy && task.write.offset == 64) task.reads[0].offset = 0;
        return true;
    });
    auto report = sched::check_schedule(broken);
    ASSERT_FALSE(report.holds);
    EXPECT_NE(first_problem(report).find("misplaced"), std::string::npos) << first_problem(report);
}

TEST(SymbolicChecker, RejectsAnOutputNobodyWrites) {
    auto broken = test::rebuild(westmere_tree(), [](int id, sched::Task&, std::vector<int>&) { return id != 43; });
    auto report = sched::check_schedule(broken);
    EXPECT_FALSE(report.holds);
    EXPECT_NE(first_problem(report).find("rank 11's output out11[0,64) is never written"), std::string::npos)
        << first_problem(report);
}

TEST(SymbolicChecker, EmptyVectorNeedsEveryoneToWaitForEveryone) {
    auto barrier = test::tree_allreduce("westmere", 0);
    EXPECT_TRUE(sched::check_schedule(barrier).holds);
    // Without the release flags rank 0 sends, the others leave early.
    auto broken = test::rebuild(barrier, [](int, sched::Task& task, std::vector<int>&) {
        return !(task.kind == sched::TaskKind::flag && task.thread == 0 && task.peer == 5);
    });
    auto report = sched::check_schedule(broken);
    EXPECT_FALSE(report.holds);
    EXPECT_NE(first_problem(report).find("rank 5 can finish before"), std::string::npos) << first_problem(report);
}

TEST(SymbolicChecker, SchedulesWithNothingToProveDoNotHold) {
    sched::Schedule empty;
    empty.spec.bytes = 64;
    EXPECT_FALSE(sched::check_schedule(empty).holds);  // no ranks at all
    empty.ranks = {{0, 0, 0, 0, 0}, {0, 1, 1, 0, 0}};
    auto report = sched::check_schedule(empty);
    EXPECT_FALSE(report.holds);
    EXPECT_NE(first_problem(report).find("rank 0 has no input buffer"), std::string::npos) << first_problem(report);
    // Buffers shorter than the collective's size would leave bytes unchecked.
    for (int rank = 0; rank < 2; ++rank) {
        empty.add_buffer({"in", rank, 0, sched::BufferRole::input, 0});
        empty.add_buffer({"out", rank, 0, sched::BufferRole::output, 0});
    }
    report = sched::check_schedule(empty);
    EXPECT_FALSE(report.holds);
    EXPECT_NE(first_problem(report).find("holds 0 bytes, not the 64"), std::string::npos) << first_problem(report);
}

TEST(SymbolicChecker, ASignalNobodyWaitsForIsNoBarrier) {
    // Two ranks flag each other, but neither waits: either may leave at once.
    sched::Schedule schedule;
    schedule.ranks = {{0, 0, 0, 0, 0}, {0, 1, 1, 0, 0}};
    for (int rank = 0; rank < 2; ++rank) {
        schedule.add_buffer({"in", rank, 0, sched::BufferRole::input, 0});
        schedule.add_buffer({"out", rank, 0, sched::BufferRole::output, 0});
    }
    sched::Task flag;
    flag.kind = sched::TaskKind::flag;
    flag.thread = 0;
    flag.peer = 1;
    schedule.add_task(flag, {});
    flag.thread = 1;
    flag.peer = 0;
    schedule.add_task(flag, {});
    auto report = sched::check_schedule(schedule);
    EXPECT_FALSE(report.holds);
    EXPECT_NE(first_problem(report).find("can finish before"), std::string::npos) << first_problem(report);
}
