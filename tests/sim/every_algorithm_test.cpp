// The engine runs schedules, not algorithms: every registered algorithm
// simulates on every bundled machine, on 1 to 16 nodes (the alltoalls on 4
// ranks a node), with no engine change, and takes a positive time that ends
// with its last task.
#include <gtest/gtest.h>

#include <algorithm>

#include "algorithms/registry.hpp"
#include "schedule/process_form.hpp"
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

// The algorithm of `info` at `bytes` (none for a barrier), rooted at the last rank.
sched::CollectiveSpec spec_of(const algo::AlgorithmInfo& info, std::uint64_t bytes, const algo::Layout& layout) {
    sched::CollectiveSpec spec;
    spec.collective = info.collective;
    spec.algorithm = info.name;
    spec.bytes = info.collective == sched::Collective::barrier ? 0 : bytes;
    spec.root = layout.size() - 1;
    return spec;
}

// Bundled westmere nodes: the layout of all their cores and the platform.
struct WestmereNodes {
    explicit WestmereNodes(int nodes)
        : machine(test::load("westmere")),
          layout(algo::make_layout(machine, [nodes] {
              algo::LayoutOptions options;
              options.nodes = nodes;
              return options;
          }())),
          platform(machine, costs::params_for(*machine, ""), nodes) {}
    std::shared_ptr<const topo::Machine> machine;
    algo::Layout layout;
    sim::PlatformModel platform;
};

}  // namespace

class EveryAlgorithm : public ::testing::TestWithParam<std::string> {};

TEST_P(EveryAlgorithm, SimulatesOnOneToSixteenNodes) {
    const auto machine = test::load(GetParam());
    for (int nodes : {1, 3, 16}) {
        algo::LayoutOptions options;
        options.nodes = nodes;
        const algo::Layout full = algo::make_layout(machine, options);
        // An alltoall's messages between nodes all fly at once: on every core
        // of 16 magnycours nodes (768 ranks) SimGrid's solver would take hours
        // (docs/performance.md); 4 ranks a node keep it to a second.
        options.ranks_per_node = std::min(4, machine->core_count());
        const algo::Layout few = algo::make_layout(machine, options);
        const sim::PlatformModel platform(machine, costs::params_for(*machine, ""), nodes);
        for (const auto& info : algo::algorithm_registry()) {
            const algo::Layout& layout = info.collective == sched::Collective::alltoall && nodes > 1 ? few : full;
            if (!algo::runs_on(info, layout.size())) continue;
            SCOPED_TRACE(GetParam() + " " + std::to_string(nodes) + " node(s) " + sched::to_string(info.collective) +
                         " " + info.name);
            const sched::Schedule schedule = algo::generate_schedule(spec_of(info, 4096, layout), layout);
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
    const WestmereNodes nodes(3);
    const algo::Layout& layout = nodes.layout;
    const sim::PlatformModel& platform = nodes.platform;
    for (const auto& info : algo::algorithm_registry()) {
        if (info.collective == sched::Collective::barrier || !algo::runs_on(info, layout.size())) continue;
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

// The process form of every algorithm simulates like any schedule: its
// copies into and out of the segment are copies, its flags flags, so it
// takes at least as long as the thread form, and longer where a rank's input
// is copied in before another reads it (a tree's children). The process
// form of a message-passing algorithm trades each message's overheads for
// the copies through the segment: it runs to its end.
TEST(EveryAlgorithmAsProcesses, TheCopiesInAndOutCostTime) {
    const WestmereNodes nodes(2);
    const algo::Layout& layout = nodes.layout;
    const sim::PlatformModel& platform = nodes.platform;
    for (const auto& info : algo::algorithm_registry()) {
        if (!algo::runs_on(info, layout.size())) continue;
        SCOPED_TRACE(std::string(sched::to_string(info.collective)) + " " + info.name);
        const sched::Schedule threads = algo::generate_schedule(spec_of(info, 65536, layout), layout);
        const sched::Schedule processes = sched::process_form(threads);
        const sim::Simulation as_threads = sim::simulate(threads, platform);
        const sim::Simulation as_processes = sim::simulate(processes, platform);
        ASSERT_NO_FATAL_FAILURE(expect_ran_to_its_end(as_processes, processes));
        if (info.ranks != sched::RankKind::thread) continue;
        EXPECT_GE(as_processes.timeline.makespan_ns, as_threads.timeline.makespan_ns);
        if (info.name == "tree" && sched::is_reduction(info.collective)) {
            EXPECT_GT(as_processes.timeline.makespan_ns, as_threads.timeline.makespan_ns);
        }
    }
}
