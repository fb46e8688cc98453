// gather "linear": every rank sends its block straight to the root, in
// root-relative order (Open MPI coll/tuned's basic linear gather). Few
// ranks, or blocks large enough that a tree's extra copies cost more than
// the root's serialised receives.
#include <fmt/format.h>

#include "algorithms/gather/blocks.hpp"
#include "algorithms/registry.hpp"

namespace numacoll::algo {

namespace {

Schedule linear_gather(const CollectiveSpec& spec, const Layout& layout, const OptionReader&) {
    GatherBlocks gather(spec, layout);
    std::vector<int> arrived;
    for (int k = 0; k < gather.ranks(); ++k) {
        const int rank = (gather.root() + k) % gather.ranks();
        arrived.push_back(gather.p2p().move(rank, gather.input(rank), {}, gather.root(), gather.out_blocks(rank, 1),
                                            fmt::format("gather{}", rank)));
    }
    return gather.finish(arrived);
}

}  // namespace

AlgorithmInfo gather_linear_info() {
    return {Collective::gather, "linear", "every rank sends its block to the root; few ranks or large blocks",
            "Open MPI coll/tuned basic linear gather", {}, linear_gather, RankKind::process};
}

}  // namespace numacoll::algo
