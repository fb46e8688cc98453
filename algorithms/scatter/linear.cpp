// scatter "linear" (Open MPI's basic_linear, coll_tuned_scatter_algorithm
// 1): the root hands every rank its block straight from its input (a pull
// on one node, a message across nodes) and copies its own. Few ranks, or
// large blocks.
#include <fmt/format.h>

#include "algorithms/patterns/block_readiness.hpp"
#include "algorithms/patterns/point_to_point.hpp"
#include "algorithms/registry.hpp"

namespace numacoll::algo {

namespace {

Schedule linear_scatter(const CollectiveSpec& spec, const Layout& layout, const OptionReader&) {
    ScheduleBuilder builder(layout, spec);
    const int ranks = layout.size(), root = spec.root;
    const std::uint64_t block = spec.bytes;
    std::vector<int> inputs(ranks, -1);
    inputs[root] = builder.add_input(root, block * ranks);
    std::vector<int> outputs;
    for (int rank = 0; rank < ranks; ++rank) outputs.push_back(builder.add_output(rank, block));
    PointToPoint p2p(builder, inputs);
    // The root's own block last: its copy would hold back the ready flags the others wait for.
    for (int k = 1; k <= ranks; ++k) {
        const int rank = (root + k) % ranks;
        const Range from = block == 0 ? Range{} : blocks_range(inputs[root], rank, 1, block);
        const Range to = block == 0 ? Range{} : Range{outputs[rank], 0, block};
        const int delivered = p2p.move(root, from, {}, rank, to, fmt::format("block{}", rank));
        builder.wait_for_others(rank, {delivered}, "scatter:done");
    }
    return builder.finish();
}

}  // namespace

AlgorithmInfo scatter_linear_info() {
    return {Collective::scatter, "linear", "the root hands every rank its block; few ranks or large blocks",
            "Open MPI coll/tuned scatter basic_linear (algorithm 1)", {}, linear_scatter, RankKind::process};
}

}  // namespace numacoll::algo
