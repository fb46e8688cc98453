// gather "linear-sync" (Open MPI's coll_tuned_gather algorithm 3): the root
// calls the ranks one at a time, in rank order: it signals rank i (a
// zero-byte message), i sends the first segment of its block (option
// segment, Open MPI's segment size; 0, its default, is the whole block),
// and only once that has arrived does the root call the next rank. The
// rest of each block follows its first segment (once the rank is called)
// unsynchronised; the root
// takes the rests, then copies its own block. The root is never flooded
// by p - 1 senders at once; many ranks, large blocks.
#include <fmt/format.h>

#include "algorithms/gather/blocks.hpp"
#include "algorithms/patterns/flat_trees.hpp"
#include "algorithms/registry.hpp"

namespace numacoll::algo {

namespace {

Range part_of(const Range& range, std::uint64_t offset, std::uint64_t bytes) {
    if (range.buffer < 0 || bytes == 0) return Range{};
    return {range.buffer, range.offset + offset, bytes};
}

Schedule linear_sync_gather(const CollectiveSpec& spec, const Layout& layout, const OptionReader& options) {
    GatherBlocks gather(spec, layout);
    ScheduleBuilder& builder = gather.builder();
    PointToPoint& p2p = gather.p2p();
    const int ranks = gather.ranks(), root = gather.root();
    const std::uint64_t block = gather.block_bytes(), segment = segment_bytes(options, element_bytes(spec));
    const std::uint64_t first = segment == 0 || segment >= block ? block : segment;
    std::vector<int> arrived, previous, calls(ranks, -1);
    for (int rank = 0; rank < ranks; ++rank) {
        if (rank == root) continue;
        const std::string label = fmt::format("sync{}", rank);
        const int call = layout.same_node(root, rank) ? builder.flag(root, rank, previous, label + ":call")
                                                      : builder.net(root, rank, Range{}, Range{}, previous, label + ":call");
        const int got = p2p.move(rank, part_of(gather.input(rank), 0, first), {call}, root,
                                 part_of(gather.out_blocks(rank, 1), 0, first), label);
        arrived.push_back(got);
        previous = {got};
        calls[rank] = call;
    }
    if (first < block)
        for (int rank = 0; rank < ranks; ++rank)
            if (rank != root)
                arrived.push_back(p2p.move(rank, part_of(gather.input(rank), first, block - first), {calls[rank]}, root,
                                           part_of(gather.out_blocks(rank, 1), first, block - first),
                                           fmt::format("rest{}", rank)));
    arrived.push_back(p2p.move(root, gather.input(root), {}, root, gather.out_blocks(root, 1), "gather-self"));
    return gather.finish(arrived);
}

}  // namespace

AlgorithmInfo gather_linear_sync_info() {
    return {Collective::gather, "linear-sync",
            "the root calls the ranks one at a time for their first segment; many ranks, large blocks",
            "Open MPI coll/tuned gather linear_sync (algorithm 3)",
            {{"segment", "0", "first segment of each block, sent once the root calls; 0: the whole block", {"1KiB"}}},
            linear_sync_gather, RankKind::process};
}

}  // namespace numacoll::algo
