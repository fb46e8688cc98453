// The engine runs schedules, not algorithms: every registered algorithm
// simulates on the paper's two machines with no engine change, and takes
// a positive time that ends with its last task.
#include <gtest/gtest.h>

#include "algorithms/registry.hpp"
#include "sim/engine.hpp"
#include "sim_fixtures.hpp"

using namespace numacoll;

TEST(EveryAlgorithm, SimulatesOnWestmereAndMagnycours) {
    for (const char* topology : {"westmere", "magnycours"}) {
        const auto machine = test::load(topology);
        const algo::Layout layout = algo::make_layout(machine, {});
        const sim::PlatformModel platform(machine, costs::params_for(*machine, ""), 1);
        for (const auto& info : algo::algorithm_registry()) {
            SCOPED_TRACE(std::string(topology) + " " + sched::to_string(info.collective) + " " + info.name);
            sched::CollectiveSpec spec;
            spec.collective = info.collective;
            spec.algorithm = info.name;
            spec.bytes = info.collective == sched::Collective::barrier ? 0 : 4096;
            spec.root = layout.size() - 1;
            const sched::Schedule schedule = algo::generate_schedule(spec, layout);
            const sim::Simulation result = sim::simulate(schedule, platform);
            EXPECT_GT(result.timeline.makespan_ns, 0);
            ASSERT_EQ(static_cast<int>(result.timeline.tasks.size()), schedule.task_count());
            double last_end = 0;
            for (const auto& task : result.timeline.tasks) last_end = std::max(last_end, task.end_ns);
            EXPECT_DOUBLE_EQ(result.timeline.makespan_ns, last_end);
        }
    }
}
