// allgather "ring": p-1 steps; in step s rank r passes block r-s to rank
// r+1. Bandwidth-optimal: each block crosses each link once, and ranks of
// one node are neighbours, so the ring leaves a node once per step
// (MPICH/Open MPI ring allgather, as compared in the NUIOA paper, section 3.3.3).
#include <fmt/format.h>

#include "algorithms/allgather/blocks.hpp"
#include "algorithms/registry.hpp"

namespace numacoll::algo {

namespace {

Schedule ring_allgather(const CollectiveSpec& spec, const Layout& layout, const OptionReader&) {
    AllgatherBlocks allgather(spec, layout);
    const int ranks = allgather.ranks();
    for (int rank = 0; rank < ranks; ++rank) allgather.own_block(rank);
    for (int step = 0; step + 1 < ranks; ++step)
        for (int rank = 0; rank < ranks; ++rank) {
            const int block = (rank - step + ranks) % ranks;
            allgather.pass(rank, (rank + 1) % ranks, block, 1, fmt::format("ring{}", step));
        }
    return allgather.finish();
}

}  // namespace

AlgorithmInfo allgather_ring_info() {
    return {Collective::allgather, "ring", "p-1 neighbour steps, each block crosses each link once; large blocks",
            "MPICH/Open MPI ring allgather, as compared in the NUIOA paper, section 3.3.3", {}, ring_allgather,
            RankKind::process};
}

}  // namespace numacoll::algo
