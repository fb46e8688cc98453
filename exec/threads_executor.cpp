#include "exec/threads_executor.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>

#include "exec/buffers.hpp"
#include "exec/harness.hpp"
#include "exec/program_runner.hpp"
#include "exec/programs.hpp"
#include "exec/thread_transport.hpp"
#include "schedule/collective_contract.hpp"
#include "schedule/validate_schedule.hpp"

namespace numacoll::exec {

void check_thread_count(int threads, const topo::Machine& machine) {
    if (static_cast<long long>(threads) > static_cast<long long>(max_threads_per_pu) * machine.pu_count())
        throw UsageError(fmt::format("{} threads on {} PUs: an execution runs at most {} threads per PU ({} here)",
                                     threads, machine.pu_count(), max_threads_per_pu,
                                     max_threads_per_pu * machine.pu_count()));
}

namespace {

std::uint64_t node_memory_bytes(const topo::Machine& machine) {
    std::uint64_t memory = 0;
    for (int numa : machine.numa_nodes) memory += machine.objects[numa].memory_bytes;
    // The system's own count where it is larger (this project's VM: 10.4 GB
    // in its one NUMA node, 24 GB in all, hotplugged memory outside nodes).
    const long pages = ::sysconf(_SC_PHYS_PAGES), page_bytes = ::sysconf(_SC_PAGESIZE);
    if (pages > 0 && page_bytes > 0)
        memory = std::max(memory, static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page_bytes));
    return memory;
}

void check_memory(double needed, const topo::Machine& machine, const char* what) {
    const std::uint64_t memory = node_memory_bytes(machine);
    if (memory > 0 && needed > 0.8 * static_cast<double>(memory))
        throw UsageError(fmt::format("{} need {:.2f} GB on this node, more than 80% of its {:.2f} GB of memory", what,
                                     needed / 1e9, static_cast<double>(memory) / 1e9));
}

}  // namespace

void check_buffer_memory(const sched::Schedule& schedule, int node, const topo::Machine& machine) {
    std::uint64_t needed = 0;
    for (const sched::Buffer& buffer : schedule.buffers())
        if (schedule.ranks[buffer.owner].node == node) needed += buffer.bytes;
    check_memory(static_cast<double>(needed), machine, "the schedule's buffers");
}

void check_vector_memory(std::uint64_t bytes, int ranks_on_node, const topo::Machine& machine) {
    check_memory(static_cast<double>(bytes) * ranks_on_node, machine, "the ranks' vectors alone");
}

ExecResult run_on_threads(const sched::Schedule& schedule, const topo::Machine& machine, const ExecOptions& requested) {
    ExecOptions options = requested;
    resolve_iterations(options, schedule.spec.bytes);
    check_thread_count(schedule.rank_count(), machine);
    check_buffer_memory(schedule, 0, machine);
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
    if (!options.progress_thread_pus.empty()) {
        if (options.progress_thread_pus.size() != programs.size())
            throw UsageError(fmt::format("{} progress threads for {} ranks: one per rank, please",
                                         options.progress_thread_pus.size(), programs.size()));
        check_thread_count(schedule.rank_count() * 2, machine);
        runner.start_progress_threads(options.progress_thread_pus, binding, options.pin_threads);
    }
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
