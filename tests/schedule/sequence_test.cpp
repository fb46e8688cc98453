// back_to_back: copies with their own tasks and buffers, each rank chained
// from its last task of one copy to its first of the next.
#include "schedule/sequence.hpp"

#include <gtest/gtest.h>

#include "common/error.hpp"
#include "schedule/validate_schedule.hpp"
#include "schedule_fixtures.hpp"

using namespace numacoll;

TEST(BackToBack, CopiesHaveTheirOwnTasksAndBuffers) {
    const sched::Schedule one = test::tree_allreduce("westmere", 4096, 0, 2);
    const sched::Schedule three = sched::back_to_back(one, 3);
    EXPECT_EQ(three.task_count(), 3 * one.task_count());
    EXPECT_EQ(three.buffers().size(), 3 * one.buffers().size());
    EXPECT_EQ(three.edge_count(), 3 * one.edge_count() + 2 * one.rank_count());
    EXPECT_EQ(three.spec.options.at("repeat"), "3");
    EXPECT_EQ(three.buffer(static_cast<int>(one.buffers().size())).name, one.buffer(0).name + ".1");
    EXPECT_NO_THROW(sched::validate_schedule(three));
    // Copy 2's tasks are copy 0's, moved by two copies of buffers.
    const int last = three.task_count() - 1;
    const sched::Task& original = one.task(one.task_count() - 1);
    const sched::Task& copied = three.task(last);
    EXPECT_EQ(copied.kind, original.kind);
    EXPECT_EQ(copied.thread, original.thread);
    if (original.write.buffer >= 0) {
        EXPECT_EQ(copied.write.buffer, original.write.buffer + 2 * static_cast<int>(one.buffers().size()));
    }
}

TEST(BackToBack, EachRankStartsTheNextCopyAfterItsOwnPart) {
    const sched::Schedule one = test::tree_allreduce("westmere", 64);
    const sched::Schedule two = sched::back_to_back(one, 2);
    for (int rank = 0; rank < one.rank_count(); ++rank) {
        int first = -1, last = -1;
        for (int id = 0; id < one.task_count(); ++id)
            if (one.task(id).thread == rank) {
                if (first < 0) first = id;
                last = id;
            }
        ASSERT_GE(first, 0);
        const auto deps = two.predecessors(one.task_count() + first);
        EXPECT_NE(std::find(deps.begin(), deps.end(), last), deps.end()) << "rank " << rank;
    }
}

TEST(BackToBack, OneCopyIsTheScheduleAndNoCopyIsRefused) {
    const sched::Schedule one = test::tree_allreduce("westmere", 64);
    const sched::Schedule same = sched::back_to_back(one, 1);
    EXPECT_EQ(same.task_count(), one.task_count());
    EXPECT_EQ(same.buffer(0).name, one.buffer(0).name);
    EXPECT_THROW(sched::back_to_back(one, 0), UsageError);
}
