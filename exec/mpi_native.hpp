// exec::run_native_collective: the MPI library's own collective
// (MPI_Allreduce, MPI_Bcast, MPI_Reduce, MPI_Barrier, MPI_Scatter,
// MPI_Gather, MPI_Allgather), one rank per process, the baseline numacoll's
// schedules are compared with. It is timed and verified the way every
// engine is: the harness's warm-up and timed iterations, inputs rewritten
// and outputs cleared before each (exec/program_runner.hpp), an MPI barrier
// at the meeting outside the timed region, an iteration's time the maximum
// over the processes, and every rank's result checked against the
// collective's contract (schedule/collective_contract.hpp), except that an
// allreduce or allgather of 0 bytes is not held to synchronise: MPI returns
// from a call with a count of 0 without waiting for the others (Open MPI
// does), where numacoll's contract asks its own schedules to. Processes that
// share a host are pinned one per PU when the PUs suffice.
#pragma once

#include <vector>

#include "exec/mpi_executor.hpp"

namespace numacoll::exec {

// `spec`: the collective, bytes per rank (the contract's m, which is also
// each MPI call's count in bytes or doubles), root and operator;
// spec.algorithm names what ran ("default": the library's own choice).
// UsageError (on every process alike) for a collective MPI has no call for
// here (pingpong), a reduction of bytes that are not whole doubles, or a
// count beyond an int.
MpiExecResult run_native_collective(const sched::CollectiveSpec& spec, const topo::Machine& machine,
                                    const ExecOptions& options, const MpiWorld& world);

// The library's nonblocking collective (MPI_Iallreduce, MPI_Ibcast, ...)
// with computation behind it, as osu_iallreduce runs it: issue, compute the
// grains of `grain_flops` (exec/kernels.hpp), calling MPI_Test between two
// grains when `test_between`, then MPI_Wait. Without grains: issue and wait
// (OSU's "pure communication"). Timed and verified as run_native_collective.
struct NativeComputation {
    std::vector<double> grain_flops;
    bool test_between = false;
};
MpiExecResult run_native_nonblocking(const sched::CollectiveSpec& spec, const topo::Machine& machine,
                                     const ExecOptions& options, const MpiWorld& world,
                                     const NativeComputation& computation);

// UsageError for what run_native_collective refuses, before any MPI call:
// every process can check every point first. `processes` 0: the world's
// size is not known yet (before MPI starts), and the root's range waits.
void check_native_spec(const sched::CollectiveSpec& spec, int processes);

// The schedule that stands for a native run: no tasks, one rank per
// process, each with the contract's buffers (for verification and result rows).
sched::Schedule native_schedule(const sched::CollectiveSpec& spec, int processes);

}  // namespace numacoll::exec
