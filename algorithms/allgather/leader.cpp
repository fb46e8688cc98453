// allgather "leader" (Goglin, Moreaud, NUIOA-aware collectives,
// section 3.3.3): node leaders collect their node's blocks, exchange them
// among themselves (each leader sends its node's run to every other), and
// every rank copies the whole result from its leader; `leader=nic` elects
// leaders near the NIC.
#include <fmt/format.h>

#include "algorithms/allgather/blocks.hpp"
#include "algorithms/leaders.hpp"
#include "algorithms/registry.hpp"

namespace numacoll::algo {

namespace {

Schedule leader_allgather(const CollectiveSpec& spec, const Layout& layout, LeaderRule rule) {
    AllgatherBlocks allgather(spec, layout);
    const int per_node = layout.ranks_per_node;
    const int leader_local = leader_local_rank(layout, 0, rule);
    const auto leader_of = [&](int node) { return layout.global_rank(node, leader_local); };
    for (int node = 0; node < layout.nodes; ++node)
        for (int local = 0; local < per_node; ++local) {
            const int rank = layout.global_rank(node, local), leader = leader_of(node);
            const int task = allgather.p2p().move(rank, allgather.input(rank), {}, leader,
                                                  allgather.blocks(leader, rank, 1),
                                                  fmt::format("collect{}-{}", rank, leader));
            allgather.ready().set(leader, rank, 1, task);
        }
    for (int from = 0; from < layout.nodes; ++from)
        for (int k = 1; k < layout.nodes; ++k) {
            const int to = (from + k) % layout.nodes;
            allgather.pass(leader_of(from), leader_of(to), layout.node_root(from), per_node,
                           fmt::format("leaders{}-{}", from, to));
        }
    for (int rank = 0; rank < allgather.ranks(); ++rank)
        if (rank != leader_of(layout.node_of(rank)))
            allgather.pass(leader_of(layout.node_of(rank)), rank, 0, allgather.ranks(), fmt::format("spread{}", rank));
    return allgather.finish();
}

Schedule generate_allgather_leader(const CollectiveSpec& spec, const Layout& layout, const OptionReader& options) {
    return leader_allgather(spec, layout, read_leader_rule(options));
}

}  // namespace

AlgorithmInfo allgather_leader_info() {
    return {Collective::allgather, "leader",
            "node leaders gather, exchange among themselves, then spread inside their node",
            "Goglin, Moreaud, NUIOA-aware collectives, section 3.3.3",
            {leader_option()}, generate_allgather_leader, RankKind::process};
}

}  // namespace numacoll::algo
