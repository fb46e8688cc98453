// exec::run_on_mpi: execute a Schedule that spans nodes, one MPI process per
// node (HPDC'13 section 2.5: threads inside a node, MPI between nodes). Each
// process runs its node's slice: one pinned thread per local rank, its
// node's buffers, the same programs and harness as the thread engine
// (exec/threads_executor.hpp), and net tasks as MPI messages
// (exec/mpi_transport.hpp). The meeting before every iteration posts the
// receives and passes an MPI barrier; an iteration's time is the maximum
// over all processes of each one's first start to last end (each on its own
// clock). Every process verifies its ranks' results, and all of them fail
// when one does. The engine knows nothing about the algorithm.
//
// When several processes share one host (mpirun --oversubscribe on one
// machine), their threads are pinned side by side if the host has the PUs
// for all of them, else not pinned at all (the result says which).
#pragma once

#include <functional>
#include <string>

#include "exec/mpi_world.hpp"
#include "exec/threads_executor.hpp"

namespace numacoll::exec {

struct MpiExecResult : ExecResult {
    int messages = 0;  // net tasks run, over all processes
};

class ScheduleWork;

// What the processes measured, alike on every process (collective): each
// iteration's time is the slowest process's; with `traced`, every task's
// times from the process that ran it (on its own clock, from its own first
// start); the messages every process sent.
MpiExecResult result_over_processes(const HarnessResult& harness, const ScheduleWork* traced, int messages_out,
                                    const MpiWorld& world);

// FNV-1a over what the processes of a job must agree on: ranks, buffers and tasks.
unsigned long long schedule_fingerprint(const sched::Schedule& schedule);

// A barrier's check across processes: with one clock for all (every process
// on one host), nobody may leave an iteration before the last of all
// processes arrived. Collective; the same VerificationError on every process.
void verify_synchronisation_across_processes(const sched::Schedule& schedule, const HarnessResult& harness,
                                             const MpiWorld& world);

// Runs `local_check` (this process's ranks against the contract) and agrees
// on the outcome: VerificationError, prefixed with `who` ("node 2"), on the
// processes that found a difference (empty `who`: no prefix), PeerFailure on the others. With
// `synchronised` (a barrier), and every process on one host (one clock),
// also verify_synchronisation_across_processes.
void verify_on_every_process(const sched::Schedule& schedule, const HarnessResult& harness, const MpiWorld& world,
                             const std::string& who, bool synchronised, const std::function<void()>& local_check);

// Every process of `world` calls it with the same schedule; process k runs
// node k. A failure is said once: the process that found it throws (process
// 0 for what every process finds alike), the others throw PeerFailure.
// UsageError for a schedule whose node count is not the world's size, that
// differs between processes, or a library that gives MPI_THREAD_SINGLE
// only (below MPI_THREAD_MULTIPLE the calling thread, the process's main
// thread, is the communication thread); VerificationError on a process whose
// ranks' results are wrong.
MpiExecResult run_on_mpi(const sched::Schedule& schedule, const topo::Machine& machine, const ExecOptions& options,
                         const MpiWorld& world);

}  // namespace numacoll::exec
