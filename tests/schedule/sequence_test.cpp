// back_to_back and sequence: parts with their own tasks and buffers, each
// rank chained from its last task so far to its first of the next part.
#include "schedule/sequence.hpp"

#include <gtest/gtest.h>

#include <algorithm>

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

TEST(Sequence, JoinsDifferentCollectivesOnTheSameRanks) {
    const sched::Schedule allreduce = test::tree_allreduce("westmere", 256);
    const sched::Schedule bcast = test::schedule("westmere", sched::Collective::bcast, "tree", 1024, 0, 1, 5);
    const sched::Schedule joined = sched::sequence({allreduce, bcast}, 2);
    EXPECT_EQ(joined.task_count(), 2 * (allreduce.task_count() + bcast.task_count()));
    EXPECT_EQ(joined.buffers().size(), 2 * (allreduce.buffers().size() + bcast.buffers().size()));
    EXPECT_EQ(joined.spec.algorithm, "sequence");
    EXPECT_EQ(joined.spec.options.at("sequence"), "allreduce/tree/256B+bcast/tree/1KiB");
    EXPECT_EQ(joined.spec.options.at("repeat"), "2");
    EXPECT_EQ(joined.spec.options.size(), 2u);  // the first part's own options do not describe the rest
    EXPECT_EQ(joined.buffer(static_cast<int>(allreduce.buffers().size())).name, bcast.buffer(0).name + ".1");
    EXPECT_NO_THROW(sched::validate_schedule(joined));
    // Each rank's first bcast task waits for its own last allreduce task,
    // or for its last task before that when the allreduce gave it none.
    for (int rank = 0; rank < allreduce.rank_count(); ++rank) {
        int last_allreduce = -1, first_bcast = -1;
        for (int id = 0; id < allreduce.task_count(); ++id)
            if (allreduce.task(id).thread == rank) last_allreduce = id;
        for (int id = 0; id < bcast.task_count() && first_bcast < 0; ++id)
            if (bcast.task(id).thread == rank) first_bcast = id;
        if (first_bcast < 0) continue;
        const auto deps = joined.predecessors(allreduce.task_count() + first_bcast);
        EXPECT_NE(std::find(deps.begin(), deps.end(), last_allreduce), deps.end()) << "rank " << rank;
    }
}

TEST(Sequence, RefusesCollectivesOnOtherRanks) {
    const sched::Schedule one_node = test::tree_allreduce("westmere", 64);
    const sched::Schedule two_nodes = test::tree_allreduce("westmere", 64, 0, 2);
    try {
        (void)sched::sequence({one_node, two_nodes});
        ADD_FAILURE() << "a sequence over different ranks was joined";
    } catch (const InputError& error) {
        EXPECT_NE(std::string(error.what()).find("collective 2 of the sequence"), std::string::npos) << error.what();
    }
    EXPECT_THROW((void)sched::sequence({}), InputError);
}

TEST(Sequence, OnePartIsBackToBack) {
    const sched::Schedule one = test::tree_allreduce("westmere", 64);
    const sched::Schedule three = sched::sequence({one}, 3);
    EXPECT_EQ(three.spec.algorithm, "tree");
    EXPECT_EQ(three.spec.options.at("repeat"), "3");
    EXPECT_EQ(three.task_count(), 3 * one.task_count());
}

TEST(Sequence, RefusesThreadsAndProcessesInOneSequence) {
    const sched::Schedule threads = test::tree_allreduce("westmere", 64);
    const sched::Schedule processes = test::schedule("westmere", sched::Collective::bcast, "binomial", 64, 0, 1, 0);
    ASSERT_NE(threads.rank_kind, processes.rank_kind);
    try {
        (void)sched::sequence({threads, processes});
        ADD_FAILURE() << "threads and processes were joined";
    } catch (const InputError& error) {
        EXPECT_NE(std::string(error.what()).find("its ranks are processes, the first's threads"), std::string::npos)
            << error.what();
    }
}
