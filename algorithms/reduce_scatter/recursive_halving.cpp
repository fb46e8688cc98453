// reduce_scatter "recursive-halving" (Open MPI's algorithm 2; Thakur,
// Rabenseifner, Gropp 2005, reduce-scatter for commutative operations):
// log2 p' rounds, each halving the blocks a rank still folds, after the
// excess ranks of a count that is not a power of two fold in; they get
// their block last (patterns/flat_reduce_scatter.hpp). Few rounds: small
// and medium blocks.
#include "algorithms/patterns/flat_reduce_scatter.hpp"
#include "algorithms/registry.hpp"

namespace numacoll::algo {

AlgorithmInfo reduce_scatter_recursive_halving_info() {
    return {Collective::reduce_scatter, "recursive-halving",
            "log2 p rounds, each rank folding the half of its blocks its half of the ranks owns; small blocks",
            "Thakur, Rabenseifner, Gropp 2005 (reduce-scatter); Open MPI coll/tuned reduce_scatter recursive_halving "
            "(algorithm 2)",
            {},
            [](const CollectiveSpec& spec, const Layout& layout, const OptionReader&) {
                return flat_reduce_scatter_schedule(spec, layout, recursive_halving_reduce_scatter);
            },
            RankKind::process};
}

}  // namespace numacoll::algo
