// scatter "binomial" (Open MPI's algorithm 2, MPICH's): a binomial tree in
// root-relative order (the in-order tree of the binomial gather: relative
// rank r's children are r + 2^j below its lowest set bit). The root hands
// each child its subtree's blocks in one piece (two when the subtree wraps
// around rank 0 in the root's absolute order); an inner rank keeps them in
// a temp buffer in relative order, hands its children theirs from it, and
// copies its own block out; a leaf receives straight into its output.
// Small blocks, many ranks.
#include <fmt/format.h>

#include <algorithm>

#include "algorithms/registry.hpp"
#include "algorithms/scatter/blocks.hpp"

namespace numacoll::algo {

namespace {

Schedule binomial_scatter(const CollectiveSpec& spec, const Layout& layout, const OptionReader&) {
    ScatterBlocks scatter(spec, layout);
    PointToPoint& p2p = scatter.p2p();
    const int ranks = scatter.ranks(), root = scatter.root();
    const std::uint64_t block = scatter.block_bytes();
    const auto absolute = [&](int rel) { return (rel + root) % ranks; };
    const auto blocks = [&](int buffer, int first, int count) { return scatter.blocks(buffer, first, count); };
    const auto output = [&](int rank) { return scatter.output(rank); };
    // The subtree of a non-root relative rank: itself and the ranks up to its lowest set bit.
    const auto subtree_size = [&](int rel) { return std::min(rel & -rel, ranks - rel); };
    std::vector<int> held(ranks, -1);  // an inner rank's temp: its subtree's blocks in relative order
    std::vector<std::vector<int>> held_ready(ranks);
    std::vector<int> delivered(ranks, -1);
    // Parents before children: relative ranks ascending.
    for (int rel = 1; rel < ranks; ++rel) {
        const int rank = absolute(rel), size = subtree_size(rel);
        const int parent_rel = rel - (rel & -rel), parent = absolute(parent_rel);
        const std::string label = fmt::format("binomial{}-{}", parent, rank);
        const bool leaf = size == 1;
        if (!leaf && block > 0)
            held[rank] = scatter.builder().add_temp(rank, block * size, fmt::format("scatter{}", rank));
        const auto into = [&](int first, int count) { return leaf ? output(rank) : blocks(held[rank], first, count); };
        std::vector<int> arrived;
        if (parent_rel == 0) {
            // The root's input is in absolute order: the subtree may wrap around rank 0.
            const int head = std::min(size, ranks - rank);
            arrived.push_back(p2p.move(root, scatter.input_blocks(rank, head), {}, rank, into(0, head), label));
            if (head < size)
                arrived.push_back(p2p.move(root, scatter.input_blocks(0, size - head), {}, rank, into(head, size - head),
                                           label + "-wrap"));
        } else {
            arrived.push_back(p2p.move(parent, blocks(held[parent], rel - parent_rel, size), held_ready[parent], rank,
                                       into(0, size), label));
        }
        held_ready[rank] = arrived;
        if (leaf) delivered[rank] = arrived.front();
    }
    // Own blocks last: a rank's copy would hold back the ready flags its children wait for.
    for (int rel = 1; rel < ranks; ++rel)
        if (const int rank = absolute(rel); subtree_size(rel) > 1)
            delivered[rank] = p2p.move(rank, blocks(held[rank], 0, 1), held_ready[rank], rank, output(rank), "scatter-own");
    delivered[root] = p2p.move(root, scatter.input_blocks(root, 1), {}, root, output(root), "scatter-self");
    for (int rank = 0; rank < ranks; ++rank) scatter.wait_for_block(rank, delivered[rank]);
    return scatter.finish();
}

}  // namespace

AlgorithmInfo scatter_binomial_info() {
    return {Collective::scatter, "binomial",
            "binomial tree, each subtree's blocks handed down whole; small blocks, many ranks",
            "Open MPI coll/tuned scatter binomial (algorithm 2; MPICH's)", {}, binomial_scatter, RankKind::process};
}

}  // namespace numacoll::algo
