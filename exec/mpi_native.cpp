#include "exec/mpi_native.hpp"

#include <fmt/format.h>

#include <climits>
#include <memory>
#include <vector>

#include "exec/buffers.hpp"
#include "exec/harness.hpp"
#include "exec/kernels.hpp"
#include "exec/mpi_datatypes.hpp"
#include "exec/program_runner.hpp"
#include "schedule/collective_contract.hpp"

namespace numacoll::exec {

namespace {

// One MPI call per iteration, on the calling process's rank.
class NativeCollective : public ScheduleWork {
public:
    NativeCollective(const sched::Schedule& schedule, const std::vector<ThreadProgram>& programs, const Buffers& buffers,
                     int rank, MPI_Comm comm)
        : ScheduleWork(schedule, programs, buffers), rank_(rank), comm_(comm) {
        input_ = at(schedule.input_of(rank));
        output_ = at(schedule.output_of(rank));
        if (schedule.spec.collective == sched::Collective::reduce_scatter) {
            int processes = 0;
            MPI_Comm_size(comm, &processes);
            counts_.assign(static_cast<std::size_t>(processes),
                           static_cast<int>(schedule.spec.bytes / sched::element_bytes(schedule.spec)));
        }
    }

    void run(int, std::uint32_t, bool) override {
        const sched::CollectiveSpec& spec = schedule_.spec;
        const int bytes = static_cast<int>(spec.bytes);
        const int elements = static_cast<int>(spec.bytes / sched::element_bytes(spec));
        const MPI_Datatype datatype = mpi_datatype(spec.datatype);
        int status = MPI_SUCCESS;
        switch (spec.collective) {
            case sched::Collective::allreduce:
                status = MPI_Allreduce(input_, output_, elements, datatype, mpi_op(spec.op), comm_);
                break;
            case sched::Collective::reduce:
                status = MPI_Reduce(input_, output_, elements, datatype, mpi_op(spec.op), spec.root, comm_);
                break;
            case sched::Collective::bcast:
                status = MPI_Bcast(rank_ == spec.root ? input_ : output_, bytes, MPI_BYTE, spec.root, comm_);
                break;
            case sched::Collective::barrier:
                status = MPI_Barrier(comm_);
                break;
            case sched::Collective::scatter:
                status = MPI_Scatter(input_, bytes, MPI_BYTE, output_, bytes, MPI_BYTE, spec.root, comm_);
                break;
            case sched::Collective::gather:
                status = MPI_Gather(input_, bytes, MPI_BYTE, output_, bytes, MPI_BYTE, spec.root, comm_);
                break;
            case sched::Collective::allgather:
                status = MPI_Allgather(input_, bytes, MPI_BYTE, output_, bytes, MPI_BYTE, comm_);
                break;
            case sched::Collective::reduce_scatter:
                status = MPI_Reduce_scatter(input_, output_, counts_.data(), datatype, mpi_op(spec.op), comm_);
                break;
            case sched::Collective::alltoall:
                status = MPI_Alltoall(input_, bytes, MPI_BYTE, output_, bytes, MPI_BYTE, comm_);
                break;
            case sched::Collective::pingpong:
                break;  // refused before
        }
        if (status != MPI_SUCCESS)
            throw Error(fmt::format("the MPI library's {} failed (MPI error {})", sched::to_string(spec.collective), status));
    }

protected:
    void* at(int buffer) const { return buffer >= 0 ? static_cast<void*>(buffers_.bytes(buffer)) : nullptr; }
    int rank_;
    MPI_Comm comm_;
    void* input_ = nullptr;
    void* output_ = nullptr;
    // MPI_Reduce_scatter's equal counts, made once outside the timed calls
    // (Open MPI's coll/tuned tunes MPI_Reduce_scatter, not MPI_Reduce_scatter_block).
    std::vector<int> counts_;
};

// The nonblocking call with computation behind it, per iteration.
class NativeNonblocking : public NativeCollective {
public:
    NativeNonblocking(const sched::Schedule& schedule, const std::vector<ThreadProgram>& programs, const Buffers& buffers,
                      int rank, MPI_Comm comm, const NativeComputation& computation)
        : NativeCollective(schedule, programs, buffers, rank, comm), computation_(computation) {}

