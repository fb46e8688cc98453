// barrier "two-proc" (Open MPI's algorithm 5): on exactly two ranks, one
// exchange of signals, each rank leaving once it has the other's. Open MPI
// refuses it on other counts, and so does numacoll.
#include "algorithms/patterns/barrier_signals.hpp"
#include "algorithms/registry.hpp"

namespace numacoll::algo {

AlgorithmInfo barrier_two_proc_info() {
    AlgorithmInfo info{Collective::barrier, "two-proc", "one exchange of signals between the two ranks; two ranks only",
                       "Open MPI coll/tuned barrier two_proc (algorithm 5)",
                       {},
                       [](const CollectiveSpec& spec, const Layout& layout, const OptionReader&) {
                           ScheduleBuilder builder(layout, spec);
                           BarrierSignals signals(builder);
                           signals.round({{0, 1}, {1, 0}}, "two-proc");
                           return signals.finish();
                       },
                       RankKind::process};
    info.exact_ranks = 2;
    return info;
}

}  // namespace numacoll::algo
