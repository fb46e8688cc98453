#include "algorithms/gather/linear.hpp"

#include <fmt/format.h>

#include "algorithms/gather/blocks.hpp"

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
