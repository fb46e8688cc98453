// exec::run_on_processes: execute a schedule whose ranks are MPI processes
// sharing their node's memory (sched::process_form), or processes that send
// each other messages only (the flat MPI algorithms), one MPI process per
// rank, as MPI applications run their ranks. The processes of a schedule
// node (MPI_Comm_split by node) map one segment (exec/node_segment.hpp)
// that holds the node's shared buffers and flags, each in the portion of
// the rank that owns it, placed on that rank's NUMA node and first touched
// by it; each rank's private buffers (its input and output) are its own
// process's memory. Tasks run as on threads (exec/program_runner.hpp),
// flags and messages go through exec/process_transport.hpp. The engine
// knows nothing about the algorithm.
//
// Timing is the native MPI baseline's (exec/mpi_native.hpp): every process
// leaves the MPI barrier of the meeting and times its own part at once; an
// iteration's time is the largest over the processes. Every process
// verifies its rank's results, and all fail when one does.
//
// Single copy (sched::process_form's option): a rank copies from a buffer
// that another process of its node exposes with process_vm_readv
// (exec/process_transport.hpp); the processes tell each other where those
// buffers lie, and a system that refuses the call (no cross-memory attach,
// ptrace rules, a container's seccomp) is refused before any work.
//
// Placement: each process is pinned to its rank's PU. Several schedule
// nodes on one host (mpirun --oversubscribe on one machine) are moved side
// by side when the host has the PUs, else not pinned (the result says
// which). A process that its launcher bound to PUs without its rank's PU is
// refused, before any work: pinning it elsewhere would fight the launcher.
#pragma once

#include "exec/mpi_executor.hpp"

namespace numacoll::exec {

// Every process of `world` calls it with the same schedule; process k runs
// rank k. A failure is said once, as run_on_mpi says it. UsageError (on
// every process) for a schedule whose ranks are threads, whose rank count is not the world's size, that differs between
// processes, that has computation around the collective, or whose node's
// processes do not share a host; for a process bound by its launcher away
// from its rank's PU. VerificationError on a process whose rank's results
// are wrong.
MpiExecResult run_on_processes(const sched::Schedule& schedule, const topo::Machine& machine,
                               const ExecOptions& options, const MpiWorld& world);

// Where the launcher put the processes of `world`, all on this host: one
// logical PU per process, in rank order, each inside the PUs its launcher
// bound it to: the lowest on a core no earlier process took, else the
// lowest no earlier process took, else the first of its binding (shared).
// Processes bound to none take what is left, lowest first. Empty when no
// process is bound. Collective over the world; every process gets the same
// (exec::pus_inside_bindings, exec/memory_binding.hpp, chooses).
std::vector<int> pus_from_launcher_bindings(const MpiWorld& world, const topo::Machine& machine);

}  // namespace numacoll::exec
