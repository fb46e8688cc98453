#include "exec/harness.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <mutex>
#include <thread>

#include "common/error.hpp"
#include "common/output_file.hpp"
#include "exec/spin_barrier.hpp"

namespace numacoll::exec {

void check_iteration_counts(const HarnessOptions& options) {
    if (options.warmup_iterations < 0 || options.timed_iterations < 1)
        throw UsageError(fmt::format("iterations must be >= 1 and warm-up >= 0 (got {} and {})", options.timed_iterations,
                                     options.warmup_iterations));
}

HarnessResult run_iterations(const std::vector<int>& pus, MemoryBinding& binding, const HarnessOptions& options,
                             IterationWork& work) {
    check_iteration_counts(options);
    const int threads = static_cast<int>(pus.size());
    const int timed_end = options.warmup_iterations + options.timed_iterations;
    const int total = timed_end + (options.trace ? 1 : 0);
    HarnessResult result;
    result.iterations = total;
    result.arrivals.assign(total, std::vector<Clock::time_point>(threads));
    result.departures.assign(total, std::vector<Clock::time_point>(threads));
    std::vector<std::vector<double>> thread_ns(total, std::vector<double>(threads, 0));
    std::mutex binding_mutex;
    SpinBarrier meeting(threads);

    const auto thread_main = [&](int thread) {
        block_interrupts_in_this_thread();  // the thread that owns the output files takes Ctrl-C
        if (options.pin_threads) {
            std::lock_guard lock(binding_mutex);
            binding.pin_current_thread(pus[thread]);
        }
        for (int it = 1; it <= total; ++it) {
            const auto iteration = static_cast<std::uint32_t>(it);
            work.prepare(thread, iteration);
            meeting.arrive_and_wait();
            if (options.before_arrival) options.before_arrival(thread);
            const bool record = options.trace && it == total;
            const Clock::time_point start = Clock::now();
            work.run(thread, iteration, record);
            const Clock::time_point end = Clock::now();
            thread_ns[it - 1][thread] = nanoseconds(start, end);
            result.arrivals[it - 1][thread] = start;
            result.departures[it - 1][thread] = end;
            // Nobody prepares the next iteration while another thread may still run this one.
            meeting.arrive_and_wait();
        }
    };
    std::vector<std::thread> running;
    for (int thread = 0; thread < threads; ++thread) running.emplace_back(thread_main, thread);
    for (auto& thread : running) thread.join();

    for (int it = options.warmup_iterations; it < timed_end; ++it)
        result.iteration_ns.push_back(*std::max_element(thread_ns[it].begin(), thread_ns[it].end()));
    result.stats = summarize_times(result.iteration_ns);
    result.threads_pinned = options.pin_threads && binding.threads_pinned();
    return result;
}

}  // namespace numacoll::exec
