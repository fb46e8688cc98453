// The microbenchmarks on this machine, small: each runs through the
// harness, checks its own result and gives a time per unit that is not
// nonsense (a flag positive and under a millisecond, a chase per line and
// not per iteration), and a larger copy takes longer than a small one.
#include "calibrate/microbenchmarks.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "common/error.hpp"

using namespace numacoll;
using costs::Level;

namespace {

const topo::Machine& live() {
    static const topo::Machine machine = topo::load_live();
    return machine;
}

calibrate::BenchmarkIterations few() {
    calibrate::BenchmarkIterations iterations;
    iterations.warmup = 1;
    iterations.timed = 5;
    iterations.flag_rounds = 10;
    return iterations;
}

int last_pu() { return live().pu_count() - 1; }

}  // namespace

TEST(Microbenchmarks, CopiesAndReductionsRunAndCheckTheirResults) {
    calibrate::Microbenchmarks bench(live(), few());
    const calibrate::PuPair local{0, 0}, across{last_pu(), 0};
    const auto small = bench.copy(Level::local_cache, local, 1024);
    const auto large = bench.copy(Level::local_cache, local, 1 << 20);
    EXPECT_GE(small.measurement.time_ns, 0);  // less the harness floor: a tiny copy may be within it
    EXPECT_GT(large.measurement.time_ns, small.measurement.time_ns);
    EXPECT_EQ(small.measurement.iterations, 5);
    EXPECT_EQ(small.iteration_ns.size(), 5u);
    EXPECT_GT(bench.reduce(Level::same_socket, across, 4096).measurement.time_ns, 0);
    EXPECT_GT(bench.reduce(Level::local_cache, local, 4096).measurement.time_ns, 0);
    const auto pair = bench.contended_copy(Level::same_socket, {{last_pu(), 0}, {0, last_pu()}}, 65536);
    EXPECT_EQ(pair.measurement.streams, 2);
    EXPECT_EQ(pair.measurement.pus, std::to_string(last_pu()) + ",0,0," + std::to_string(last_pu()));
}

TEST(Microbenchmarks, FlagsChasesAndComputeGiveTimesPerUnit) {
    calibrate::Microbenchmarks bench(live(), few());
    const auto flag = bench.flag(Level::same_socket, {last_pu(), 0});
    EXPECT_GT(flag.measurement.time_ns, 0);
    EXPECT_LT(flag.measurement.time_ns, 1e6);
    const auto chase = bench.dram_chase(0, 8 << 20, 1000);
    EXPECT_GT(chase.measurement.time_ns, 0);
    EXPECT_LT(chase.measurement.time_ns, 1e5);  // per line, not per iteration
    EXPECT_GT(bench.dram_copy({0}, 1 << 20).measurement.time_ns, 0);
    EXPECT_GT(bench.compute(0, 1e5).measurement.time_ns, 0);
}

// The chase walks every line once per cycle, whatever the count of lines.
TEST(Microbenchmarks, AChaseCycleGoesThroughEveryLineOnce) {
    for (std::uint64_t lines : {1, 2, 3, 7, 64, 1000, 4099}) {
        const std::uint64_t stride = 8;
        std::vector<std::uint64_t> next(lines * stride, lines);  // `lines`: no line written
        calibrate::write_chase_cycle(next.data(), lines, stride);
        std::vector<bool> seen(lines, false);
        std::uint64_t at = 0;
        for (std::uint64_t step = 0; step < lines; ++step) {
            ASSERT_LT(at, lines) << lines << " lines, step " << step;
            EXPECT_FALSE(seen[at]) << lines << " lines: line " << at << " twice";
            seen[at] = true;
            at = next[at * stride];
        }
        EXPECT_EQ(at, 0u) << lines << " lines: the walk does not return to line 0";
    }
}

// Concurrent DRAM copies carve their parts from the pool that a single copy
// of the same total made: each still moves its own bytes (dram_copy checks
// every stream's destination).
TEST(Microbenchmarks, ConcurrentDramCopiesEachMoveTheirOwnBytes) {
    calibrate::Microbenchmarks bench(live(), few(), /*keep_dram_buffers=*/true);
    EXPECT_GT(bench.dram_copy({0}, 1 << 20).measurement.time_ns, 0);
    const auto both = bench.dram_copy({0, last_pu()}, 1 << 19);  // checks each stream's destination
    EXPECT_GT(both.measurement.time_ns, 0);
    EXPECT_EQ(both.measurement.streams, 2);
}
