// alltoall "pairwise" (Open MPI's algorithm 2; Thakur, Rabenseifner, Gropp
// 2005, section 4.5): p - 1 send-receive steps; in step s rank r sends its
// block for r + s and receives the block of r - s, starting a step once
// its receive of the step before is done; its own block is copied last.
// One partner at a time: no rank is flooded, medium and large blocks
// (algorithms/alltoall/blocks.hpp).
#include "algorithms/alltoall/blocks.hpp"
#include "algorithms/registry.hpp"

namespace numacoll::algo {

AlgorithmInfo alltoall_pairwise_info() {
    return {Collective::alltoall, "pairwise",
            "p - 1 send-receive steps, one partner each (r + s, r - s); medium and large blocks",
            "Thakur, Rabenseifner, Gropp 2005 (pairwise exchange); Open MPI coll/tuned alltoall pairwise (algorithm 2)",
            {},
            [](const CollectiveSpec& spec, const Layout& layout, const OptionReader&) {
                AlltoallBlocks alltoall(spec, layout);
                pairwise_exchange(alltoall);
                return alltoall.finish();
            },
            RankKind::process};
}

}  // namespace numacoll::algo
