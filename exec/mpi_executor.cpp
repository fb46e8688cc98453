#include "exec/mpi_executor.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <exception>
#include <functional>
#include <optional>
#include <thread>
#include <type_traits>

#include "exec/buffers.hpp"
#include "exec/harness.hpp"
#include "exec/mpi_transport.hpp"
#include "exec/program_runner.hpp"
#include "exec/programs.hpp"
#include "schedule/collective_contract.hpp"
#include "schedule/validate_schedule.hpp"

namespace numacoll::exec {

namespace {

// Side by side when the host has the PUs for every process's threads: the
// k-th process on a host moves its PUs up by k times the PUs a node's layout spans.
std::vector<int> pus_on_shared_host(const std::vector<int>& pus, const topo::Machine& machine, const MpiWorld& world,
                                    bool& pin) {
    if (world.processes_on_this_host() == 1 || pus.empty()) return pus;
    const int span = *std::max_element(pus.begin(), pus.end()) + 1;
    if (static_cast<long long>(span) * world.processes_on_this_host() > machine.pu_count()) {
        pin = false;
        return pus;
    }
    std::vector<int> shifted;
    for (int pu : pus) shifted.push_back(pu + span * world.index_on_this_host());
    return shifted;
}

double since_epoch_ns(Clock::time_point at) { return nanoseconds(Clock::time_point{}, at); }

}  // namespace

unsigned long long schedule_fingerprint(const sched::Schedule& schedule) {
    unsigned long long hash = 1469598103934665603ull;
    const auto mix = [&](unsigned long long value) {
        for (int byte = 0; byte < 8; ++byte, value >>= 8) hash = (hash ^ (value & 0xff)) * 1099511628211ull;
    };
    mix(static_cast<unsigned long long>(schedule.nodes));
    for (const sched::RankInfo& rank : schedule.ranks) mix(static_cast<unsigned long long>(rank.node) << 32 | static_cast<unsigned>(rank.pu));
    for (const sched::Buffer& buffer : schedule.buffers()) mix(buffer.bytes ^ static_cast<unsigned long long>(buffer.owner) << 48);
    for (int id = 0; id < schedule.task_count(); ++id) {
        const sched::Task& task = schedule.task(id);
        mix(static_cast<unsigned long long>(task.kind) << 56 | static_cast<unsigned long long>(task.thread) << 24 |
            static_cast<unsigned>(task.peer + 1));
        for (const sched::Range& range : task.reads) mix(range.offset ^ range.bytes << 20 ^ static_cast<unsigned long long>(range.buffer) << 44);
        mix(task.write.offset ^ task.write.bytes << 20 ^ static_cast<unsigned long long>(task.write.buffer + 1) << 44);
        for (int dep : schedule.predecessors(id)) mix(static_cast<unsigned long long>(dep));
    }
    return hash;
}

MpiExecResult result_over_processes(const HarnessResult& harness, const ScheduleWork* traced, int messages_out,
                                    const MpiWorld& world) {
    MpiExecResult result;
    result.iteration_ns = world.max_over_processes(harness.iteration_ns);
    result.stats = summarize_times(result.iteration_ns);
    if (traced != nullptr) {
        // Each process's tasks on its own clock, from its own first start.
        const sched::Timeline local = traced->timeline(harness.arrivals.back());
        std::vector<double> begins, ends;
        for (const sched::TaskTime& time : local.tasks) {
            begins.push_back(time.start_ns);
            ends.push_back(time.end_ns);
        }
        begins = world.sum_over_processes(begins);  // each task has one process
        ends = world.sum_over_processes(ends);
        for (std::size_t id = 0; id < begins.size(); ++id) {
            result.timeline.tasks.push_back({begins[id], ends[id]});
            result.timeline.makespan_ns = std::max(result.timeline.makespan_ns, ends[id]);
        }
    }
    result.messages = static_cast<int>(world.sum_over_processes({static_cast<double>(messages_out)})[0]);
    return result;
}

void verify_synchronisation_across_processes(const sched::Schedule& schedule, const HarnessResult& harness,
                                             const MpiWorld& world) {
    std::vector<double> last_arrival, first_departure_negated;
    for (std::size_t it = 0; it < harness.arrivals.size(); ++it) {
        const auto& arrived = harness.arrivals[it];
        const auto& left = harness.departures[it];
        last_arrival.push_back(since_epoch_ns(*std::max_element(arrived.begin(), arrived.end())));
        first_departure_negated.push_back(-since_epoch_ns(*std::min_element(left.begin(), left.end())));
    }
    const std::vector<double> latest = world.max_over_processes(last_arrival);
    const std::vector<double> earliest = world.max_over_processes(first_departure_negated);
    for (std::size_t it = 0; it < latest.size(); ++it)
        if (-earliest[it] < latest[it])
            throw VerificationError(fmt::format(
                "verification failed: in iteration {} a thread left the barrier {:.0f} ns before the last one "
                "arrived ({} {})",
                it + 1, latest[it] + earliest[it], sched::to_string(schedule.spec.collective), schedule.spec.algorithm));
}

void verify_on_every_process(const sched::Schedule& schedule, const HarnessResult& harness, const MpiWorld& world,
                             const std::string& who, bool synchronised, const std::function<void()>& local_check) {
    std::string failure;
    try {
        local_check();
    } catch (const VerificationError& error) {
        failure = who.empty() ? std::string(error.what()) : fmt::format("{}: {}", who, error.what());
    }
    const MpiWorld::Agreement agreed = world.agree(failure.empty() ? 0 : 1);
    if (agreed.code == 0 && synchronised && world.processes_on_this_host() == world.size()) {
        try {
            verify_synchronisation_across_processes(schedule, harness, world);  // the same answer on every process
        } catch (const VerificationError&) {
            if (world.rank() == 0) throw;
            throw PeerFailure(1);
        }
    }
    if (agreed.code != 0) {
        if (!failure.empty()) throw VerificationError(failure);
        throw PeerFailure(agreed.code);
    }
}

MpiExecResult run_on_mpi(const sched::Schedule& schedule, const topo::Machine& machine, const ExecOptions& requested,
                         const MpiWorld& world) {
    ExecOptions options = requested;
    // What every process finds alike is said by process 0; the others end quietly.
    const auto alike = [&](const auto& error) {
        if (world.rank() == 0) throw error;
        throw PeerFailure(std::is_base_of_v<UsageError, std::decay_t<decltype(error)>> ? 2 : 1);
    };
    try {
        resolve_iterations(options, schedule.spec.bytes);
        sched::validate_schedule(schedule);
    } catch (const UsageError& error) {
        alike(error);
    } catch (const CheckError& error) {
        alike(error);
    }
    if (schedule.nodes != world.size())
        alike(UsageError(fmt::format("the schedule spans {} node{} and {} MPI process{} run it: start one process per "
                                     "node (mpirun -np {})",
                                     schedule.nodes, schedule.nodes == 1 ? "" : "s", world.size(),
                                     world.size() == 1 ? "" : "es", schedule.nodes)));
    if (!world.same_everywhere(schedule_fingerprint(schedule)))
        alike(UsageError("the MPI processes made different schedules (do their machines differ?): make one with "
                         "numacoll dag and give it to every process with --from"));
    if (world.thread_level_name() == "MPI_THREAD_SINGLE")
        alike(UsageError("the MPI engine runs threads beside MPI: it needs MPI_THREAD_FUNNELED at least (a "
                         "communication thread), and this MPI library gives MPI_THREAD_SINGLE"));
    const int node = world.rank();
    MemoryBinding binding(machine);
    // What one process finds wrong with its slice, all of them learn, so that
    // none waits for the others' messages.
    std::optional<Buffers> buffers;
    std::optional<MpiTransport> transport;
    std::vector<ThreadProgram> programs;
    {
        int code = 0;
        std::exception_ptr failure;
        try {
            int local_ranks = 0;
            for (const sched::RankInfo& rank : schedule.ranks) local_ranks += rank.node == node;
            check_thread_count(local_ranks, machine);
            check_buffer_memory(schedule, node, machine);
            buffers.emplace(schedule, binding, node);
            transport.emplace(schedule, node, world, *buffers);
            programs = build_programs(schedule, node);
        } catch (const UsageError&) {
            code = 2, failure = std::current_exception();
        } catch (const std::exception&) {
            code = 1, failure = std::current_exception();
        }
        const MpiWorld::Agreement agreed = world.agree(code);
        if (failure) std::rethrow_exception(failure);
        if (agreed.code != 0) throw PeerFailure(agreed.code);
    }
    std::vector<int> pus, ranks;
    for (const ThreadProgram& program : programs) {
        pus.push_back(schedule.ranks[program.rank].pu);
        ranks.push_back(program.rank);
    }
    ExecOptions harness_options = options;
    pus = pus_on_shared_host(pus, machine, world, harness_options.pin_threads);
    harness_options.at_meeting = [&](std::uint32_t iteration) { transport->meet(iteration); };
    ProgramRunner<MpiTransport> runner(schedule, programs, *buffers, *transport);
    if (!options.progress_thread_pus.empty()) {
        // Progress threads on the PUs asked for, in rank order; a helper
        // asked on its rank's own PU stays beside the rank where its PU moved.
        std::vector<int> helper_pus;
        for (std::size_t k = 0; k < programs.size(); ++k) {
            const int rank = programs[k].rank;
            const int asked = options.progress_thread_pus.at(static_cast<std::size_t>(rank));
            helper_pus.push_back(asked == schedule.ranks[rank].pu ? pus[k] : asked);
        }
        runner.start_progress_threads(helper_pus, binding, harness_options.pin_threads);
    }
    HarnessResult harness;
    if (transport->communication_thread()) {
        // The ranks' threads run from another thread; this one, MPI's main
        // thread, is their communication thread until they are done.
        std::thread ranks_thread([&] {
            harness = run_iterations(pus, binding, harness_options, runner);
            transport->stop();
        });
        transport->communicate();
        ranks_thread.join();
    } else {
        harness = run_iterations(pus, binding, harness_options, runner);
    }

    MpiExecResult result =
        result_over_processes(harness, options.trace ? &runner : nullptr, transport->messages_out(), world);

    // Every process checks its ranks; all fail when one does.
    const bool synchronisation = sched::synchronisation_only(schedule.spec);
    verify_on_every_process(schedule, harness, world, fmt::format("node {}", node), synchronisation, [&] {
        if (synchronisation)
            verify_synchronisation(schedule, ranks, harness);
        else
            verify_outputs(schedule, *buffers, ranks, static_cast<std::uint32_t>(harness.iterations),
                           options.before_verify);
    });
    result.threads_pinned = harness.threads_pinned;
    result.memory_bound = binding.memory_bound();
    return result;
}

}  // namespace numacoll::exec
