#include "interpose/call_clock.hpp"

#include <mutex>

#if defined(__x86_64__)
#include <cpuid.h>
#endif

namespace numacoll::interpose::call_clock {

namespace {

using Steady = std::chrono::steady_clock;

struct Origin {
    std::once_flag once;
    std::uint64_t ticks = 0;
    Steady::time_point time;
};

Origin& origin() {
    static Origin the_origin;
    return the_origin;
}

}  // namespace

bool detail::counter_is_invariant() {
#if defined(__x86_64__)
    unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
    // CPUID 0x80000007, EDX bit 8: the counter runs at a constant rate in every state.
    if (__get_cpuid(0x80000007, &eax, &ebx, &ecx, &edx) == 0) return false;
    return (edx & (1u << 8)) != 0;
#else
    return false;
#endif
}

void start() {
    Origin& o = origin();
    std::call_once(o.once, [&o] {
        o.time = Steady::now();
        o.ticks = ticks();
    });
}

double ns_per_tick() {
    if (!detail::use_counter) return 1.0;
    start();
    const Origin& o = origin();
    // A run shorter than a millisecond waits out the rest, so that the
    // rate's error stays below a part in ten thousand of its clocks' reads.
    Steady::time_point now = Steady::now();
    while (now - o.time < std::chrono::milliseconds(1)) now = Steady::now();
    const std::uint64_t elapsed_ticks = ticks() - o.ticks;
    const double elapsed_ns = std::chrono::duration<double, std::nano>(now - o.time).count();
    return elapsed_ticks > 0 ? elapsed_ns / static_cast<double>(elapsed_ticks) : 1.0;
}

}  // namespace numacoll::interpose::call_clock
