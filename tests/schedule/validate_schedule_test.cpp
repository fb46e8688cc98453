#include "schedule/validate_schedule.hpp"

#include <gtest/gtest.h>

#include "common/error.hpp"
#include "schedule_fixtures.hpp"

using namespace numacoll;

namespace {
bool mentions(const std::vector<std::string>& problems, const std::string& words) {
    for (const auto& problem : problems)
        if (problem.find(words) != std::string::npos) return true;
    return false;
}

// Two ranks on one node, one buffer each, built by hand.
sched::Schedule two_ranks() {
    sched::Schedule schedule;
    schedule.spec.bytes = 64;
    schedule.ranks = {{0, 0, 0, 0, 0}, {0, 1, 1, 0, 0}};
    schedule.add_buffer({"in0", 0, 64, sched::BufferRole::input, 0});
    schedule.add_buffer({"in1", 1, 64, sched::BufferRole::input, 0});
    schedule.add_buffer({"out0", 0, 64, sched::BufferRole::output, 0});
    schedule.add_buffer({"out1", 1, 64, sched::BufferRole::output, 0});
    return schedule;
}

sched::Task copy(int thread, sched::Range from, sched::Range to) {
    sched::Task task;
    task.kind = sched::TaskKind::copy;
    task.thread = thread;
    task.reads = {from};
    task.write = to;
    return task;
}

sched::Task flag(int from, int to) {
    sched::Task task;
    task.kind = sched::TaskKind::flag;
    task.thread = from;
    task.peer = to;
    return task;
}
}  // namespace

TEST(ValidateSchedule, GeneratedTreeIsValid) {
    EXPECT_TRUE(sched::find_schedule_problems(test::tree_allreduce("westmere", 64)).empty());
    EXPECT_NO_THROW(sched::validate_schedule(test::tree_allreduce("magnycours", 200, 0, 3, {{"strip", "64"}})));
}

TEST(ValidateSchedule, UnorderedWritesAreARace) {
    auto schedule = two_ranks();
    schedule.add_task(copy(0, {0, 0, 64}, {2, 0, 64}), {});
    schedule.add_task(copy(0, {0, 0, 32}, {2, 0, 32}), {});  // same thread, but no edge
    auto problems = sched::find_schedule_problems(schedule);
    ASSERT_FALSE(problems.empty());
    EXPECT_TRUE(mentions(problems, "both write out0[0,32)")) << problems.front();
}

TEST(ValidateSchedule, OverwritingWhatSomeoneMayStillReadIsARace) {
    auto schedule = two_ranks();
    const int f = schedule.add_task(flag(0, 1), {});
    schedule.add_task(copy(1, {0, 0, 64}, {3, 0, 64}), {f});  // rank 1 reads in0 after rank 0 said so
    schedule.add_task(copy(0, {2, 0, 64}, {0, 0, 64}), {});   // rank 0 overwrites in0 meanwhile... out0 unwritten too
    auto problems = sched::find_schedule_problems(schedule);
    EXPECT_TRUE(mentions(problems, "reads out0[0,64) before any task writes it"));
    EXPECT_TRUE(mentions(problems, "while task 1 may still read it"));
}

TEST(ValidateSchedule, ReadingAnInputBeforeItsOwnerArrivesIsRefused) {
    auto schedule = two_ranks();
    schedule.add_task(copy(1, {0, 0, 64}, {3, 0, 64}), {});
    auto problems = sched::find_schedule_problems(schedule);
    EXPECT_TRUE(mentions(problems, "before rank 0 has signalled"));
}

TEST(ValidateSchedule, CrossThreadEdgeNeedsAFlag) {
    auto schedule = two_ranks();
    const int a = schedule.add_task(copy(0, {0, 0, 64}, {2, 0, 64}), {});
    schedule.add_task(copy(1, {2, 0, 64}, {3, 0, 64}), {a});
    auto problems = sched::find_schedule_problems(schedule);
    EXPECT_TRUE(mentions(problems, "without a flag or net task")) << problems.front();
}

TEST(ValidateSchedule, CyclesAndBackwardEdgesAreRefused) {
    auto schedule = two_ranks();
    const int a = schedule.add_task(flag(0, 1), {});
    const int b = schedule.add_task(flag(1, 0), {a});
    schedule.add_edge(b, a);
    EXPECT_TRUE(mentions(sched::find_schedule_problems(schedule), "cycle"));
    EXPECT_THROW(sched::validate_schedule(schedule), CheckError);
}

TEST(ValidateSchedule, MalformedTasksAreNamed) {
    auto schedule = two_ranks();
    schedule.add_task(copy(0, {0, 0, 64}, {2, 32, 64}), {});  // past the end of out0
    EXPECT_TRUE(mentions(sched::find_schedule_problems(schedule), "writes outside its buffer"));
    auto other = two_ranks();
    other.add_task(flag(0, 0), {});
    EXPECT_TRUE(mentions(sched::find_schedule_problems(other), "must signal another existing rank"));
    auto net = two_ranks();
    sched::Task task = copy(0, {0, 0, 64}, {3, 0, 64});
    task.kind = sched::TaskKind::net;
    task.peer = 1;
    net.add_task(task, {});
    EXPECT_TRUE(mentions(sched::find_schedule_problems(net), "must send to a rank of another node"));
}

TEST(ValidateSchedule, WritingAnotherRanksOutputNeedsThatRankToWait) {
    // Rank 0 writes rank 1's output and flags rank 1, but no task of rank 1
    // waits for the flag: rank 1 may leave with its output unwritten.
    auto schedule = two_ranks();
    const int write = schedule.add_task(copy(0, {0, 0, 64}, {3, 0, 64}), {});
    const int told = schedule.add_task(flag(0, 1), {write});
    auto problems = sched::find_schedule_problems(schedule);
    EXPECT_TRUE(mentions(problems, "rank 1 is never told")) << (problems.empty() ? "" : problems.front());
    // With a task of rank 1 waiting for the flag, it is fine.
    sched::Task wait;
    wait.kind = sched::TaskKind::wait;
    wait.thread = 1;
    schedule.add_task(wait, {told});
    EXPECT_FALSE(mentions(sched::find_schedule_problems(schedule), "never told"));
}

TEST(ValidateSchedule, ComputeIsRealWorkAndWaitIsNone) {
    // The problems of two ranks with one task of `kind` and `flops`.
    const auto problems_of = [](sched::TaskKind kind, double flops) {
        auto schedule = two_ranks();
        sched::Task task;
        task.kind = kind;
        task.thread = 0;
        task.flops = flops;
        schedule.add_task(task, {});
        return sched::find_schedule_problems(schedule);
    };
    EXPECT_TRUE(mentions(problems_of(sched::TaskKind::compute, 0), "a task that only waits is a wait task"));
    EXPECT_TRUE(mentions(problems_of(sched::TaskKind::wait, 100), "is a wait task and must not compute"));
    EXPECT_FALSE(mentions(problems_of(sched::TaskKind::compute, 1e6), "compute"));
    EXPECT_FALSE(mentions(problems_of(sched::TaskKind::wait, 0), "wait task"));
}
