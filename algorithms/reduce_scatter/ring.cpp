// reduce_scatter "ring" (Open MPI's algorithm 3; Thakur, Rabenseifner,
// Gropp 2005, reduce-scatter): p - 1 steps around the ring of ranks; in
// each, every rank folds the block its left neighbour hands it into its
// accumulation buffer and hands on the block it folded last. Each rank
// moves (p - 1) m: bandwidth-optimal, for large blocks
// (patterns/flat_reduce_scatter.hpp).
#include "algorithms/patterns/flat_reduce_scatter.hpp"
#include "algorithms/registry.hpp"

namespace numacoll::algo {

AlgorithmInfo reduce_scatter_ring_info() {
    return {Collective::reduce_scatter, "ring",
            "p - 1 neighbour steps, each rank folding the block handed to it; bandwidth-optimal, large blocks",
            "Thakur, Rabenseifner, Gropp 2005 (reduce-scatter); Open MPI coll/tuned reduce_scatter ring (algorithm 3)",
            {},
            [](const CollectiveSpec& spec, const Layout& layout, const OptionReader&) {
                return flat_reduce_scatter_schedule(spec, layout, ring_reduce_scatter);
            },
            RankKind::process};
}

}  // namespace numacoll::algo
