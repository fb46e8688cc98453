// barrier "binomial" (Open MPI's "tree", coll_tuned_barrier_algorithm 6):
// arrivals go up a binomial tree to rank 0 (at step 2^k, a rank whose low k
// bits are zero and whose bit k is set signals rank XOR 2^k), then the
// release comes down the same tree in the reverse order of steps.
#include <fmt/format.h>

#include "algorithms/patterns/barrier_signals.hpp"
#include "algorithms/registry.hpp"

namespace numacoll::algo {

namespace {

Schedule binomial_barrier_schedule(const CollectiveSpec& spec, const Layout& layout, const OptionReader&) {
    ScheduleBuilder builder(layout, spec);
    BarrierSignals signals(builder);
    const int p = layout.size();
    int depth = 1;
    while (depth < p) depth *= 2;
    // Children signal their parent, smallest subtrees first (a parent hears them in that order).
    for (int jump = 1; jump < depth; jump *= 2)
        for (int rank = jump; rank < p; rank += 2 * jump) signals.send(rank, rank - jump, fmt::format("bmt:up{}", jump));
    for (int jump = depth / 2; jump >= 1; jump /= 2)
        for (int rank = jump; rank < p; rank += 2 * jump)
            signals.send(rank - jump, rank, fmt::format("bmt:down{}", jump));
    return signals.finish();
}

}  // namespace

AlgorithmInfo barrier_binomial_info() {
    return {Collective::barrier, "binomial",
            "arrivals up a binomial tree to rank 0, release down it; 2 log2 p steps (Open MPI's tree)",
            "Open MPI coll/tuned barrier tree (algorithm 6)", {}, binomial_barrier_schedule, RankKind::process};
}

}  // namespace numacoll::algo
