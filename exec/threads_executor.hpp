// exec::run_on_threads: execute a Schedule for real, inside one process.
//
// One pthread per rank, pinned with hwloc to its PU; every buffer on its
// buffer's NUMA node. Copies are memcpy, reductions fold doubles
// (exec/kernels.hpp); a cross-thread dependency is a padded flag with a
// generation counter (exec/flag.hpp). The engine knows nothing about the
// algorithm that made the schedule.
//
// Timing follows HPDC'13 section 3.4: warm-up iterations, then
// timed ones; before each, every thread rewrites its input (the Modified-state
// setup) and all meet at a barrier outside the timed region; an iteration's
// time is the longest any thread spent in it. After the last iteration every
// output is compared with a reference computed straight from the inputs.
#pragma once

#include <cstddef>
#include <functional>
#include <vector>

#include "schedule/schedule.hpp"
#include "schedule/timeline.hpp"
#include "common/error.hpp"
#include "topologies/machine.hpp"

namespace numacoll::exec {

// A result that differs from the reference: names the rank and the element.
class VerificationError : public CheckError {
public:
    using CheckError::CheckError;
};

struct ExecOptions {
    int warmup_iterations = 10;
    int timed_iterations = 100;
    bool pin_threads = true;
    bool trace = false;  // record every task's start and end in one more, untimed iteration
    // Called for each rank's output after the last iteration, before the
    // check (tests corrupt a buffer here to prove that the check notices).
    std::function<void(int rank, double* output, std::size_t count)> before_verify;
    // Called by each rank after the meeting that starts an iteration, before
    // it arrives (tests delay one rank here to prove that a barrier waits).
    std::function<void(int rank)> before_arrival;
};

struct IterationStats {
    double median_ns = 0, p10_ns = 0, p90_ns = 0, min_ns = 0, max_ns = 0;
    int iterations = 0;
};

IterationStats summarize(std::vector<double> iteration_ns);

struct ExecResult {
    std::vector<double> iteration_ns;  // timed iterations, in order
    IterationStats stats;
    sched::Timeline timeline;            // with ExecOptions::trace: the last iteration
    bool threads_pinned = false;
    bool memory_bound = false;
};

// `machine` is the live machine the schedule was generated for. Throws
// CheckError for an invalid schedule, UsageError for one it cannot run
// (several nodes, net tasks), VerificationError
// for a wrong result.
ExecResult run_on_threads(const sched::Schedule& schedule, const topo::Machine& machine, const ExecOptions& options);

}  // namespace numacoll::exec
