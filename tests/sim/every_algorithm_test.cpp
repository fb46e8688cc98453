// The engine runs schedules, not algorithms: every registered algorithm
// simulates on every bundled machine, on 1 to 16 nodes, with no engine
// change, and takes a positive time that ends with its last task.
#include <gtest/gtest.h>

#include <algorithm>

#include "algorithms/registry.hpp"
#include "sim/engine.hpp"
#include "sim_fixtures.hpp"

using namespace numacoll;

namespace {

// Every task ran, and the makespan is the last task's end.
void expect_ran_to_its_end(const sim::Simulation& result, const sched::Schedule& schedule) {
    ASSERT_EQ(static_cast<int>(result.timeline.tasks.size()), schedule.task_count());
    double last_end = 0;
    for (const auto& task : result.timeline.tasks) last_end = std::max(last_end, task.end_ns);
    EXPECT_DOUBLE_EQ(result.timeline.makespan_ns, last_end);
}

}  // namespace

class EveryAlgorithm : public ::testing::TestWithParam<std::string> {};

TEST_P(EveryAlgorithm, SimulatesOnOneToSixteenNodes) {
    const auto machine = test::load(GetParam());
    for (int nodes : {1, 3, 16}) {
        algo::LayoutOptions options;
        options.nodes = nodes;
        const algo::Layout layout = algo::make_layout(machine, options);
        const sim::PlatformModel platform(machine, costs::params_for(*machine, ""), nodes);
        for (const auto& info : algo::algorithm_registry()) {
            SCOPED_TRACE(GetParam() + " " + std::to_string(nodes) + " node(s) " + sched::to_string(info.collective) +
                         " " + info.name);
            sched::CollectiveSpec spec;
            spec.collective = info.collective;
            spec.algorithm = info.name;
            spec.bytes = info.collective == sched::Collective::barrier ? 0 : 4096;
            spec.root = layout.size() - 1;
            const sched::Schedule schedule = algo::generate_schedule(spec, layout);
            const sim::Simulation result = sim::simulate(schedule, platform);
            EXPECT_GT(result.timeline.makespan_ns, 0);
            ASSERT_NO_FATAL_FAILURE(expect_ran_to_its_end(result, schedule));
        }
    }
}

// Megabytes across nodes take tens of simulated milliseconds, where SimGrid's
// default timing precision (1e-9 of its unit, numacoll's nanosecond) is
// finer than a double resolves: the scatter tree of 4 MiB blocks on three
// westmere nodes stopped with two transfers unfinished.
TEST(EveryAlgorithmLong, RunsToItsEndAtFourMebibytesOnThreeNodes) {
    const auto machine = test::load("westmere");
    algo::LayoutOptions options;
    options.nodes = 3;
    const algo::Layout layout = algo::make_layout(machine, options);
    const sim::PlatformModel platform(machine, costs::params_for(*machine, ""), options.nodes);
    for (const auto& info : algo::algorithm_registry()) {
        if (info.collective == sched::Collective::barrier) continue;
        SCOPED_TRACE(std::string(sched::to_string(info.collective)) + " " + info.name);
        sched::CollectiveSpec spec;
        spec.collective = info.collective;
        spec.algorithm = info.name;
        spec.bytes = 4 << 20;
        const sched::Schedule schedule = algo::generate_schedule(spec, layout);
        const sim::Simulation result = sim::simulate(schedule, platform);
        ASSERT_NO_FATAL_FAILURE(expect_ran_to_its_end(result, schedule));
        // Only the pingpong between two ranks of one node ends below a millisecond.
        if (info.collective != sched::Collective::pingpong) {
            EXPECT_GT(result.timeline.makespan_ns, 1e6);
        }
    }
}

INSTANTIATE_TEST_SUITE_P(BundledMachines, EveryAlgorithm,
                         ::testing::Values("westmere", "magnycours", "opteron8218", "haswell"));
