// The public engines (numacoll/engines.hpp): the simulator over sim/, the
// executor over exec/, the closed forms over models/.
#include "numacoll/engines.hpp"

#include "algorithms/registry.hpp"
#include "api/access.hpp"
#include "api/generate_and_simulate.hpp"
#include "common/error.hpp"
#include "exec/threads_executor.hpp"
#include "models/registry.hpp"
#include "schedule/validate_schedule.hpp"
#include "sim/engine.hpp"
#include "sim/platform_model.hpp"

namespace numacoll {

using api::Access;

namespace api {

ResultRow public_row(const results::ResultRow& row, std::optional<double> model) {
    ResultRow result;
    result.collective = row.collective;
    result.algorithm = row.algorithm;
    result.bytes = row.bytes;
    result.ranks = row.ranks;
    result.nodes = row.nodes;
    result.engine = row.engine;
    result.time_ns = row.time_ns;
    if (row.spread) {
        result.p10_ns = row.spread->p10_ns;
        result.p90_ns = row.spread->p90_ns;
        result.iterations = row.spread->iterations;
    }
    result.tasks = row.tasks;
    result.options = row.options;
    result.topology = row.topology;
    result.params = row.params;
    result.model_ns = model;
    return result;
}

}  // namespace api

Simulation simulate(const CollectiveSpec& spec, const Layout& layout, const Params& params) {
    const algo::Layout& internal_layout = Access::of(layout);
    const sched::CollectiveSpec internal = api::internal_spec(spec);
    const std::size_t estimated_tasks = algo::check_schedule_request(internal, internal_layout);
    const sim::PlatformModel platform(internal_layout.machine, Access::of(params), internal_layout.nodes);
    api::GeneratedSimulation generated =
        api::generate_and_simulate(internal, internal_layout, platform, estimated_tasks, false);
    generated.row.topology = internal_layout.machine->source;
    generated.row.params = Access::of(params).origin;
    const std::optional<double> model = models::model_ns(generated.spec, internal_layout, Access::of(params));
    return {api::public_row(generated.row, model), std::move(generated.simulation.timeline),
            generated.simulation.stats.wall_seconds};
}

Simulation simulate(const Schedule& schedule, const Machine& machine, const Params& params) {
    const sched::Schedule& internal = Access::of(schedule);
    sched::validate_schedule(internal);  // the simulator runs what the executor would
    (void)algo::layout_of_schedule(internal, Access::shared(machine));
    const sim::PlatformModel platform(Access::shared(machine), Access::of(params), internal.nodes);
    sim::Simulation simulation = sim::simulate(internal, platform);
    results::ResultRow row = results::simulated_row(internal, simulation.timeline.makespan_ns);
    row.topology = Access::of(machine).source;
    row.params = Access::of(params).origin;
    return {api::public_row(row, std::nullopt), std::move(simulation.timeline), simulation.stats.wall_seconds};
}

Execution execute(const Schedule& schedule, const Machine& live, const ExecutionOptions& options) {
    if (!live.is_this_system())
        throw UsageError("execution runs on the machine it is on: give Machine::load(\"live\"), not " + live.source());
    exec::ExecOptions exec_options;
    exec_options.warmup_iterations = options.warmup_iterations;
    exec_options.timed_iterations = options.timed_iterations;
    exec_options.pin_threads = options.pin_threads;
    const sched::Schedule& internal = Access::of(schedule);
    const exec::ExecResult result = exec::run_on_threads(internal, Access::of(live), exec_options);
    results::ResultRow row = results::measured_row(internal, result.stats, result.threads_pinned, result.memory_bound);
    row.topology = Access::of(live).source;
    return {api::public_row(row, std::nullopt), result.iteration_ns};
}

std::optional<double> model_ns(const CollectiveSpec& spec, const Layout& layout, const Params& params) {
    const algo::Layout& internal_layout = Access::of(layout);
    return models::model_ns(algo::spec_with_defaults(api::internal_spec(spec), internal_layout), internal_layout,
                            Access::of(params));
}

}  // namespace numacoll
