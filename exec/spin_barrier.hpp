// A barrier that spins before it sleeps. Every thread of a timed iteration
// leaves it within a few hundred nanoseconds of the others when each has a
// core (a sleeping std::barrier wakes its threads one futex at a time, which
// would count in the next iteration's time); with more threads than cores it
// blocks on a futex like Flag does.
#pragma once

#include <atomic>
#include <cstdint>

#include "exec/flag.hpp"

namespace numacoll::exec {

class SpinBarrier {
public:
    explicit SpinBarrier(int parties) : parties_(parties) {}

    void arrive_and_wait() {
        const std::uint32_t phase = phase_.load(std::memory_order_acquire);
        if (arrived_.fetch_add(1, std::memory_order_acq_rel) + 1 == parties_) {
            arrived_.store(0, std::memory_order_relaxed);
            phase_.store(phase + 1, std::memory_order_release);
            phase_.notify_all();
            return;
        }
        for (int spin = 0; spin < Flag::spin_limit; ++spin) {
            if (phase_.load(std::memory_order_acquire) != phase) return;
#if defined(__x86_64__)
            _mm_pause();
#endif
        }
        while (phase_.load(std::memory_order_acquire) == phase) phase_.wait(phase, std::memory_order_acquire);
    }

private:
    const int parties_;
    alignas(64) std::atomic<int> arrived_{0};
    alignas(64) std::atomic<std::uint32_t> phase_{0};
};

}  // namespace numacoll::exec
