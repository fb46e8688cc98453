// A flag: one cache line that a thread sets to tell another its data is
// ready. Generation counters (the iteration number) mean no reset between
// iterations. Waiting spins first (the fast path when every thread has a
// core), then blocks on a futex through std::atomic::wait, so that runs with
// more threads than cores (oversubscribed, as on small CI machines) finish.
#pragma once

#include <atomic>
#include <cstdint>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace numacoll::exec {

struct alignas(64) Flag {
    std::atomic<std::uint32_t> generation{0};

    // Publishing is the store; waking sleepers (a system call only when some
    // waiter went to sleep) comes after, so that timestamps can sit between.
    void publish(std::uint32_t value) { generation.store(value, std::memory_order_release); }
    void wake() { generation.notify_all(); }
    bool reached(std::uint32_t value) const { return generation.load(std::memory_order_acquire) >= value; }

    // `spins`: how long to spin before sleeping (a waiter whose core the
    // setter may need spins less).
    void wait_for(std::uint32_t value, int spins = spin_limit) const {
        for (int spin = 0; spin < spins; ++spin) {
            if (generation.load(std::memory_order_acquire) >= value) return;
#if defined(__x86_64__)
            _mm_pause();
#endif
        }
        for (std::uint32_t seen = generation.load(std::memory_order_acquire); seen < value;
             seen = generation.load(std::memory_order_acquire))
            generation.wait(seen, std::memory_order_acquire);
    }

    static constexpr int spin_limit = 4096;
};

static_assert(sizeof(Flag) == 64, "a flag fills its own cache line");

}  // namespace numacoll::exec
