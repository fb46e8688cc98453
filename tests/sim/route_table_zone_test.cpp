// A node's zone holds the routes its simulation uses, not a slot for every
// pair of its hosts (sim/route_table_zone.hpp): a node of 4,096 ranks has
// 8,193 netpoints, whose pairs alone would take 537 MB in SimGrid's FullZone.
#include <gtest/gtest.h>

#include "algorithms/registry.hpp"
#include "costs/params.hpp"
#include "sim/engine.hpp"
#include "sim_fixtures.hpp"

using namespace numacoll;

TEST(RouteTableZone, ANodeOfManyRanksTakesMemoryForItsRoutesOnly) {
    const auto machine = test::load("synthetic:Package:1 NUMANode:1 L3Cache:16 Core:256");
    const sim::PlatformModel platform(machine, costs::load_params("generic"), 1);
    sched::CollectiveSpec spec;
    spec.algorithm = "tree";
    spec.bytes = 8;
    const sched::Schedule schedule = algo::generate_schedule(spec, algo::make_layout(machine, {}));
    ASSERT_EQ(schedule.rank_count(), 4096);
    const sim::Simulation simulated = sim::simulate(schedule, platform);
    EXPECT_GT(simulated.timeline.makespan_ns, 0);
    // The whole simulating process, SimGrid and the schedule included.
    EXPECT_LT(simulated.stats.peak_memory_bytes, 250L << 20) << simulated.stats.peak_memory_bytes;
}
