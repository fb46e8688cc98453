// barrier "dissemination" (HPDC'13 sections 2.3 and 5; Hensgen, Finkel and
// Manber's dissemination barrier): in round i every rank j signals rank
// (j + 2^i) mod p, so that after ceil(log2 p) rounds every rank has heard,
// directly or not, from every other. No data, no buffers, any rank count;
// a signal between nodes is a message without payload. It is Open MPI's
// "bruck" barrier (coll_tuned_barrier_algorithm 4), which sends to
// rank + 2^i and receives from rank - 2^i in the same rounds.
#include <fmt/format.h>

#include "algorithms/patterns/barrier_signals.hpp"
#include "algorithms/registry.hpp"

namespace numacoll::algo {

namespace {

Schedule dissemination_barrier_schedule(const CollectiveSpec& spec, const Layout& layout, const OptionReader&) {
    ScheduleBuilder builder(layout, spec);
    BarrierSignals signals(builder);
    const int p = layout.size();
    for (int distance = 1, round = 0; distance < p; distance *= 2, ++round) {
        std::vector<std::pair<int, int>> pairs;
        for (int rank = 0; rank < p; ++rank) pairs.emplace_back(rank, (rank + distance) % p);
        signals.round(pairs, fmt::format("dis:r{}", round));
    }
    return signals.finish();
}

}  // namespace

AlgorithmInfo barrier_dissemination_info() {
    return {Collective::barrier, "dissemination",
            "ceil(log2 p) rounds of signals, no tree; fewest steps, for any rank count (Open MPI's bruck)",
            "Li, Hoefler, Snir, HPDC'13, sections 2.3 and 5 (Hensgen et al.'s dissemination barrier); Open MPI "
            "coll/tuned barrier bruck (algorithm 4)",
            {}, dissemination_barrier_schedule};
}

}  // namespace numacoll::algo
