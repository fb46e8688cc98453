// exec::run_iterations: the timing harness every measurement goes through
// (HPDC'13 section 3.4): one pinned thread per participant, warm-up
// iterations, then timed ones. Before each, every thread does its untimed
// preparation (a collective rewrites its inputs: the paper's Modified-state
// setup), then all meet at a barrier outside the timed region and wait for
// one instant, set a microsecond ahead by the first thread; an iteration's
// time runs from the first thread's start to the last thread's end. (Timing
// each thread from its own start hid what the first thread does while the
// others are still leaving the barrier, such as the flag of a broadcast's
// root; the common instant keeps the starts within a clock read of each
// other, so that the span does not count the barrier's exit either.) With `trace`, one
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

// How far ahead of the barrier's end the common start of an iteration lies:
// enough for every thread to read it (a few cache-line transfers). A lone
// thread (a process of the native MPI baseline) starts at once: waiting
// after the MPI barrier made its MPI_Allreduce about 100 ns slower than the
// same call made straight after the barrier.
inline constexpr std::int64_t common_start_lead_ns = 1000;

// Iterations by message size, as the OSU micro-benchmarks count them for
// collectives (osu_util.h): 1000 timed after 200 untimed up to 8 KiB, 100
// after 10 above; many where one is short, so that each point takes a
// comparable time. HarnessOptions ask for them with these values.
inline constexpr int iterations_by_size = 0;          // timed_iterations
inline constexpr int iterations_by_size_warmup = -1;  // warmup_iterations
inline constexpr std::uint64_t osu_large_message_bytes = 8192;

struct HarnessOptions {
    int warmup_iterations = 10;
    int timed_iterations = 100;
    bool pin_threads = true;
    bool trace = false;  // one more, recorded iteration
    // The threads whose work is timed (empty: all). A microbenchmark's
    // helper that only prepares data (a writer whose line another thread
    // reads) does nothing in the timed region, and its start is not the work's.
    std::vector<bool> timed_threads;
    // Called by each thread after the meeting that starts an iteration, before
    // its clock starts (tests delay one thread here to prove that a barrier waits).
    std::function<void(int thread)> before_arrival;
    // Called by thread 0 once every thread has prepared an iteration, before
    // it sets the common start: an engine with a process per node posts its
    // receives and meets the other processes there, outside the timed region.
    std::function<void(std::uint32_t iteration)> at_meeting;
    // Thread 0 is the calling thread, pinned like the others, instead of a
    // new one: the native baseline's process keeps to one thread, so that
    // it may initialise MPI_THREAD_SINGLE (exec/mpi_world.hpp).
    bool first_thread_is_caller = false;
};

struct HarnessResult {
    std::vector<double> iteration_ns;  // timed iterations, in order: first start to last end
    TimeStats stats;
    // Per iteration (all of them, warm-up and trace included), per thread:
    // when its clock started and stopped. Index [iteration - 1][thread].
    std::vector<std::vector<Clock::time_point>> arrivals, departures;
    bool threads_pinned = false;
    int iterations = 0;  // in all
};

// UsageError for fewer than 1 timed iteration or a negative warm-up.
void check_iteration_counts(const HarnessOptions& options);
// Replaces iterations asked for by size (above) with their counts for a
// message of `bytes`, then checks them (UsageError).
void resolve_iterations(HarnessOptions& options, std::uint64_t bytes);

// Runs `work` on one thread per entry of `pus` (logical PUs), each pinned to
// its PU when asked; the iteration counts are checked first.
HarnessResult run_iterations(const std::vector<int>& pus, MemoryBinding& binding, const HarnessOptions& options,
                             IterationWork& work);

// The harness's own share of every iteration it times on these PUs: the
// median of iterations in which no thread does anything (two clock reads
// per thread, and how far apart the threads leave the common start).
// `timed_threads` as in HarnessOptions.
double timing_floor_ns(const std::vector<int>& pus, MemoryBinding& binding, bool pin_threads = true,
                       const std::vector<bool>& timed_threads = {});

}  // namespace numacoll::exec
