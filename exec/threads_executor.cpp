#include "exec/threads_executor.hpp"

#include <fmt/format.h>

#include "exec/buffers.hpp"
#include "exec/harness.hpp"
#include "exec/program_runner.hpp"
#include "exec/programs.hpp"
#include "exec/thread_transport.hpp"
#include "schedule/collective_contract.hpp"
#include "schedule/validate_schedule.hpp"

namespace numacoll::exec {

ExecResult run_on_threads(const sched::Schedule& schedule, const topo::Machine& machine, const ExecOptions& options) {
    check_iteration_counts(options);
    sched::validate_schedule(schedule);  // a file from --from may be anything: refuse what would crash
    if (schedule.nodes != 1)
        throw UsageError(fmt::format("the thread executor runs one node; this schedule spans {}", schedule.nodes));
    ThreadTransport transport(schedule);
    MemoryBinding binding(machine);
    const Buffers buffers(schedule, binding, 0);
    const std::vector<ThreadProgram> programs = build_programs(schedule, 0);
    std::vector<int> pus, ranks;
    for (const ThreadProgram& program : programs) {
        pus.push_back(schedule.ranks[program.rank].pu);
        ranks.push_back(program.rank);
    }
    ProgramRunner<ThreadTransport> runner(schedule, programs, buffers, transport);
    const HarnessResult harness = run_iterations(pus, binding, options, runner);

    ExecResult result;
    result.iteration_ns = harness.iteration_ns;
    result.stats = harness.stats;
    if (options.trace) result.timeline = runner.timeline(harness.arrivals.back());
    if (sched::synchronisation_only(schedule.spec))
        verify_synchronisation(schedule, ranks, harness);
    else
        verify_outputs(schedule, buffers, ranks, static_cast<std::uint32_t>(harness.iterations), options.before_verify);
    result.threads_pinned = harness.threads_pinned;
    result.memory_bound = binding.memory_bound();
    return result;
}

}  // namespace numacoll::exec
