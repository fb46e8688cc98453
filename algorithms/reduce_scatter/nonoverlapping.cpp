// reduce_scatter "nonoverlapping" (Open MPI's algorithm 1): a binomial
// reduce of every rank's p blocks to rank 0, then a linear scatter of the
// result, one phase after the other (patterns/flat_reduce_scatter.hpp).
// Rank 0 folds and sends everything: few ranks.
#include "algorithms/patterns/flat_reduce_scatter.hpp"
#include "algorithms/registry.hpp"

namespace numacoll::algo {

AlgorithmInfo reduce_scatter_nonoverlapping_info() {
    return {Collective::reduce_scatter, "nonoverlapping",
            "a binomial reduce of all blocks to rank 0, then a linear scatter; few ranks",
            "Open MPI coll/tuned reduce_scatter non-overlapping (algorithm 1: reduce, then scatterv)",
            {},
            [](const CollectiveSpec& spec, const Layout& layout, const OptionReader&) {
                return flat_reduce_scatter_schedule(spec, layout, reduce_then_scatter);
            },
            RankKind::process};
}

}  // namespace numacoll::algo
