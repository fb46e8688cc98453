// allreduce "linear" (Open MPI's basic_linear, coll_tuned_allreduce_algorithm
// 1): a linear reduce to rank 0, which folds every other rank's vector, then
// a linear broadcast from rank 0. The frame is patterns/flat_allreduce.hpp.
#include "algorithms/patterns/flat_allreduce.hpp"
#include "algorithms/registry.hpp"

namespace numacoll::algo {

AlgorithmInfo allreduce_linear_info() {
    return {Collective::allreduce, "linear",
            "rank 0 folds every rank's vector in turn, then sends the result to each; two or three ranks",
            "Open MPI coll/tuned allreduce basic_linear (algorithm 1)",
            {},
            [](const CollectiveSpec& spec, const Layout& layout, const OptionReader&) {
                return flat_allreduce_schedule(spec, layout, 0, [](FlatAllreduceChunk& chunk) {
                    reduce_then_bcast(chunk, FlatAlgorithm::linear, FlatAlgorithm::linear);
                });
            },
            RankKind::process};
}

}  // namespace numacoll::algo
