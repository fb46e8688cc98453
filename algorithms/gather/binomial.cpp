// gather "binomial": a binomial tree in root-relative order. An inner rank
// collects its subtree's blocks, contiguous in that order, in a temp buffer
// (its own block first) and passes them up in one piece; the root's output
// is in absolute order, so a subtree that wraps around rank 0 arrives in
// two pieces (Open MPI's and MPICH's binomial gather). Small blocks, many ranks.
#include <fmt/format.h>

#include <algorithm>

#include "algorithms/gather/blocks.hpp"
#include "algorithms/registry.hpp"

namespace numacoll::algo {

namespace {

Schedule binomial_gather(const CollectiveSpec& spec, const Layout& layout, const OptionReader&) {
    GatherBlocks gather(spec, layout);
    PointToPoint& p2p = gather.p2p();
    const int ranks = gather.ranks(), root = gather.root();
    const std::uint64_t block = gather.block_bytes();
    const auto absolute = [&](int rel) { return (rel + root) % ranks; };
    std::vector<Range> held(ranks);  // what each rank passes up
    std::vector<std::vector<int>> held_ready(ranks);
    std::vector<bool> collecting(ranks, false);  // has its collection buffer
    std::vector<int> arrived;
    for (int rank = 0; rank < ranks; ++rank) held[rank] = gather.input(rank);
    // The subtree of a non-root relative rank: itself and the ranks up to its lowest set bit.
    const auto subtree_size = [&](int rel) { return std::min(rel & -rel, ranks - rel); };
    // Deepest first: a rank passes its subtree up once its children's blocks are in.
    for (int rel = ranks - 1; rel >= 1; --rel) {
        const int rank = absolute(rel);
        const int size = subtree_size(rel);
        const int parent_rel = rel - (rel & -rel);
        const int parent = absolute(parent_rel);
        const std::string label = fmt::format("binomial{}-{}", rank, parent);
        if (parent_rel == 0) {
            // The root's output is in absolute order: the subtree may wrap around rank 0.
            const int first = absolute(rel);
            const int head = std::min(size, ranks - first);
            arrived.push_back(p2p.move(rank, gather.part(held[rank], 0, head), held_ready[rank], root,
                                       gather.out_blocks(first, head), label));
            if (head < size)
                arrived.push_back(p2p.move(rank, gather.part(held[rank], head, size - head), held_ready[rank], root,
                                           gather.out_blocks(0, size - head), label + "-wrap"));
            continue;
        }
        // Into the parent's collection buffer, created with the parent's own block first.
        const int parent_size = subtree_size(parent_rel);
        if (!collecting[parent]) {
            collecting[parent] = true;
            const int temp = block == 0 ? -1
                                        : gather.builder().add_temp(parent, block * parent_size,
                                                                    fmt::format("gather{}", parent));
            held[parent] = temp < 0 ? Range{} : Range{temp, 0, block * parent_size};
            held_ready[parent].push_back(
                p2p.move(parent, gather.input(parent), {}, parent, gather.part(held[parent], 0, 1), "gather-own"));
        }
        held_ready[parent].push_back(p2p.move(rank, held[rank], held_ready[rank], parent,
                                              gather.part(held[parent], rel - parent_rel, size), label));
    }
    arrived.push_back(p2p.move(root, gather.input(root), {}, root, gather.out_blocks(root, 1), "gather-self"));
    return gather.finish(arrived);
}

}  // namespace

AlgorithmInfo gather_binomial_info() {
    return {Collective::gather, "binomial", "binomial tree, subtrees passed up whole; small blocks, many ranks",
            "Open MPI coll/tuned binomial gather (MPICH's)", {}, binomial_gather, RankKind::process};
}

}  // namespace numacoll::algo
