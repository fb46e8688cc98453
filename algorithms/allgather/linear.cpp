// allgather "linear" (Open MPI's algorithm 1, basic linear): a linear
// gather of every rank's block to rank 0, then a linear broadcast of the p
// blocks from rank 0, which every other rank reads whole. Two phases
// through one rank: few ranks.
#include <fmt/format.h>

#include "algorithms/allgather/blocks.hpp"
#include "algorithms/registry.hpp"

namespace numacoll::algo {

namespace {

Schedule linear_allgather(const CollectiveSpec& spec, const Layout& layout, const OptionReader&) {
    AllgatherBlocks allgather(spec, layout);
    const int p = allgather.ranks();
    allgather.own_block(0);
    for (int rank = 1; rank < p; ++rank) {
        const int task = allgather.p2p().move(rank, allgather.input(rank), {}, 0, allgather.blocks(0, rank, 1),
                                              fmt::format("gather{}", rank));
        allgather.ready().set(0, rank, 1, task);
    }
    for (int rank = 1; rank < p; ++rank) allgather.pass(0, rank, 0, p, fmt::format("bcast{}", rank));
    return allgather.finish();
}

}  // namespace

AlgorithmInfo allgather_linear_info() {
    return {Collective::allgather, "linear",
            "a linear gather to rank 0, then a linear broadcast of all blocks from it; few ranks",
            "Open MPI coll/tuned allgather basic linear (algorithm 1: gather, then broadcast)", {}, linear_allgather,
            RankKind::process};
}

}  // namespace numacoll::algo
