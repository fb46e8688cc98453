// alltoall "two-proc" (Open MPI's algorithm 5): on exactly two ranks, one
// send-receive of the partner's block, then the own block; the pairwise
// exchange's single step. Open MPI refuses it on other counts, and so does
// numacoll (algorithms/alltoall/blocks.hpp).
#include "algorithms/alltoall/blocks.hpp"
#include "algorithms/registry.hpp"

namespace numacoll::algo {

AlgorithmInfo alltoall_two_proc_info() {
    AlgorithmInfo info{Collective::alltoall, "two-proc",
                       "one send-receive with the other rank, then the own block; two ranks only",
                       "Open MPI coll/tuned alltoall two_proc (algorithm 5)",
                       {},
                       [](const CollectiveSpec& spec, const Layout& layout, const OptionReader&) {
                           AlltoallBlocks alltoall(spec, layout);
                           pairwise_exchange(alltoall);
                           return alltoall.finish();
                       },
                       RankKind::process};
    info.exact_ranks = 2;
    return info;
}

}  // namespace numacoll::algo
