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

TEST(Schedule, TasksOverManyBlocksKeepTheirPlacesThroughCopiesAndMoves) {
    // Blocks hold 8,192 tasks; tasks of three reads keep them on the heap
    // (under a sanitizer, a lost or twice-freed read shows).
    sched::Schedule schedule;
    schedule.ranks = {{0, 0, 0, 0, 0}};
    schedule.add_buffer({"in", 0, 3 << 20, sched::BufferRole::input, 0});
    const int tasks = 20000;
    for (int id = 0; id < tasks; ++id) {
        sched::Task task;
        task.kind = sched::TaskKind::reduce;
        task.reads = {{0, 0, 8}, {0, 8, 8}, {0, static_cast<std::uint64_t>(id) * 16, 8}};
        task.write = {0, 16, 8};
        schedule.add_task(task, id > 0 ? std::vector<int>{id - 1} : std::vector<int>{});
    }
    const sched::Task* first = &schedule.task(0);
    const sched::Task* last = &schedule.task(tasks - 1);
    ASSERT_EQ(schedule.task(12345).reads.size(), 3u);
    EXPECT_EQ(schedule.task(12345).reads[2].offset, 12345u * 16);

    sched::Schedule copy = schedule;
    EXPECT_TRUE(copy == schedule);
    EXPECT_NE(&copy.task(tasks - 1), last);
    sched::Schedule moved = std::move(schedule);
    EXPECT_EQ(&moved.task(0), first);  // the blocks were handed over
    EXPECT_EQ(&moved.task(tasks - 1), last);
    moved = copy;  // copy-assigned over many blocks
    EXPECT_TRUE(moved == copy);
    sched::Schedule empty;
    empty = std::move(moved);  // into a schedule that never had a task
    EXPECT_EQ(empty.task_count(), tasks);
    EXPECT_EQ(empty.task(tasks - 1).reads[2].offset, static_cast<std::uint64_t>(tasks - 1) * 16);
}

namespace {

// Records what it is told, as "b<id>" and "t<id>" with the schedule's address.
struct Recorder final : sched::ScheduleWatcher {
    std::vector<std::pair<const sched::Schedule*, std::string>> seen;
    void buffer_added(const sched::Schedule& schedule, int id) noexcept override {
        seen.emplace_back(&schedule, "b" + std::to_string(id));
    }
    void task_added(const sched::Schedule& schedule, int id) noexcept override {
        seen.emplace_back(&schedule, "t" + std::to_string(id));
    }
};

}  // namespace

TEST(Schedule, AWatcherSeesEveryAdditionOnItsThreadWhileItsWatchLives) {
    Recorder outer, inner;
    sched::Schedule schedule;
    schedule.ranks = {{0, 0, 0, 0, 0}};
    schedule.add_buffer({"before", 0, 8, sched::BufferRole::input, -1});
    {
        const sched::ScheduleWatch watch(&outer);
        schedule.add_buffer({"in", 0, 8, sched::BufferRole::input, -1});
        sched::Task wait;
        wait.kind = sched::TaskKind::wait;
        schedule.add_task(wait, {});
        {
            const sched::ScheduleWatch nested(&inner);
            schedule.add_task(wait, {0});
            const sched::ScheduleWatch none(nullptr);
            schedule.add_task(wait, {1});
        }
        schedule.add_task(wait, {2});
    }
    schedule.add_buffer({"after", 0, 8, sched::BufferRole::temp, -1});
    using Seen = std::vector<std::pair<const sched::Schedule*, std::string>>;
    EXPECT_EQ(outer.seen, (Seen{{&schedule, "b1"}, {&schedule, "t0"}, {&schedule, "t3"}}));
    EXPECT_EQ(inner.seen, (Seen{{&schedule, "t1"}}));
}

TEST(Schedule, ALineageTravelsWithTheContents) {
    const sched::Schedule original = chain_of_flags(3);
    const sched::Schedule other = chain_of_flags(3);
    EXPECT_NE(original.lineage(), other.lineage());
    sched::Schedule copied = original;
    EXPECT_EQ(copied.lineage(), original.lineage());
    const sched::Schedule moved = std::move(copied);
    EXPECT_EQ(moved.lineage(), original.lineage());
    sched::Schedule assigned;
    assigned = other;
    EXPECT_EQ(assigned.lineage(), other.lineage());
}
