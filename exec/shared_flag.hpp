// exec::SharedFlag: a flag (exec/flag.hpp) that processes mapping the same
// memory can wait on. std::atomic::wait cannot serve here: libstdc++ sleeps
// on a private futex and wakes only sleepers its own process registered, so
// a process would never hear another's notify. This flag counts its
// sleepers in its own cache line and sleeps and wakes with shared futexes.
//
// Wake-ups: a sleeper counts itself, then reads the generation (sequentially
// consistent); a setter stores the generation, then reads the count, with
// no fence between: a fence would hold the setter until every other core
// had dropped its copy of the line (a transfer between cores, twice in a
// served call), where without one it goes on to its next task while the
// line moves. The price: a setter may read the count before its store
// leaves the store buffer (nanoseconds), miss a sleeper that counted itself
// meanwhile, and not wake it. So a sleeper sleeps at most max_sleep_ns at a
// time and looks again: a wake-up missed that way costs at most that long,
// and nothing waits forever.
#pragma once

#include <linux/futex.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <climits>
#include <cstddef>
#include <cstdint>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace numacoll::exec {

struct alignas(64) SharedFlag {
    std::atomic<std::uint32_t> generation{0};
    std::atomic<std::uint32_t> sleepers{0};

    void publish(std::uint32_t value) { generation.store(value, std::memory_order_release); }
    void wake() {
        std::atomic_signal_fence(std::memory_order_seq_cst);  // the compiler keeps the order; the processor need not
        if (sleepers.load(std::memory_order_relaxed) > 0)
            ::syscall(SYS_futex, reinterpret_cast<std::uint32_t*>(&generation), FUTEX_WAKE, INT_MAX, nullptr, nullptr, 0);
    }
    // Generations are compared as a distance, so that a counter that wraps
    // after 2^32 calls (a library serving one call billions of times) still
    // orders any two values less than 2^31 apart.
    static bool at_least(std::uint32_t seen, std::uint32_t value) {
        return static_cast<std::int32_t>(seen - value) >= 0;
    }
    bool reached(std::uint32_t value) const { return at_least(generation.load(std::memory_order_acquire), value); }

    // Sleeps until `value` is reached, or at most `timeout_ns` when positive
    // and below max_sleep_ns, else max_sleep_ns (spurious returns are fine:
    // callers loop).
    void sleep_for(std::uint32_t value, long timeout_ns) {
        sleepers.fetch_add(1, std::memory_order_seq_cst);
        const std::uint32_t seen = generation.load(std::memory_order_seq_cst);
        if (!at_least(seen, value)) {
            const long bound_ns = timeout_ns > 0 && timeout_ns < max_sleep_ns ? timeout_ns : max_sleep_ns;
            timespec timeout{0, bound_ns};
            ::syscall(SYS_futex, reinterpret_cast<std::uint32_t*>(&generation), FUTEX_WAIT, seen, &timeout, nullptr, 0);
        }
        sleepers.fetch_sub(1, std::memory_order_seq_cst);
    }

    // Spins first, then sleeps, as Flag::wait_for does.
    void wait_for(std::uint32_t value, int spins = spin_limit) {
        for (int spin = 0; spin < spins; ++spin) {
            if (reached(value)) return;
#if defined(__x86_64__)
            _mm_pause();
#endif
        }
        while (!reached(value)) sleep_for(value, 0);
    }

    static constexpr int spin_limit = 4096;
    static constexpr long max_sleep_ns = 1'000'000;
};

static_assert(sizeof(SharedFlag) == 64, "a flag fills its own cache line");

// What a flag's line holds besides the flag: up to 48 bytes from offset 16
// (aligned for any element type), written before the flag is raised and read
// after it is seen, so that one line crossing cores carries both.
inline constexpr std::size_t flag_payload_offset = 16;
inline constexpr std::size_t flag_payload_bytes = sizeof(SharedFlag) - flag_payload_offset;
static_assert(std::atomic<std::uint32_t>::is_always_lock_free, "a lock-free atomic works between processes");

}  // namespace numacoll::exec
