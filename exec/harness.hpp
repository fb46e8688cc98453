// exec::run_iterations: the timing harness every measurement goes through
// (HPDC'13 section 3.4): one pinned thread per participant, warm-up
// iterations, then timed ones. Before each, every thread does its untimed
// preparation (a collective rewrites its inputs: the paper's Modified-state
// setup), then all meet at a barrier outside the timed region; an
// iteration's time is the longest any thread spent in it. With `trace`, one
// more iteration after the timed ones is recorded by the work itself (its
// extra clock reads stay out of the statistics).
//
// The harness knows nothing of schedules: it runs an IterationWork, which
// the executor makes of a schedule's programs and a microbenchmark of its
// own loop.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <vector>

#include "common/statistics.hpp"
#include "exec/memory_binding.hpp"

namespace numacoll::exec {

using Clock = std::chrono::steady_clock;

inline double nanoseconds(Clock::time_point from, Clock::time_point to) {
    return std::chrono::duration<double, std::nano>(to - from).count();
}

// What each thread does in each iteration. Iterations are numbered from 1.
class IterationWork {
public:
    virtual ~IterationWork() = default;
    // Untimed, before the meeting.
    virtual void prepare(int thread, std::uint32_t iteration) = 0;
    // Timed: the thread's part of the iteration; `record` in the traced one.
    virtual void run(int thread, std::uint32_t iteration, bool record) = 0;
};

struct HarnessOptions {
    int warmup_iterations = 10;
    int timed_iterations = 100;
    bool pin_threads = true;
    bool trace = false;  // one more, recorded iteration
    // Called by each thread after the meeting that starts an iteration, before
    // its clock starts (tests delay one thread here to prove that a barrier waits).
    std::function<void(int thread)> before_arrival;
};

struct HarnessResult {
    std::vector<double> iteration_ns;  // timed iterations, in order: the longest thread of each
    TimeStats stats;
    // Per iteration (all of them, warm-up and trace included), per thread:
    // when its clock started and stopped. Index [iteration - 1][thread].
    std::vector<std::vector<Clock::time_point>> arrivals, departures;
    bool threads_pinned = false;
    int iterations = 0;  // in all
};

// UsageError for fewer than 1 timed iteration or a negative warm-up.
void check_iteration_counts(const HarnessOptions& options);

// Runs `work` on one thread per entry of `pus` (logical PUs), each pinned to
// its PU when asked; the iteration counts are checked first.
HarnessResult run_iterations(const std::vector<int>& pus, MemoryBinding& binding, const HarnessOptions& options,
                             IterationWork& work);

}  // namespace numacoll::exec
