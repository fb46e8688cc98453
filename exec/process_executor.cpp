#include "exec/process_executor.hpp"

#include <fmt/format.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <exception>
#include <new>
#include <numeric>
#include <optional>
#include <set>

#include "exec/buffers.hpp"
#include "exec/cross_memory.hpp"
#include "exec/harness.hpp"
#include "exec/node_segment.hpp"
#include "exec/process_transport.hpp"
#include "exec/program_runner.hpp"
#include "exec/programs.hpp"
#include "schedule/collective_contract.hpp"
#include "schedule/validate_schedule.hpp"

namespace numacoll::exec {

namespace {

// A communicator of this run's, freed on the normal path only (freeing is
// collective: see NodeSegment).
struct Communicator {
    MPI_Comm comm = MPI_COMM_NULL;
    Communicator() = default;
    Communicator(const Communicator&) = delete;
    Communicator& operator=(const Communicator&) = delete;
    ~Communicator() {
        if (comm != MPI_COMM_NULL && std::uncaught_exceptions() == 0) MPI_Comm_free(&comm);
    }
    int size() const {
        int n = 0;
        MPI_Comm_size(comm, &n);
        return n;
    }
};

// Runs `step` on every process and agrees on how it went: the lowest process
// that failed throws its error, the others PeerFailure with its code, so
// that one line is said and nobody waits for the others.
template <typename Step>
void agreed_step(const MpiWorld& world, Step&& step) {
    int code = 0;
    std::exception_ptr failure;
    try {
        step();
    } catch (const PeerFailure&) {
        throw;
    } catch (const UsageError&) {
        code = 2, failure = std::current_exception();
    } catch (const std::exception&) {
        code = 1, failure = std::current_exception();
    }
    const MpiWorld::Agreement agreed = world.agree(code);
    if (agreed.code == 0) return;
    if (failure && agreed.first_failing_process == world.rank()) std::rethrow_exception(failure);
    throw PeerFailure(agreed.code);
}

// This node's place among the schedule nodes whose processes share this
// host, and how many share it. Collective over the world.
std::pair<int, int> node_place_on_host(const MpiWorld& world, int node) {
    Communicator host;
    MPI_Comm_split_type(world.comm(), MPI_COMM_TYPE_SHARED, world.rank(), MPI_INFO_NULL, &host.comm);
    std::vector<int> nodes(static_cast<std::size_t>(host.size()));
    MPI_Allgather(&node, 1, MPI_INT, nodes.data(), 1, MPI_INT, host.comm);
    const std::set<int> distinct(nodes.begin(), nodes.end());
    return {static_cast<int>(std::distance(distinct.begin(), distinct.find(node))), static_cast<int>(distinct.size())};
}

// Single copy: the node's processes tell each other where the buffers they
// expose lie (their process ids and addresses). Collective over the node.
std::vector<ExposedBuffer> exchange_exposed_buffers(const sched::Schedule& schedule, int node, int rank,
                                                    const std::vector<std::shared_ptr<std::byte>>& memory,
                                                    MPI_Comm node_comm) {
    std::vector<int> ids;
    for (std::size_t b = 0; b < schedule.buffers().size(); ++b)
        if (schedule.buffers()[b].exposed && schedule.ranks[schedule.buffers()[b].owner].node == node)
            ids.push_back(static_cast<int>(b));
    std::vector<ExposedBuffer> exposed(schedule.buffers().size());
    if (ids.empty()) return exposed;
    std::vector<std::uint64_t> places(ids.size() * 2, 0);  // process id, address
    bool exposes = false;
    for (std::size_t k = 0; k < ids.size(); ++k)
        if (schedule.buffer(ids[k]).owner == rank) {
            places[2 * k] = static_cast<std::uint64_t>(getpid());
            places[2 * k + 1] = reinterpret_cast<std::uintptr_t>(memory[static_cast<std::size_t>(ids[k])].get());
            exposes = true;
        }
    // Where Yama restricts reading another process's memory to its
    // ancestors, a process lets any process read it (as Open MPI's vader
    // does for its own single copy); without Yama this fails, harmlessly.
    if (exposes) (void)prctl(PR_SET_PTRACER, PR_SET_PTRACER_ANY, 0, 0, 0);
    MPI_Allreduce(MPI_IN_PLACE, places.data(), static_cast<int>(places.size()), MPI_UINT64_T, MPI_MAX, node_comm);
    for (std::size_t k = 0; k < ids.size(); ++k)
        if (schedule.buffer(ids[k]).owner != rank)
            exposed[static_cast<std::size_t>(ids[k])] = {static_cast<pid_t>(places[2 * k]),
                                                         static_cast<std::uintptr_t>(places[2 * k + 1])};
    return exposed;
}

// UsageError unless this process may read the exposed buffers it copies from.
void check_single_copy_allowed(const sched::Schedule& schedule, int rank, const std::vector<ExposedBuffer>& exposed) {
    std::set<int> read;
    for (int id = 0; id < schedule.task_count(); ++id) {
        const sched::Task& task = schedule.task(id);
        if (task.thread == rank && task.kind == sched::TaskKind::copy && exposed[task.reads[0].buffer].process != 0)
            read.insert(task.reads[0].buffer);
    }
    for (int b : read) {
        std::byte probe{};
        if (!read_process_memory(exposed[b].process, exposed[b].address, &probe, 1))
            throw UsageError(fmt::format("single copy reads another process's memory through the kernel "
                                         "(process_vm_readv), which this system refuses here ({}): run without "
                                         "--single-copy",
                                         std::strerror(errno)));
    }
}

}  // namespace

MpiExecResult run_on_processes(const sched::Schedule& schedule, const topo::Machine& machine,
                               const ExecOptions& requested, const MpiWorld& world) {
    ExecOptions options = requested;
    // Every process checks alike; the lowest that fails, process 0, says it.
    agreed_step(world, [&] {
        resolve_iterations(options, schedule.spec.bytes);
        sched::validate_schedule(schedule);
        if (schedule.rank_count() != world.size())
            throw UsageError(fmt::format("the schedule has {} rank{} and {} MPI process{} run it: ranks as processes "
                                         "take one process each (mpirun -np {})",
                                         schedule.rank_count(), schedule.rank_count() == 1 ? "" : "s", world.size(),
                                         world.size() == 1 ? "" : "es", schedule.rank_count()));
        if (schedule.has_application_tasks())
            throw UsageError("computation around the collective runs with ranks as threads; ranks as processes run "
                             "the collective alone");
        if (!options.progress_thread_pus.empty())
            throw UsageError("progress threads go with ranks as threads");
        (void)plan_node_segment(schedule, 0);  // a schedule of the wrong kind says so here
    });
    agreed_step(world, [&] {
        if (!world.same_everywhere(schedule_fingerprint(schedule)))
            throw UsageError("the MPI processes made different schedules (do their machines differ?): make one with "
                             "numacoll dag and give it to every process with --from");
    });
    const int rank = world.rank();
    const sched::RankInfo& me = schedule.ranks[rank];
    const int node = me.node;

    Communicator node_comm;
    MPI_Comm_split(world.comm(), node, rank, &node_comm.comm);
    const auto [node_index_on_host, nodes_on_host] = node_place_on_host(world, node);
    MemoryBinding binding(machine);
    bool pin = options.pin_threads;
    int pu = me.pu;
    std::optional<SegmentPlan> plan;
    int member = 0;
    agreed_step(world, [&] {
        Communicator shared;
        MPI_Comm_split_type(node_comm.comm, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &shared.comm);
        if (shared.size() != node_comm.size())
            throw UsageError(fmt::format("the {} processes of node {} are not on one host ({} of them share process "
                                         "{}'s memory): ranks as processes share their node's memory; place one "
                                         "node's ranks on one host (mpirun --map-by ppr:N:node)",
                                         node_comm.size(), node, shared.size(), rank));
        plan = plan_node_segment(schedule, node);
        member = static_cast<int>(std::find(plan->members.begin(), plan->members.end(), rank) - plan->members.begin());
        check_buffer_memory(schedule, node, machine);
        check_thread_count(static_cast<int>(plan->members.size()) * nodes_on_host, machine);
        if (nodes_on_host > 1) {
            // Side by side when the host has the PUs for every node's ranks.
            int span = 0;
            for (const sched::RankInfo& info : schedule.ranks) span = std::max(span, info.pu + 1);
            if (static_cast<long long>(span) * nodes_on_host > machine.pu_count())
                pin = false;
            else
                pu += span * node_index_on_host;
        }
        if (pin)
            if (const std::string bound = binding.launcher_binding_excluding(pu); !bound.empty())
                throw UsageError(fmt::format(
                    "process {} is bound by its launcher to PUs {} (OS indexes), and its rank's PU is {} (logical; OS "
                    "index {}): start it with mpirun --bind-to none, or run with --no-pin",
                    rank, bound, pu, machine.pu(pu).os_index));
    });
    if (pin) binding.pin_current_thread(pu);  // before this process touches its memory

    // The node's segment: this process places its portion (its shared
    // buffers, its flags) on its NUMA node and touches it first.
    std::optional<NodeSegment> segment;
    agreed_step(world, [&] { segment.emplace(node_comm.comm, plan->portion_bytes[member]); });
    std::vector<std::shared_ptr<std::byte>> memory(schedule.buffers().size());
    std::vector<SharedFlag*> flags(static_cast<std::size_t>(schedule.task_count()), nullptr);
    agreed_step(world, [&] {
        binding.place(segment->portion(member), plan->portion_bytes[member], me.numa);
        for (std::size_t b = 0; b < memory.size(); ++b) {
            const sched::Buffer& buffer = schedule.buffers()[b];
            const SegmentPlan::Place& place = plan->buffers[b];
            if (place.member >= 0) {
                std::byte* at = segment->portion(place.member) + place.offset;
                if (place.member == member && buffer.numa >= 0 && buffer.numa != me.numa)
                    binding.place(at, buffer.bytes, buffer.numa);
                memory[b] = std::shared_ptr<std::byte>(std::shared_ptr<void>(), at);  // the segment's, not freed here
            } else if (buffer.owner == rank) {
                memory[b] = binding.allocate(buffer.bytes, buffer.numa >= 0 ? buffer.numa : me.numa);
            }
        }
        for (int id = 0; id < schedule.task_count(); ++id) {
            const SegmentPlan::Place& place = plan->flags[static_cast<std::size_t>(id)];
            if (place.member < 0) continue;
            std::byte* at = segment->portion(place.member) + place.offset;
            if (place.member == member) new (at) SharedFlag();
            flags[static_cast<std::size_t>(id)] = reinterpret_cast<SharedFlag*>(at);
        }
    });
    MPI_Barrier(node_comm.comm);  // every portion placed and its flags made before anyone reads them
    const std::vector<ExposedBuffer> exposed = exchange_exposed_buffers(schedule, node, rank, memory, node_comm.comm);
    agreed_step(world, [&] { check_single_copy_allowed(schedule, rank, exposed); });
    const Buffers buffers(std::move(memory));
    std::optional<ProcessTransport> transport;
    std::vector<ThreadProgram> programs;
    agreed_step(world, [&] {
        transport.emplace(schedule, rank, world.comm(), flags, buffers);
        transport->set_exposed(exposed);
        for (ThreadProgram& program : build_programs(schedule, node))
            if (program.rank == rank) programs.push_back(std::move(program));
    });

    ExecOptions harness_options = options;
    harness_options.pin_threads = pin;
    harness_options.first_thread_is_caller = true;
    harness_options.at_meeting = [&](std::uint32_t iteration) { transport->meet(iteration); };
    ProgramRunner<ProcessTransport> runner(schedule, programs, buffers, *transport);
    const HarnessResult harness = run_iterations({pu}, binding, harness_options, runner);

    MpiExecResult result =
        result_over_processes(harness, options.trace ? &runner : nullptr, transport->messages_out(), world);

    const bool synchronisation = sched::synchronisation_only(schedule.spec);
    // The failure names its rank already; the command says which process it is.
    verify_on_every_process(schedule, harness, world, "", synchronisation, [&] {
        if (synchronisation)
            verify_synchronisation(schedule, {rank}, harness);
        else
            verify_outputs(schedule, buffers, {rank}, static_cast<std::uint32_t>(harness.iterations),
                           options.before_verify);
    });
    result.threads_pinned = harness.threads_pinned;
    result.memory_bound = binding.memory_bound();
    return result;
}

std::vector<int> pus_from_launcher_bindings(const MpiWorld& world, const topo::Machine& machine) {
    const int pu_count = machine.pu_count();
    std::vector<std::uint8_t> mine(static_cast<std::size_t>(pu_count), 0);
    {
        const MemoryBinding binding(machine);
        for (int pu : binding.launcher_bound_pus()) mine[static_cast<std::size_t>(pu)] = 1;
    }
    std::vector<std::uint8_t> all(mine.size() * static_cast<std::size_t>(world.size()));
    MPI_Allgather(mine.data(), pu_count, MPI_UINT8_T, all.data(), pu_count, MPI_UINT8_T, world.comm());
    std::vector<std::vector<int>> bound_to(static_cast<std::size_t>(world.size()));
    bool any_bound = false;
    for (int process = 0; process < world.size(); ++process) {
        std::vector<int>& pus = bound_to[static_cast<std::size_t>(process)];
        for (int pu = 0; pu < pu_count; ++pu)
            if (all[static_cast<std::size_t>(process) * mine.size() + static_cast<std::size_t>(pu)]) pus.push_back(pu);
        any_bound = any_bound || !pus.empty();
    }
    if (!any_bound) return {};
    return pus_inside_bindings(bound_to, machine);
}

}  // namespace numacoll::exec
