// allgather "two-proc" (Open MPI's algorithm 6): on exactly two ranks, one
// send-receive of the input with the other rank, then the own block into
// the output. Open MPI refuses it on other counts, and so does numacoll.
#include "algorithms/allgather/blocks.hpp"
#include "algorithms/registry.hpp"

namespace numacoll::algo {

namespace {

Schedule two_proc_allgather(const CollectiveSpec& spec, const Layout& layout, const OptionReader&) {
    AllgatherBlocks allgather(spec, layout);
    // Both sides of the send-receive signal before either copies.
    for (int rank = 0; rank < 2; ++rank) allgather.p2p().announce(rank, allgather.input(rank), 1 - rank, "two-proc");
    for (int rank = 0; rank < 2; ++rank) {
        const int other = 1 - rank;
        const int task = allgather.p2p().move(other, allgather.input(other), {}, rank, allgather.blocks(rank, other, 1),
                                              "two-proc");
        allgather.ready().set(rank, other, 1, task);
    }
    for (int rank = 0; rank < 2; ++rank) allgather.own_block(rank);
    return allgather.finish();
}

}  // namespace

AlgorithmInfo allgather_two_proc_info() {
    AlgorithmInfo info{Collective::allgather, "two-proc",
                       "one send-receive with the other rank, then the own block; two ranks only",
                       "Open MPI coll/tuned allgather two_proc (algorithm 6)", {}, two_proc_allgather,
                       RankKind::process};
    info.exact_ranks = 2;
    return info;
}

}  // namespace numacoll::algo
