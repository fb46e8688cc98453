// scatter "linear" (Open MPI's basic_linear, coll_tuned_scatter_algorithm
// 1): the root hands every rank its block straight from its input (a pull
// on one node, a message across nodes) and copies its own. Few ranks, or
// large blocks.
#include <fmt/format.h>

#include "algorithms/registry.hpp"
#include "algorithms/scatter/blocks.hpp"

namespace numacoll::algo {

namespace {

Schedule linear_scatter(const CollectiveSpec& spec, const Layout& layout, const OptionReader&) {
    ScatterBlocks scatter(spec, layout);
    const int ranks = scatter.ranks(), root = scatter.root();
    // The root's own block last: its copy would hold back the ready flags the others wait for.
    for (int k = 1; k <= ranks; ++k) {
        const int rank = (root + k) % ranks;
        scatter.wait_for_block(rank, scatter.p2p().move(root, scatter.input_blocks(rank, 1), {}, rank,
                                                        scatter.output(rank), fmt::format("block{}", rank)));
    }
    return scatter.finish();
}

}  // namespace

AlgorithmInfo scatter_linear_info() {
    return {Collective::scatter, "linear", "the root hands every rank its block; few ranks or large blocks",
            "Open MPI coll/tuned scatter basic_linear (algorithm 1)", {}, linear_scatter, RankKind::process};
}

}  // namespace numacoll::algo
