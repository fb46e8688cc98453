// Proves allreduce "tree" with the symbolic checker on every rank count of
// each machine, for arity 2, 3 and 4, both broadcasts, 1 to 4 nodes, with
// and without strip mining. 200 bytes is neither a multiple of a cache line
// nor of most rank counts; with strip=64 it runs as chunks of 64+64+64+8.
#include <gtest/gtest.h>
#include <fmt/format.h>

#include "../schedule_fixtures.hpp"
#include "common/error.hpp"
#include "schedule/symbolic_checker.hpp"

#include <map>
#include <set>

using namespace numacoll;

class TreeAllreduceProof : public ::testing::TestWithParam<std::string> {};

TEST_P(TreeAllreduceProof, HoldsForEveryShape) {
    const auto machine = test::machine(GetParam());
    const int cores = std::min(machine->core_count(), 64);
    for (int ranks = 1; ranks <= cores; ++ranks)
        for (int nodes = 1; nodes <= 4; ++nodes)
            for (const char* arity : {"2", "3", "4"})
                for (const char* bcast : {"1stage", "2stage"})
                    for (const char* strip : {"off", "64"}) {
                        auto schedule = test::tree_allreduce(GetParam(), 200, ranks, nodes,
                                                             {{"arity", arity}, {"bcast", bcast}, {"strip", strip}});
                        auto report = sched::check_schedule(schedule);
                        ASSERT_TRUE(report.holds)
                            << fmt::format("{} ranks={} nodes={} arity={} bcast={} strip={}: {}", GetParam(), ranks,
                                           nodes, arity, bcast, strip, report.problems.front());
                        ASSERT_EQ(report.outputs_checked, ranks * nodes);
                    }
}

TEST_P(TreeAllreduceProof, EmptyVectorIsABarrier) {
    const auto machine = test::machine(GetParam());
    for (int ranks : {1, 2, std::min(machine->core_count(), 64)})
        if (ranks <= machine->core_count())
        for (int nodes = 1; nodes <= 4; ++nodes)
            for (const char* bcast : {"1stage", "2stage"}) {
                auto report = sched::check_schedule(test::tree_allreduce(GetParam(), 0, ranks, nodes, {{"bcast", bcast}}));
                ASSERT_TRUE(report.holds) << fmt::format("{} ranks={} nodes={}: {}", GetParam(), ranks, nodes,
                                                         report.problems.front());
            }
}

INSTANTIATE_TEST_SUITE_P(Machines, TreeAllreduceProof,
                         ::testing::Values("westmere", "magnycours", "live", "synthetic:Package:3 Core:5",
                                           "synthetic:Core:1", "synthetic:Package:7 Core:1",
                                           "synthetic:Package:4 L3Cache:2 Core:8"),
                         [](const auto& info) {
                             std::string name;
                             for (char c : info.param) name += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
                             return name;
                         });

TEST(TreeAllreduce, WestmereFollowsThePaperSteps) {
    // HPDC'13 section 3.4: three intra-socket rounds, one inter-socket round,
    // then a one-stage broadcast in which 11 threads read the root's vector.
    auto schedule = test::tree_allreduce("westmere", 64);
    std::map<std::string, int> reduces;
    int copies = 0;
    for (int id = 0; id < schedule.task_count(); ++id) {
        const auto& task = schedule.task(id);
        if (task.kind == sched::TaskKind::reduce) ++reduces[task.label];
        if (task.kind == sched::TaskKind::copy) {
            ++copies;
            EXPECT_EQ(task.reads.front().buffer, schedule.output_of(0));
        }
    }
    EXPECT_EQ(reduces["c0:reduce:package+L3:r0"], 6);  // 3 pairs per socket
    EXPECT_EQ(reduces["c0:reduce:package+L3:r1"], 2);
    EXPECT_EQ(reduces["c0:reduce:package+L3:r2"], 2);
    EXPECT_EQ(reduces["c0:reduce:machine:r0"], 1);
    EXPECT_EQ(reduces.size(), 4u);
    EXPECT_EQ(copies, 11);
}

TEST(TreeAllreduce, InterSocketTrafficOnlyAtTheTop) {
    auto schedule = test::tree_allreduce("magnycours", 64, 0, 1, {{"bcast", "2stage"}});
    for (int id = 0; id < schedule.task_count(); ++id) {
        const auto& task = schedule.task(id);
        if (task.kind != sched::TaskKind::reduce) continue;
        for (const auto& read : task.reads) {
            const int owner = schedule.buffer(read.buffer).owner;
            if (schedule.ranks[owner].package != schedule.ranks[task.thread].package) {
                EXPECT_NE(task.label.text().find(":machine:"), std::string::npos) << task.label;
            }
        }
    }
}

