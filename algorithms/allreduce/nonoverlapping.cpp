// allreduce "nonoverlapping" (Open MPI's algorithm 2): a reduce to rank 0
// then a broadcast from it, one after the other. Open MPI calls the
// communicator's own reduce and bcast, whose choice depends on its
// decision rules; numacoll writes the binomial trees that its fixed
// decision takes for small and medium vectors (Open MPI's reduction tree
// and broadcast tree, patterns/flat_trees.hpp).
#include "algorithms/patterns/flat_allreduce.hpp"
#include "algorithms/registry.hpp"

namespace numacoll::algo {

AlgorithmInfo allreduce_nonoverlapping_info() {
    return {Collective::allreduce, "nonoverlapping",
            "a binomial reduce to rank 0, then a binomial broadcast; the phases do not overlap",
            "Open MPI coll/tuned allreduce nonoverlapping (algorithm 2)",
            {},
            [](const CollectiveSpec& spec, const Layout& layout, const OptionReader&) {
                return flat_allreduce_schedule(spec, layout, 0, [](FlatAllreduceChunk& chunk) {
                    reduce_then_bcast(chunk, FlatAlgorithm::binomial, FlatAlgorithm::binomial);
                });
            },
            RankKind::process};
}

}  // namespace numacoll::algo
