// bcast "scatter-allgather-ring" (Open MPI's coll_tuned_bcast algorithm 9):
// a binomial scatter of p blocks (bcast/scattered.hpp), then a ring
// allgather of p - 1 steps: in step i relative rank v hands block
// v - i + 1 to v + 1. Bandwidth-optimal at any p; large vectors.
#include <fmt/format.h>

#include "algorithms/bcast/scattered.hpp"
#include "algorithms/registry.hpp"

namespace numacoll::algo {

namespace {

void ring_allgather(Pieces& pieces, int ranks) {
    for (int step = 1; step < ranks; ++step) {
        std::vector<Pieces::Send> sends;
        for (int v = 0; v < ranks; ++v) sends.push_back({v, (v + 1) % ranks, (v - step + 1 + ranks) % ranks, 1});
        pass_to_non_root(pieces, sends, fmt::format("ring{}", step));
    }
}

}  // namespace

AlgorithmInfo bcast_scatter_allgather_ring_info() {
    return {Collective::bcast, "scatter-allgather-ring",
            "binomial scatter of p blocks, then a ring allgather; large vectors at any rank count",
            "Open MPI coll/tuned bcast scatter_allgather_ring (algorithm 9)", {},
            [](const CollectiveSpec& spec, const Layout& layout, const OptionReader&) {
                return scatter_then_allgather(spec, layout, ring_allgather);
            },
            RankKind::process};
}

}  // namespace numacoll::algo
