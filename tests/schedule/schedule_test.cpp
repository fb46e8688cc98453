// Schedule storage: moving a schedule hands its graph over (no copy), a
// copy is independent of the original, and what it counts follows its tasks.
#include "schedule/schedule.hpp"

#include <gtest/gtest.h>

using namespace numacoll;

namespace {

sched::Schedule chain_of_flags(int tasks) {
    sched::Schedule schedule;
    schedule.ranks = {{0, 0, 0, 0, 0}, {0, 1, 1, 0, 0}};
    for (int id = 0; id < tasks; ++id) {
        sched::Task task;
        task.kind = sched::TaskKind::flag;
        task.thread = id % 2;
        task.peer = 1 - id % 2;
        task.label = "a-label-longer-than-fifteen-characters";
        schedule.add_task(task, id > 0 ? std::vector<int>{id - 1} : std::vector<int>{});
    }
    return schedule;
}

}  // namespace

TEST(Schedule, MoveHandsTheTasksOverWithoutCopying) {
    sched::Schedule original = chain_of_flags(5);
    const sched::Task* first = &original.task(0);
    sched::Schedule moved(std::move(original));
    EXPECT_EQ(&moved.task(0), first);  // same storage: nothing was copied
    EXPECT_EQ(moved.task_count(), 5);
    EXPECT_EQ(moved.successors(2), std::vector<int>{3});
    EXPECT_EQ(original.task_count(), 0);  // NOLINT: a moved-from schedule is empty and usable
    original.add_task(moved.task(0), {});
    EXPECT_EQ(original.task_count(), 1);

    sched::Schedule assigned;
    assigned = std::move(moved);
    EXPECT_EQ(&assigned.task(0), first);
    EXPECT_EQ(assigned.predecessors(4), std::vector<int>{3});
}

TEST(Schedule, CopyIsIndependent) {
    const sched::Schedule original = chain_of_flags(3);
    sched::Schedule copy = original;
    EXPECT_TRUE(copy == original);
    copy.add_edge(0, 2);
    EXPECT_EQ(copy.successors(0), (std::vector<int>{1, 2}));
    EXPECT_EQ(original.successors(0), std::vector<int>{1});
    EXPECT_NE(&copy.task(0), &original.task(0));
    EXPECT_EQ(copy.task(0).label, original.task(0).label);
}

TEST(Schedule, CountsItsTasksByKindAndTheApplicationsAsTheyAreAdded) {
    sched::Schedule schedule = chain_of_flags(3);
    EXPECT_TRUE(schedule.has_tasks_of(sched::TaskKind::flag));
    EXPECT_FALSE(schedule.has_tasks_of(sched::TaskKind::compute));
    EXPECT_FALSE(schedule.has_application_tasks());
    sched::Task compute;
    compute.kind = sched::TaskKind::compute;
    compute.flops = 1e6;
    compute.application = true;
    schedule.add_task(compute, {2});
    EXPECT_TRUE(schedule.has_tasks_of(sched::TaskKind::compute));
    EXPECT_TRUE(schedule.has_application_tasks());

    const sched::Schedule copy = schedule;
    EXPECT_TRUE(copy.has_application_tasks());
    const sched::Schedule moved = std::move(schedule);
    EXPECT_TRUE(moved.has_tasks_of(sched::TaskKind::compute));
    EXPECT_FALSE(schedule.has_application_tasks());  // NOLINT: moved from, it has no task
    EXPECT_FALSE(schedule.has_tasks_of(sched::TaskKind::flag));
}