    void run(int, std::uint32_t, bool) override {
        const sched::CollectiveSpec& spec = schedule_.spec;
        const int bytes = static_cast<int>(spec.bytes);
        const int elements = static_cast<int>(spec.bytes / sched::element_bytes(spec));
        const MPI_Datatype datatype = mpi_datatype(spec.datatype);
        MPI_Request request = MPI_REQUEST_NULL;
        int status = MPI_SUCCESS;
        switch (spec.collective) {
            case sched::Collective::allreduce:
                status = MPI_Iallreduce(input_, output_, elements, datatype, mpi_op(spec.op), comm_, &request);
                break;
            case sched::Collective::reduce:
                status = MPI_Ireduce(input_, output_, elements, datatype, mpi_op(spec.op), spec.root, comm_, &request);
                break;
            case sched::Collective::bcast:
                status = MPI_Ibcast(rank_ == spec.root ? input_ : output_, bytes, MPI_BYTE, spec.root, comm_, &request);
                break;
            case sched::Collective::barrier:
                status = MPI_Ibarrier(comm_, &request);
                break;
            case sched::Collective::scatter:
                status = MPI_Iscatter(input_, bytes, MPI_BYTE, output_, bytes, MPI_BYTE, spec.root, comm_, &request);
                break;
            case sched::Collective::gather:
                status = MPI_Igather(input_, bytes, MPI_BYTE, output_, bytes, MPI_BYTE, spec.root, comm_, &request);
                break;
            case sched::Collective::allgather:
                status = MPI_Iallgather(input_, bytes, MPI_BYTE, output_, bytes, MPI_BYTE, comm_, &request);
                break;
            case sched::Collective::reduce_scatter:
                status = MPI_Ireduce_scatter(input_, output_, counts_.data(), datatype, mpi_op(spec.op), comm_,
                                             &request);
                break;
            case sched::Collective::alltoall:
                status = MPI_Ialltoall(input_, bytes, MPI_BYTE, output_, bytes, MPI_BYTE, comm_, &request);
                break;
            case sched::Collective::pingpong:
                break;  // refused before
        }
        if (status != MPI_SUCCESS)
            throw Error(fmt::format("the MPI library's nonblocking {} failed (MPI error {})",
                                    sched::to_string(spec.collective), status));
        const std::vector<double>& grains = computation_.grain_flops;
        for (std::size_t g = 0; g < grains.size(); ++g) {
            if (g > 0 && computation_.test_between) {
                int done = 0;
                if (MPI_Test(&request, &done, MPI_STATUS_IGNORE) != MPI_SUCCESS)
                    throw Error("MPI_Test of the nonblocking collective failed");
            }
            sink_ = compute_flops(grains[g]);
        }
        if (MPI_Wait(&request, MPI_STATUS_IGNORE) != MPI_SUCCESS)
            throw Error("MPI_Wait of the nonblocking collective failed");
    }

private:
    const NativeComputation& computation_;
    volatile double sink_ = 0;  // the computation cannot be left out
};

}  // namespace

void check_native_spec(const sched::CollectiveSpec& spec, int processes) {
    if (spec.collective == sched::Collective::pingpong)
        throw UsageError("MPI has no ping-pong collective: time it with numacoll run --engine mpi");
    if (spec.root < 0 || (processes > 0 && spec.root >= processes))
        throw UsageError(fmt::format("--root {} is not a rank of {} processes", spec.root, processes));
    if (spec.collective == sched::Collective::barrier && spec.bytes != 0)
        throw UsageError(fmt::format("a barrier moves no data: its size must be 0 bytes (got {})", spec.bytes));
    sched::check_datatype(spec);
    if (spec.bytes > static_cast<std::uint64_t>(INT_MAX))
        throw UsageError(fmt::format("{} bytes per rank: one MPI call counts at most {}", spec.bytes, INT_MAX));
}

sched::Schedule native_schedule(const sched::CollectiveSpec& spec, int processes) {
    sched::Schedule schedule;
    schedule.spec = spec;
    schedule.nodes = processes;
    schedule.rank_kind = sched::RankKind::process;
    for (int rank = 0; rank < processes; ++rank) {
        schedule.ranks.push_back({rank, 0, 0, -1, -1});
        if (const std::uint64_t bytes = sched::contract_input_bytes(spec, processes, rank); bytes > 0)
            schedule.add_buffer({fmt::format("in{}", rank), rank, bytes, sched::BufferRole::input, -1});
        if (const std::uint64_t bytes = sched::contract_output_bytes(spec, processes, rank); bytes > 0)
            schedule.add_buffer({fmt::format("out{}", rank), rank, bytes, sched::BufferRole::output, -1});
    }
    return schedule;
}

namespace {

MpiExecResult run_native(const sched::CollectiveSpec& spec, const topo::Machine& machine, const ExecOptions& requested,
                         const MpiWorld& world, const NativeComputation* computation) {
    ExecOptions options = requested;
    resolve_iterations(options, spec.bytes);
    check_native_spec(spec, world.size());
    const int rank = world.rank();
    const sched::Schedule schedule = native_schedule(spec, world.size());
    MemoryBinding binding(machine);
    const Buffers buffers(schedule, binding, rank);
    const std::vector<ThreadProgram> programs = {{rank, {}, {}}};
    std::unique_ptr<NativeCollective> work =
        computation ? std::make_unique<NativeNonblocking>(schedule, programs, buffers, rank, world.comm(), *computation)
                    : std::make_unique<NativeCollective>(schedule, programs, buffers, rank, world.comm());
    ExecOptions harness_options = options;
    // One process per PU of its host, side by side, when they fit.
    const bool fits = world.processes_on_this_host() <= machine.pu_count();
    harness_options.pin_threads = options.pin_threads && fits;
    harness_options.at_meeting = [&](std::uint32_t) { world.barrier(); };
    harness_options.first_thread_is_caller = true;  // one thread in the process: MPI_THREAD_SINGLE holds
    const HarnessResult harness =
        run_iterations({fits ? world.index_on_this_host() : 0}, binding, harness_options, *work);

    MpiExecResult result;
    result.iteration_ns = world.max_over_processes(harness.iteration_ns);
    result.stats = summarize_times(result.iteration_ns);
    const bool barrier = spec.collective == sched::Collective::barrier;
    verify_on_every_process(schedule, harness, world, fmt::format("rank {}", rank), barrier, [&] {
        if (barrier)
            verify_synchronisation(schedule, {rank}, harness);
        else if (!sched::synchronisation_only(spec))  // MPI owes no synchronisation for a count of 0
            verify_outputs(schedule, buffers, {rank}, static_cast<std::uint32_t>(harness.iterations),
                           options.before_verify);
    });
    result.threads_pinned = harness.threads_pinned;
    result.memory_bound = binding.memory_bound();
    return result;
}

}  // namespace

MpiExecResult run_native_collective(const sched::CollectiveSpec& spec, const topo::Machine& machine,
                                    const ExecOptions& options, const MpiWorld& world) {
    return run_native(spec, machine, options, world, nullptr);
}

MpiExecResult run_native_nonblocking(const sched::CollectiveSpec& spec, const topo::Machine& machine,
                                     const ExecOptions& options, const MpiWorld& world,
                                     const NativeComputation& computation) {
    return run_native(spec, machine, options, world, &computation);
}

}  // namespace numacoll::exec
