// api::generate_and_simulate: a collective's schedule generated with its
// tasks planned on a second thread as they are added
// (sim/planning_beside_generation.hpp), then simulated. The fast path of
// `numacoll sim` and of the library's simulate(); the result is the one
// sim::simulate gives for the same schedule.
//
// Without a schedule to keep (no trace to write), the schedule and its
// plans are freed while the simulation runs: at a million tasks, 20-30 ms
// that would otherwise follow it.
#pragma once

#include <cstddef>
#include <optional>

#include "algorithms/layout.hpp"
#include "results/result_row.hpp"
#include "schedule/schedule.hpp"
#include "sim/engine.hpp"
#include "sim/platform_model.hpp"

namespace numacoll::api {

struct GeneratedSimulation {
    results::ResultRow row;        // the schedule's fields, engine "sim", the simulated time
    sched::CollectiveSpec spec;    // as generated: every option's default filled in
    sim::Simulation simulation;
    std::optional<sched::Schedule> schedule;  // when asked to keep it
};

// `estimated_tasks`: algo::check_schedule_request's estimate (0: unknown),
// which sizes the plans.
GeneratedSimulation generate_and_simulate(const sched::CollectiveSpec& spec, const algo::Layout& layout,
                                          const sim::PlatformModel& platform, std::size_t estimated_tasks,
                                          bool keep_schedule);

}  // namespace numacoll::api
