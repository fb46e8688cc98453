// reduce_scatter "butterfly" (Traff 2005; Open MPI's coll_tuned
// reduce_scatter algorithm 4): recursive vector halving with distance
// doubling, then each result block handed to its rank
// (patterns/flat_reduce_scatter.hpp). Large blocks, any rank count.
#include "algorithms/patterns/flat_reduce_scatter.hpp"
#include "algorithms/registry.hpp"

namespace numacoll::algo {

AlgorithmInfo reduce_scatter_butterfly_info() {
    return {Collective::reduce_scatter, "butterfly",
            "vector halving with distance doubling, then each result to its rank; large blocks, any rank count",
            "Traff 2005; Open MPI coll/tuned reduce_scatter butterfly (algorithm 4)", {},
            [](const CollectiveSpec& spec, const Layout& layout, const OptionReader&) {
                return flat_reduce_scatter_schedule(spec, layout, butterfly_reduce_scatter);
            },
            RankKind::process};
}

}  // namespace numacoll::algo
