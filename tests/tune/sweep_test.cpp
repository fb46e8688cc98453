// The sweep: candidates and their variants, what it plans, and a sweep with
// a hand-made timer (the engine is the caller's).
#include "tune/sweep.hpp"

#include <gtest/gtest.h>

#include "algorithms/registry.hpp"
#include "common/error.hpp"
#include "topologies/machine.hpp"

using namespace numacoll;

TEST(Sweep, VariantsMultiplyOnlyTheAlgorithmsThatHaveTheOption) {
    tune::SweepRequest request;
    request.collectives = {sched::Collective::bcast};
    request.algorithms = {"chain", "binomial", "tree"};
    request.segments = {8192, 65536};
    request.fanouts = {1, 2, 4};
    const auto candidates = tune::candidates_for(sched::Collective::bcast, request);
    // chain: 2 segments x 3 fan-outs; binomial: 2 segments; tree: neither option.
    ASSERT_EQ(candidates.size(), 6u + 2u + 1u);
    EXPECT_EQ(candidates[0].algorithm, "chain");
    EXPECT_EQ(candidates[0].options.at("segment"), "8192");
    EXPECT_EQ(candidates[0].options.at("fanout"), "1");
    EXPECT_EQ(candidates[8].algorithm, "tree");
    EXPECT_TRUE(candidates[8].options.empty());
    request.algorithms = {"nosuch"};
    EXPECT_THROW(tune::candidates_for(sched::Collective::bcast, request), UsageError);
}

TEST(Sweep, AnAlgorithmOfAnotherCollectiveIsSkippedNotRefused) {
    tune::SweepRequest request;
    request.collectives = {sched::Collective::bcast, sched::Collective::reduce};
    request.algorithms = {"binomial", "in-order-binary"};  // a reduce only, and both
    EXPECT_EQ(tune::candidates_for(sched::Collective::bcast, request).size(), 1u);
    EXPECT_EQ(tune::candidates_for(sched::Collective::reduce, request).size(), 2u);
}

TEST(Sweep, EveryCandidateIsTimedAtEveryPointAndRefusalsHaveNoTime) {
    tune::SweepRequest request;
    request.collectives = {sched::Collective::allreduce};
    request.algorithms = {"tree", "tiled"};
    request.nodes = {1, 2};
    request.bytes = {4, 64};  // 4 bytes is no whole 8-byte element: the generators refuse it
    const auto machine = std::make_shared<const topo::Machine>(topo::load_machine("synthetic:Package:1 Core:4"));
    EXPECT_EQ(tune::planned_timings(request), 2u * 2u * 2u);
    int timed = 0;
    const auto points = tune::sweep(
        request, machine,
        [&](const sched::CollectiveSpec& spec, const algo::Layout& layout) -> std::optional<tune::Timing> {
            const sched::Schedule schedule = algo::generate_schedule(spec, layout);  // throws for 4 bytes
            ++timed;
            return tune::Timing{static_cast<double>(schedule.task_count()), 1.0, 2.0};
        });
    ASSERT_EQ(points.size(), 4u);
    EXPECT_EQ(timed, 4);
    EXPECT_EQ(points[0].bytes, 4u);
    EXPECT_FALSE(points[0].times[0].time_ns);
    EXPECT_EQ(points[3].nodes, 2);
    EXPECT_EQ(points[3].ranks_per_node, 4);
    EXPECT_TRUE(points[3].times[1].time_ns);
    EXPECT_EQ(points[3].times[1].p90_ns, 2.0);
}
