// gather "leader" (Goglin, Moreaud, NUIOA-aware collectives,
// sections 3.2 and 3.3.2): each node's leader collects its node's blocks in
// local order, then sends them to the root in one message; the root's own
// node collects straight into the output. For a gather the root receives,
// so the root's placement matters and the leaders' does not; `leader=nic`
// is offered to measure exactly that.
#include <fmt/format.h>

#include "algorithms/gather/blocks.hpp"
#include "algorithms/leaders.hpp"
#include "algorithms/registry.hpp"

namespace numacoll::algo {

namespace {

Schedule leader_gather(const CollectiveSpec& spec, const Layout& layout, LeaderRule rule) {
    GatherBlocks gather(spec, layout);
    const int root = gather.root();
    const std::uint64_t block = gather.block_bytes();
    std::vector<int> arrived;
    for (int node = 0; node < layout.nodes; ++node) {
        const int leader = node_leader(layout, root, rule, node);
        const int first = layout.node_root(node);
        const int per_node = layout.ranks_per_node;
        // The root's node collects straight into the output; others into a temp in local order.
        const bool at_root = leader == root;
        const int temp = at_root || block == 0
                             ? -1
                             : gather.builder().add_temp(leader, block * per_node, fmt::format("node{}", node));
        const auto slot = [&](int local, int count) {
            return at_root ? gather.out_blocks(first + local, count) : blocks_range(temp, local, count, block);
        };
        std::vector<int> collected;
        for (int j = 0; j < per_node; ++j) {
            const int rank = first + (leader - first + j) % per_node;
            const int task = gather.p2p().move(rank, gather.input(rank), {}, leader, slot(rank - first, 1),
                                               fmt::format("collect{}-{}", rank, leader));
            (at_root ? arrived : collected).push_back(task);
        }
        if (!at_root)
            arrived.push_back(gather.p2p().move(leader, temp < 0 ? Range{} : slot(0, per_node), collected, root,
                                                gather.out_blocks(first, per_node),
                                                fmt::format("leader{}-root", leader)));
    }
    return gather.finish(arrived);
}

Schedule generate_gather_leader(const CollectiveSpec& spec, const Layout& layout, const OptionReader& options) {
    return leader_gather(spec, layout, read_leader_rule(options));
}

}  // namespace

AlgorithmInfo gather_leader_info() {
    return {Collective::gather, "leader",
            "node leaders collect their node's blocks, then send them to the root in one message",
            "Goglin, Moreaud, NUIOA-aware collectives, sections 3.2 and 3.3.2",
            {leader_option()}, generate_gather_leader, RankKind::process};
}

}  // namespace numacoll::algo
