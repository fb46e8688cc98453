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

TEST(Sweep, EveryCandidateIsTimedAtEveryPointItTakes) {
    tune::SweepRequest request;
    request.collectives = {sched::Collective::bcast};
    request.algorithms = {"tree", "chain"};
    request.nodes = {1, 2};
    request.bytes = {64, 2 << 20};
    // Segments of 1 byte make 2 Mi chunks of 2 MiB on each of 4 ranks: more tasks than the bound, refused
    // before generating, as sim refuses it; at 64 bytes they are taken.
    request.segments = {1, 65536};
    const auto machine = std::make_shared<const topo::Machine>(topo::load_machine("synthetic:Package:1 Core:4"));
    EXPECT_EQ(tune::planned_timings(request), 3u * 2u * 2u);
    int timed = 0;
    const auto points = tune::sweep(
        request, machine,
        [&](const sched::CollectiveSpec& spec, const algo::Layout& layout) -> std::optional<tune::Timing> {
            const auto segment = spec.options.find("segment");
            EXPECT_FALSE(spec.bytes == (2u << 20) && segment != spec.options.end() && segment->second == "1")
                << "a refused candidate was timed";
            ++timed;
            return tune::Timing{static_cast<double>(layout.size()), 1.0, 2.0};
        });
    ASSERT_EQ(points.size(), 4u);
    EXPECT_EQ(timed, 3 * 4 - 2);
    EXPECT_EQ(points[1].bytes, 2u << 20);
    ASSERT_EQ(points[1].times.size(), 3u);
    EXPECT_TRUE(points[1].times[0].time_ns);   // tree
    EXPECT_FALSE(points[1].times[1].time_ns);  // chain, 1-byte segments
    EXPECT_TRUE(points[1].times[2].time_ns);   // chain, 64 KiB segments
    EXPECT_EQ(points[3].nodes, 2);
    EXPECT_EQ(points[3].ranks_per_node, 4);
    EXPECT_EQ(points[3].times[2].p90_ns, 2.0);
}

// The expected end is reckoned from each timing's estimated tasks: a point
// of 2 MiB in 64 KiB segments weighs more than one of 64 bytes, a refused
// one nothing.
TEST(Sweep, EachTimingIsWeighedByItsEstimatedTasks) {
    tune::SweepRequest request;
    request.collectives = {sched::Collective::bcast};
    request.algorithms = {"chain"};
    request.bytes = {64, 2 << 20};
    request.segments = {1, 65536};
    const auto machine = std::make_shared<const topo::Machine>(topo::load_machine("synthetic:Package:1 Core:4"));
    const tune::SweepCheck check = tune::check_sweep(request, machine);
    ASSERT_EQ(check.estimated_tasks.size(), tune::planned_timings(request));
    // Sweep order: 64 B (1-byte, 64 KiB segments), then 2 MiB (the same).
    EXPECT_GT(check.estimated_tasks[0], 0.0);
    EXPECT_GT(check.estimated_tasks[1], 0.0);
    EXPECT_EQ(check.estimated_tasks[2], 0.0);  // refused: more tasks than the bound
    EXPECT_GT(check.estimated_tasks[3], check.estimated_tasks[1]);
}

TEST(Sweep, APointNoCandidateTakesIsRefusedBeforeAnyTiming) {
    tune::SweepRequest request;
    request.collectives = {sched::Collective::allreduce};
    request.algorithms = {"tree", "tiled"};
    request.bytes = {4, 64};  // 4 bytes is no whole 8-byte element
    const auto machine = std::make_shared<const topo::Machine>(topo::load_machine("synthetic:Package:1 Core:4"));
    int timed = 0;
    try {
        tune::sweep(request, machine, [&](const sched::CollectiveSpec&, const algo::Layout&) {
            ++timed;
            return std::optional<tune::Timing>(tune::Timing{1.0, std::nullopt, std::nullopt});
        });
        FAIL() << "the sweep ran";
    } catch (const UsageError& error) {
        EXPECT_STREQ(error.what(),
                     "allreduce at 1 node x 4 ranks, 4B: allreduce works on 8-byte elements (double): 4 bytes is not a multiple of 8");
    }
    EXPECT_EQ(timed, 0);
}

TEST(Sweep, ASegmentNoCandidateCanUseIsRefused) {
    tune::SweepRequest request;
    request.collectives = {sched::Collective::bcast};
    request.algorithms = {"tree", "chain"};
    request.bytes = {2 << 20};
    request.segments = {1};
    const auto machine = std::make_shared<const topo::Machine>(topo::load_machine("synthetic:Package:1 Core:4"));
    try {
        (void)tune::check_sweep(request, machine);
        FAIL() << "the sweep was let through";
    } catch (const UsageError& error) {
        EXPECT_TRUE(std::string(error.what()).starts_with("--segments 1 fits no candidate at any point: bcast at 1 node "
                                                          "x 4 ranks, 2MiB: the bcast chain 2MiB schedule"))
            << error.what();
    }
    // A root no shape has is refused likewise.
    request.segments.clear();
    request.bytes = {64};
    request.root = 4;
    EXPECT_THROW((void)tune::check_sweep(request, machine), UsageError);
}
