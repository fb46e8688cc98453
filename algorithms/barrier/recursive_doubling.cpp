// barrier "recursive-doubling" (Open MPI's algorithm 3): with p' the
// largest power of two not above p, rank p' + i first signals rank i; the
// first p' ranks then signal rank XOR 2^k in log2 p' rounds; last, rank i
// releases rank p' + i.
#include <fmt/format.h>

#include "algorithms/patterns/barrier_signals.hpp"
#include "algorithms/patterns/power_of_two.hpp"
#include "algorithms/registry.hpp"

namespace numacoll::algo {

namespace {

Schedule recursive_doubling_barrier_schedule(const CollectiveSpec& spec, const Layout& layout, const OptionReader&) {
    ScheduleBuilder builder(layout, spec);
    BarrierSignals signals(builder);
    const ExcessFold excess = fold_upper(layout.size());
    for (const auto& [from, to] : excess.folds) signals.send(from, to, "rd:fold");
    for (int mask = 1, round = 0; mask < excess.power; mask <<= 1, ++round) {
        std::vector<std::pair<int, int>> pairs;
        for (int rank = 0; rank < excess.power; ++rank) pairs.emplace_back(rank, rank ^ mask);
        signals.round(pairs, fmt::format("rd:r{}", round));
    }
    for (const auto& [from, to] : excess.folds) signals.send(to, from, "rd:unfold");
    return signals.finish();
}

}  // namespace

AlgorithmInfo barrier_recursive_doubling_info() {
    return {Collective::barrier, "recursive-doubling",
            "pairwise signals in log2 p rounds, ranks beyond a power of two folded in first; small and medium p",
            "Open MPI coll/tuned barrier recursive_doubling (algorithm 3)", {}, recursive_doubling_barrier_schedule,
            RankKind::process};
}

}  // namespace numacoll::algo
