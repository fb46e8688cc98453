// overlap::compose: a collective's schedule as a nonblocking call with
// computation around it, the loop of OSU's overlap benchmarks
// (osu_iallreduce and its siblings) and of an application that hides a
// collective behind work: each rank issues the collective (a progress call
// at once: what MPI_Iallreduce runs before it returns), computes, calls the
// progress engine between grains of computation when asked (MPI_Test), and
// waits for its share of the collective (MPI_Wait).
//
// Invariants: the collective's tasks, buffers and dependencies are copied
// unchanged (ids 0..n-1), so its proof holds; the application's tasks come
// after them, one chain per rank, and move no data (Task::application):
//   issue (wait) -> compute -> [test (wait) -> compute]... -> wait
// where the final wait also depends on every task of the rank's share of
// the collective that no later task of the rank depends on. With no
// computation the chain is issue -> wait: the collective alone, timed the way
// OSU times its "pure communication". What a rank's processor may do while
// it computes, and when the protocol moves, is the engine's (progress
// strategies: sim/progress.hpp; Cardellini, Fanfarillo, Filippone, sections 4-5).
#pragma once

#include <cstdint>
#include <optional>

#include "schedule/schedule.hpp"

namespace numacoll::overlap {

struct ComputeSpec {
    double compute_ns = 0;                 // per rank, 0: none
    // A progress call after each grain of this length (the last grain is
    // what remains); nullopt: none until the final wait.
    std::optional<double> test_every_ns;
    // Without tests, the computation in grains of at most this length (0:
    // one grain): engines that run it for real keep each grain short.
    double grain_ns = 0;
};

// The most grains one rank's computation may be cut into.
inline constexpr std::int64_t max_grains_per_rank = 100000;

// The grains of one rank's computation, in ns (empty without computation).
// UsageError past max_grains_per_rank.
std::vector<double> grains_of(const ComputeSpec& compute);

// `flops_per_ns`: the rate that turns the computation's duration into the
// flops of its compute tasks (the params' core.compute_flops_per_ns, or the
// rate measured on the machine that runs it). The result's spec is the
// collective's with the options compute_ns and test_every_ns added.
// UsageError for a negative or absurd duration, or when the tasks would
// exceed the task budget; the collective must not hold application tasks.
sched::Schedule compose(const sched::Schedule& collective, const ComputeSpec& compute, double flops_per_ns);

}  // namespace numacoll::overlap
