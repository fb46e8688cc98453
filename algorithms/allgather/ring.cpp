// allgather "ring": p-1 steps; in step s rank r passes block r-s to rank
// r+1. Bandwidth-optimal: each block crosses each link once, and ranks of
// one node are neighbours, so the ring leaves a node once per step
// (MPICH/Open MPI ring allgather, as compared in the NUIOA paper, section
// 3.3.3). Each step's signals go out before its copies, as Open MPI's
// send-receive posts both at once (allgather/blocks.hpp).
#include "algorithms/allgather/blocks.hpp"
#include "algorithms/registry.hpp"

namespace numacoll::algo {

AlgorithmInfo allgather_ring_info() {
    return {Collective::allgather, "ring", "p-1 neighbour steps, each block crosses each link once; large blocks",
            "MPICH/Open MPI ring allgather, as compared in the NUIOA paper, section 3.3.3", {},
            [](const CollectiveSpec& spec, const Layout& layout, const OptionReader&) {
                return allgather_in_rounds(spec, layout, ring_rounds);
            },
            RankKind::process};
}

}  // namespace numacoll::algo
