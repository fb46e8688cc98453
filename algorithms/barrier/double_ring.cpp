// barrier "double-ring" (Open MPI's algorithm 2): a token goes twice around
// the ring of ranks from rank 0. After the first trip rank 0 knows everyone
// arrived; the second trip tells everyone. 2p signals one after the other.
#include <fmt/format.h>

#include "algorithms/patterns/barrier_signals.hpp"
#include "algorithms/registry.hpp"

namespace numacoll::algo {

namespace {

Schedule double_ring_barrier_schedule(const CollectiveSpec& spec, const Layout& layout, const OptionReader&) {
    ScheduleBuilder builder(layout, spec);
    BarrierSignals signals(builder);
    const int p = layout.size();
    if (p > 1)
        for (int trip = 0; trip < 2; ++trip)
            for (int rank = 0; rank < p; ++rank) signals.send(rank, (rank + 1) % p, fmt::format("ring:t{}", trip));
    return signals.finish();
}

}  // namespace

AlgorithmInfo barrier_double_ring_info() {
    return {Collective::barrier, "double-ring", "a token twice around the ring of ranks; 2p steps, a baseline",
            "Open MPI coll/tuned barrier double_ring (algorithm 2)", {}, double_ring_barrier_schedule,
            RankKind::process};
}

}  // namespace numacoll::algo
