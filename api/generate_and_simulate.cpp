#include "api/generate_and_simulate.hpp"

#include "algorithms/registry.hpp"
#include "sim/planning_beside_generation.hpp"

namespace numacoll::api {

GeneratedSimulation generate_and_simulate(const sched::CollectiveSpec& spec, const algo::Layout& layout,
                                          const sim::PlatformModel& platform, std::size_t estimated_tasks,
                                          bool keep_schedule) {
    std::optional<sim::TaskPlans> plans;
    sched::Schedule schedule;
    {
        sim::PlanningBesideGeneration planning(platform, sim::ProgressStrategy::manual,
                                               algo::find_algorithm(spec.collective, spec.algorithm).ranks,
                                               estimated_tasks);
        schedule = algo::generate_schedule(spec, layout, &planning);
        plans.emplace(planning.finish(schedule));
    }
    GeneratedSimulation result;
    result.row = results::simulated_row(schedule, 0);
    result.spec = schedule.spec;
    auto free_while_simulating = [&] {
        if (keep_schedule) return;
        plans.reset();
        schedule = sched::Schedule();
    };
    result.simulation =
        sim::simulate_planned(schedule, platform, *plans, sim::ProgressStrategy::manual, free_while_simulating);
    plans.reset();
    result.row.time_ns = result.simulation.timeline.makespan_ns;
    if (keep_schedule) result.schedule = std::move(schedule);
    return result;
}

}  // namespace numacoll::api
