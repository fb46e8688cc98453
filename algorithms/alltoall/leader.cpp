// alltoall "leader" (NUMA- and NIC-aware, after the NUIOA paper's leader
// collectives, section 3.2, and the hierarchical communicators' one copy
// per level, section 6): blocks between ranks of one node go straight
// from rank to rank (each pulls its peers' blocks, as the linear exchange
// does); a leader per node (option leader: the lowest local rank, or one
// on the NIC's NUMA node) gathers its node's blocks for each other node,
// packed [sender][receiver], sends each node one message of n^2 blocks (n
// ranks per node), and the receiving node's ranks pull their blocks out of
// the message where it landed. k - 1 messages leave a node instead of
// n^2 (k - 1): for small blocks, where a message's overheads dominate.
// On one node it is the linear exchange.
#include <fmt/format.h>

#include <algorithm>

#include "algorithms/alltoall/blocks.hpp"
#include "algorithms/leaders.hpp"
#include "algorithms/registry.hpp"

namespace numacoll::algo {

namespace {

void keep(std::vector<int>& tasks, int task) {
    if (task >= 0) tasks.push_back(task);
}

Schedule leader_alltoall(const CollectiveSpec& spec, const Layout& layout, const OptionReader& options) {
    AlltoallBlocks alltoall(spec, layout);
    ScheduleBuilder& builder = alltoall.builder();
    const int p = alltoall.ranks(), n = layout.ranks_per_node, k = layout.nodes;
    const int local_leader = leader_local_rank(layout, 0, read_leader_rule(options));
    const auto leader = [&](int node) { return layout.global_rank(node, local_leader); };
    const auto local = [&](int rank) { return rank % n; };
    for (int rank = 0; rank < p; ++rank) alltoall.own_block(rank);
    // Signals first: to each peer of the node, and to the leader for what leaves the node.
    std::vector<std::vector<int>> sent(static_cast<std::size_t>(p), std::vector<int>(static_cast<std::size_t>(p), -1));
    std::vector<int> to_leader(static_cast<std::size_t>(p), -1);
    for (int rank = 0; rank < p; ++rank) {
        const int node = layout.node_of(rank);
        for (int i = 1; i < n; ++i) {
            const int to = layout.global_rank(node, (local(rank) - i + n) % n);
            sent[rank][to] = alltoall.send(rank, to, alltoall.input(rank, to, 1), alltoall.output(to, rank, 1), {},
                                           fmt::format("intra{}", rank));
        }
        if (k > 1 && rank != leader(node))
            to_leader[rank] = alltoall.send(rank, leader(node), alltoall.input(rank, 0, p), {}, {},
                                            fmt::format("pack{}", rank));
    }
    // The leaders pack and send, the nearest node first; then they tell their ranks what landed.
    std::vector<std::vector<int>> landed(static_cast<std::size_t>(k), std::vector<int>(static_cast<std::size_t>(k), -1));
    std::vector<std::vector<int>> message(landed);
    for (int node = 0; node < k && k > 1; ++node)
        for (int d = 1; d < k; ++d) {
            const int dest = (node + d) % k, me = leader(node);
            const int pack = alltoall.temp(me, n * n, fmt::format("pack{}", dest));
            landed[dest][node] = alltoall.temp(leader(dest), n * n, fmt::format("from{}", node));
            std::vector<int> packed;
            for (int i = 0; i < n; ++i) {
                const int rank = layout.global_rank(node, i);
                const Range from = alltoall.input(rank, layout.node_root(dest), n), into = alltoall.blocks(pack, i * n, n);
                keep(packed, rank == me ? alltoall.local_copy(me, from, into, {}, "pack")
                                        : alltoall.receive(me, rank, from, into, to_leader[rank], false, "pack"));
            }
            message[dest][node] = alltoall.send(me, leader(dest), alltoall.blocks(pack, 0, n * n),
                                                alltoall.blocks(landed[dest][node], 0, n * n), packed,
                                                fmt::format("leaders{}-{}", node, dest));
        }
    std::vector<std::vector<int>> unpack(static_cast<std::size_t>(p), std::vector<int>(static_cast<std::size_t>(k), -1));
    for (int node = 0; node < k && k > 1; ++node)
        for (int d = 1; d < k; ++d) {
            const int from_node = (node - d + k) % k, me = leader(node);
            for (int j = 0; j < n; ++j) {
                const int rank = layout.global_rank(node, j);
                unpack[rank][from_node] = rank == me ? message[node][from_node]
                                                     : builder.flag(me, rank, {message[node][from_node]},
                                                                    fmt::format("landed{}", from_node));
            }
        }
    for (int rank = 0; rank < p; ++rank) {
        const int node = layout.node_of(rank);
        for (int i = 1; i < n; ++i) {
            const int from = layout.global_rank(node, (local(rank) + i) % n);
            alltoall.receive(rank, from, alltoall.input(from, rank, 1), alltoall.output(rank, from, 1), sent[from][rank],
                             false, fmt::format("intra{}", from));
        }
        for (int d = 1; d < k; ++d) {
            const int from_node = (node - d + k) % k;
            for (int i = 0; i < n; ++i) {
                const Range from = alltoall.blocks(landed[node][from_node], i * n + local(rank), 1);
                const Range to = alltoall.output(rank, layout.global_rank(from_node, i), 1);
                alltoall.receive(rank, leader(node), from, to, unpack[rank][from_node], false,
                                 fmt::format("unpack{}", from_node));
            }
        }
    }
    return alltoall.finish();
}

}  // namespace

AlgorithmInfo alltoall_leader_info() {
    return {Collective::alltoall, "leader",
            "one packed message per pair of nodes through a leader per node, direct copies inside one; small blocks, many "
            "ranks per node",
            "Goglin, Moreaud, NUIOA-aware collectives, section 3.2 (leader election); hierarchical communicators, section 6",
            {leader_option()}, leader_alltoall, RankKind::process};
}

}  // namespace numacoll::algo
