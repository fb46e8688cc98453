#include "exec/harness.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <mutex>
#include <optional>
#include <thread>

#include "common/error.hpp"
#include "common/output_file.hpp"
#include "exec/flag.hpp"
#include "exec/spin_barrier.hpp"

namespace numacoll::exec {

void resolve_iterations(HarnessOptions& options, std::uint64_t bytes) {
    const bool small = bytes <= osu_large_message_bytes;
    if (options.timed_iterations == iterations_by_size) options.timed_iterations = small ? 1000 : 100;
    if (options.warmup_iterations == iterations_by_size_warmup) options.warmup_iterations = small ? 200 : 10;
    check_iteration_counts(options);
}

void check_iteration_counts(const HarnessOptions& options) {
    if (options.warmup_iterations < 0 || options.timed_iterations < 1)
        throw UsageError(fmt::format("iterations must be >= 1 and warm-up >= 0 (got {} and {})", options.timed_iterations,
                                     options.warmup_iterations));
}

namespace {

void check_timed_threads(const HarnessOptions& options, std::size_t threads) {
    if (options.timed_threads.empty()) return;
    if (options.timed_threads.size() != threads ||
        std::none_of(options.timed_threads.begin(), options.timed_threads.end(), [](bool timed) { return timed; }))
        throw UsageError("the harness needs one timed_threads entry per thread, and one thread timed at least");
}

}  // namespace

HarnessResult run_iterations(const std::vector<int>& pus, MemoryBinding& binding, const HarnessOptions& options,
                             IterationWork& work) {
    check_iteration_counts(options);
    check_timed_threads(options, pus.size());
    const int threads = static_cast<int>(pus.size());
    const int timed_end = options.warmup_iterations + options.timed_iterations;
    const int total = timed_end + (options.trace ? 1 : 0);
    HarnessResult result;
    result.iterations = total;
    result.arrivals.assign(total, std::vector<Clock::time_point>(threads));
    result.departures.assign(total, std::vector<Clock::time_point>(threads));
    std::mutex binding_mutex;
    SpinBarrier meeting(threads);
    // The common start of each iteration: thread 0 sets it a little ahead,
    // and every thread waits for that instant, so that no thread's clock
    // starts before another's (leaving the barrier takes each a cache line's
    // transfer, by which time the first may have done its part).
    std::atomic<std::int64_t> start_at_ns{0};
    Flag start_set;

    const auto thread_main = [&](int thread) {
        const bool caller = thread == 0 && options.first_thread_is_caller;
        if (!caller) block_interrupts_in_this_thread();  // the thread that owns the output files takes Ctrl-C
        if (options.pin_threads) {
            std::lock_guard lock(binding_mutex);
            binding.pin_current_thread(pus[thread]);
        }
        for (int it = 1; it <= total; ++it) {
            const auto iteration = static_cast<std::uint32_t>(it);
            work.prepare(thread, iteration);
            meeting.arrive_and_wait();
            if (thread == 0) {
                if (options.at_meeting) options.at_meeting(iteration);
                // One thread has nobody to start with: it starts at once.
                const auto ahead = Clock::now() + std::chrono::nanoseconds(threads > 1 ? common_start_lead_ns : 0);
                start_at_ns.store(ahead.time_since_epoch().count(), std::memory_order_relaxed);
                start_set.publish(iteration);
                start_set.wake();
            } else {
                start_set.wait_for(iteration);
            }
            const Clock::time_point common_start{Clock::duration(start_at_ns.load(std::memory_order_relaxed))};
            if (options.before_arrival) options.before_arrival(thread);
            const bool record = options.trace && it == total;
            while (Clock::now() < common_start) {
                // No pause: the shorter the loop, the closer together the threads leave it.
            }
            const Clock::time_point start = Clock::now();
            work.run(thread, iteration, record);
            const Clock::time_point end = Clock::now();
            result.arrivals[it - 1][thread] = start;
            result.departures[it - 1][thread] = end;
            // Nobody prepares the next iteration while another thread may still run this one.
            meeting.arrive_and_wait();
        }
    };
    std::vector<std::thread> running;
    for (int thread = options.first_thread_is_caller ? 1 : 0; thread < threads; ++thread)
        running.emplace_back(thread_main, thread);
    if (options.first_thread_is_caller) thread_main(0);
    for (auto& thread : running) thread.join();

    const auto timed = [&](int thread) { return options.timed_threads.empty() || options.timed_threads[thread]; };
    for (int it = options.warmup_iterations; it < timed_end; ++it) {
        std::optional<Clock::time_point> first_start, last_end;
        for (int thread = 0; thread < threads; ++thread) {
            if (!timed(thread)) continue;
            first_start = std::min(first_start.value_or(result.arrivals[it][thread]), result.arrivals[it][thread]);
            last_end = std::max(last_end.value_or(result.departures[it][thread]), result.departures[it][thread]);
        }
        result.iteration_ns.push_back(nanoseconds(*first_start, *last_end));
    }
    result.stats = summarize_times(result.iteration_ns);
    result.threads_pinned = options.pin_threads && binding.threads_pinned();
    return result;
}

namespace {

class NoWork : public IterationWork {
public:
    void prepare(int, std::uint32_t) override {}
    void run(int, std::uint32_t, bool) override {}
};

}  // namespace

double timing_floor_ns(const std::vector<int>& pus, MemoryBinding& binding, bool pin_threads,
                       const std::vector<bool>& timed_threads) {
    HarnessOptions options;
    options.timed_threads = timed_threads;
    options.warmup_iterations = 100;
    options.timed_iterations = 1000;
    options.pin_threads = pin_threads;
    NoWork nothing;
    return run_iterations(pus, binding, options, nothing).stats.median_ns;
}

}  // namespace numacoll::exec