std::multiset<std::uint64_t> reduce_sizes(const sched::Schedule& schedule) {
    std::multiset<std::uint64_t> sizes;
    for (int id = 0; id < schedule.task_count(); ++id)
        if (schedule.task(id).kind == sched::TaskKind::reduce && schedule.task(id).thread == 0)
            sizes.insert(schedule.task(id).write.bytes);
    return sizes;
}

TEST(TreeAllreduce, AutomaticStripsAreHalfThePrivateCache) {
    // Westmere's L2 is 256 KiB per core: 1 MiB + 40 KiB runs as 8 strips of 128 KiB and one of 40 KiB.
    auto schedule = test::tree_allreduce("westmere", (1u << 20) + (40u << 10), 2);
    std::multiset<std::uint64_t> expected{40u << 10};
    for (int strip = 0; strip < 8; ++strip) expected.insert(128u << 10);
    EXPECT_EQ(reduce_sizes(schedule), expected);
    // Only shared caches: the smallest last-level cache (hwloc's synthetic default is 16 MiB); no caches: one strip.
    EXPECT_EQ(reduce_sizes(test::tree_allreduce("synthetic:Package:2 L3Cache:1 Core:2", 20u << 20, 2)),
              (std::multiset<std::uint64_t>{16u << 20, 4u << 20}));
    EXPECT_EQ(reduce_sizes(test::tree_allreduce("synthetic:Package:2 Core:2", 6u << 20, 2)),
              (std::multiset<std::uint64_t>{6u << 20}));
    auto whole = test::tree_allreduce("westmere", 16u << 20, 2, 1, {{"strip", "off"}});
    EXPECT_EQ(whole.task(1).write.bytes, 16u << 20);
}

TEST(TreeAllreduce, LeavesAnnounceTheirInputOnceSoStripsPipeline) {
    // Two ranks, four strips: rank 1 tells rank 0 once that its input is
    // ready, so rank 0 folds strip k+1 without waiting for rank 1's copy of
    // strip k. Partials of inner nodes are announced strip by strip.
    auto pair = test::tree_allreduce("synthetic:Core:2", 4u << 20, 2, 1, {{"strip", "1MiB"}});
    std::set<int> ready_flags, waited_on_from_rank_1;
    int reduces = 0;
    for (int id = 0; id < pair.task_count(); ++id) {
        const auto& task = pair.task(id);
        if (task.kind == sched::TaskKind::flag && task.label.text().ends_with(":ready")) ready_flags.insert(id);
        if (task.kind != sched::TaskKind::reduce) continue;
        ++reduces;
        for (int before : pair.predecessors(id))
            if (pair.task(before).thread == 1) waited_on_from_rank_1.insert(before);
    }
    EXPECT_EQ(reduces, 4);
    EXPECT_EQ(ready_flags.size(), 1u);
    EXPECT_EQ(waited_on_from_rank_1, ready_flags);
    // Four ranks (binary tree): the leaves 1 and 3 announce once, rank 2's partial once per strip.
    auto four = test::tree_allreduce("synthetic:Core:4", 4u << 20, 4, 1, {{"strip", "1MiB"}});
    std::map<int, int> ready_by_thread;
    for (int id = 0; id < four.task_count(); ++id)
        if (four.task(id).kind == sched::TaskKind::flag && four.task(id).label.text().ends_with(":ready"))
            ++ready_by_thread[four.task(id).thread];
    EXPECT_EQ(ready_by_thread, (std::map<int, int>{{1, 1}, {2, 4}, {3, 1}}));
}

TEST(TreeAllreduce, RefusesBadOptions) {
    EXPECT_THROW(test::tree_allreduce("westmere", 64, 0, 1, {{"arity", "1"}}), UsageError);
    EXPECT_THROW(test::tree_allreduce("westmere", 64, 0, 1, {{"bcast", "3stage"}}), UsageError);
    EXPECT_THROW(test::tree_allreduce("westmere", 64, 0, 1, {{"strip", "0"}}), UsageError);
    EXPECT_THROW(test::tree_allreduce("westmere", 64, 0, 1, {{"colour", "blue"}}), UsageError);
    EXPECT_THROW(test::tree_allreduce("westmere", 12), UsageError);  // not whole doubles
}
