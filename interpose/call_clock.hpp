// interpose::call_clock: the duration of one intercepted call, read at a
// cost small beside the call. steady_clock goes through the kernel's clock
// source, which in a virtual machine (kvm-clock) costs 40-60 ns a read, two
// per call; the time-stamp counter costs a few. So where the processor's
// counter ticks at one constant rate on every core (x86's invariant TSC),
// a call's time is counted in its ticks, and converted to nanoseconds once,
// for the report, by a rate measured against steady_clock over the whole
// run; elsewhere a tick is steady_clock's nanosecond.
//
// Invariant: ticks() never goes back on one core, and ns_per_tick() is the
// same rate for every tick of the run.
#pragma once

#include <chrono>
#include <cstdint>

#if defined(__x86_64__)
#include <x86intrin.h>
#endif

namespace numacoll::interpose::call_clock {

namespace detail {
bool counter_is_invariant();
inline const bool use_counter = counter_is_invariant();
}  // namespace detail

inline std::uint64_t ticks() {
#if defined(__x86_64__)
    if (detail::use_counter) return __rdtsc();
#endif
    return static_cast<std::uint64_t>(
        std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
            .count());
}

// Marks the start of the span the rate is measured over (the library's
// initialisation); ns_per_tick() measures it over at least a millisecond.
void start();
double ns_per_tick();

}  // namespace numacoll::interpose::call_clock
