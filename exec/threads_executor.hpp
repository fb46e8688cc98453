// exec::run_on_threads: execute a Schedule for real, inside one process, on
// one node: the timing harness (exec/harness.hpp) runs one thread per rank,
// pinned with hwloc to its PU, over the ranks' programs (exec/programs.hpp),
// every buffer on its NUMA node (exec/buffers.hpp), threads hearing from
// each other through the thread transport (flags in shared memory). Copies
// are memcpy, reductions fold doubles, compute tasks do their flops
// (exec/kernels.hpp). After the last iteration every output is checked
// against the collective's contract (exec/verification.hpp). The engine
// knows nothing about the algorithm that made the schedule.
#pragma once

#include <cstddef>
#include <functional>
#include <vector>

#include "common/error.hpp"
#include "common/statistics.hpp"
#include "exec/harness.hpp"
#include "exec/verification.hpp"
#include "schedule/schedule.hpp"
#include "schedule/timeline.hpp"
#include "topologies/machine.hpp"

namespace numacoll::exec {

// The harness's options (iterations, pinning, trace; a thread is a rank),
// and what the verification calls first.
struct ExecOptions : HarnessOptions {
    // Called for each rank's output after the last iteration, before the
    // check (tests corrupt a buffer here to prove that the check notices).
    BeforeVerify before_verify;
    // With computation around the collective: a progress thread per rank,
    // on these logical PUs (one per rank, in rank order), runs the
    // collective while the rank computes; empty: the ranks advance it in
    // their own progress calls (manual progress).
    std::vector<int> progress_thread_pus;
};

struct ExecResult {
    std::vector<double> iteration_ns;  // timed iterations, in order
    TimeStats stats;
    sched::Timeline timeline;          // with ExecOptions::trace: the last iteration
    bool threads_pinned = false;
    bool memory_bound = false;
};

// How many threads an execution may put on each PU of the machine: more
// (--oversubscribe with 100,000 threads) would run for minutes and say nothing.
inline constexpr int max_threads_per_pu = 16;

// UsageError when `threads` on `machine` exceed max_threads_per_pu per PU.
void check_thread_count(int threads, const topo::Machine& machine);

// UsageError when the buffers `node` of the schedule holds need more than
// 80% of the machine's memory (hwloc's NUMA nodes, or the system's count
// where larger), checked before any is allocated.
void check_buffer_memory(const sched::Schedule& schedule, int node, const topo::Machine& machine);
// The same before generating: `ranks_on_node` vectors of `bytes` each (every
// rank holds at least its own), so that a size far too large is refused at once.
void check_vector_memory(std::uint64_t bytes, int ranks_on_node, const topo::Machine& machine);

// `machine` is the live machine the schedule was generated for. Throws
// CheckError for an invalid schedule, UsageError for one it cannot run
// (several nodes, net tasks, more than max_threads_per_pu threads per PU,
// buffers beyond the machine's memory),
// VerificationError for a wrong result.
ExecResult run_on_threads(const sched::Schedule& schedule, const topo::Machine& machine, const ExecOptions& options);

}  // namespace numacoll::exec
