// barrier "linear" (Open MPI's basic_linear, coll_tuned_barrier_algorithm
// 1): every other rank signals rank 0, which, once it has heard them all,
// signals each of them.
#include "algorithms/patterns/barrier_signals.hpp"
#include "algorithms/registry.hpp"

namespace numacoll::algo {

namespace {

Schedule linear_barrier_schedule(const CollectiveSpec& spec, const Layout& layout, const OptionReader&) {
    ScheduleBuilder builder(layout, spec);
    BarrierSignals signals(builder);
    for (int rank = 1; rank < layout.size(); ++rank) signals.send(rank, 0, "lin:arrive");
    for (int rank = 1; rank < layout.size(); ++rank) signals.send(0, rank, "lin:release");
    return signals.finish();
}

}  // namespace

AlgorithmInfo barrier_linear_info() {
    return {Collective::barrier, "linear", "every rank signals rank 0, which then releases each; few ranks",
            "Open MPI coll/tuned barrier basic_linear (algorithm 1)", {}, linear_barrier_schedule, RankKind::process};
}

}  // namespace numacoll::algo
