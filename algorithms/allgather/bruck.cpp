// allgather "bruck" (Open MPI's algorithm 2; Bruck et al. 1997): a rank
// keeps the blocks in rotated order, its own at position 0 and the block
// of rank r + i at position i; for each distance d = 1, 2, 4, ... < p it
// hands its first min(d, p - d) blocks to r - d, which puts them at its
// position d; last it rotates its output into rank order. ceil(log2 p)
// steps for any p: small blocks.
//
// The rotation overwrites what others read: it waits until every rank
// that read this rank's output has taken its blocks (on one node the
// reader flags back; across nodes the rank's message has left), as each
// step's send-receive returns once its send is done.
#include <fmt/format.h>

#include <algorithm>

#include "algorithms/allgather/blocks.hpp"
#include "algorithms/registry.hpp"

namespace numacoll::algo {

namespace {

Schedule bruck_allgather(const CollectiveSpec& spec, const Layout& layout, const OptionReader&) {
    AllgatherBlocks allgather(spec, layout);
    PointToPoint& p2p = allgather.p2p();
    ScheduleBuilder& builder = p2p.builder();
    const int p = allgather.ranks();
    // ready() is kept by position: position i of rank r holds rank r + i's block until the rotation.
    for (int rank = 0; rank < p; ++rank)
        allgather.ready().set(rank, 0, 1,
                              p2p.move(rank, allgather.input(rank), {}, rank, allgather.blocks(rank, 0, 1), "own"));
    std::vector<std::vector<int>> taken(static_cast<std::size_t>(p));  // per rank: its readers are done
    for (int distance = 1; distance < p; distance *= 2) {
        const int count = std::min(distance, p - distance);
        const std::string label = fmt::format("bruck{}", distance);
        // Every rank's send first, then every receive: a send-receive's two sides start together.
        std::vector<int> sent(static_cast<std::size_t>(p));
        for (int from = 0; from < p; ++from) {
            const int to = (from - distance + p) % p;
            const std::vector<int> ready = allgather.ready().of(from, 0, count);
            sent[from] = builder.layout().same_node(from, to)
                             ? builder.flag(from, to, ready, label + ":ready")
                             : builder.net(from, to, allgather.blocks(from, 0, count), allgather.blocks(to, distance, count),
                                           ready, label);
        }
        for (int rank = 0; rank < p; ++rank) {
            const int from = (rank + distance) % p;
            int task = sent[from];
            if (builder.layout().same_node(from, rank)) {
                const Range mine = allgather.blocks(rank, distance, count);
                task = mine.buffer >= 0 ? builder.copy(rank, allgather.blocks(from, 0, count), mine, {sent[from]}, label)
                                        : builder.wait(rank, {sent[from]}, label);
                // Only a rank that rotates (not rank 0; not of 0 bytes) waits for its readers.
                if (from != 0 && mine.buffer >= 0) taken[from].push_back(builder.flag(rank, from, {task}, label + ":taken"));
            } else {
                taken[from].push_back(task);  // its message has left from's output
            }
            allgather.ready().set(rank, distance, count, task);
        }
    }
    for (int rank = 1; rank < p; ++rank) {
        if (allgather.block_bytes() == 0) break;
        // Positions [0, p - r) hold ranks r..p-1, [p - r, p) ranks 0..r-1: all
        // through a temp buffer, as the two runs overlap in place beyond p / 2.
        const std::uint64_t m = allgather.block_bytes();
        const int temp = builder.add_temp(rank, m * static_cast<std::uint64_t>(p), fmt::format("rotate{}", rank));
        std::vector<int> deps = allgather.ready().of(rank, 0, p);
        deps.insert(deps.end(), taken[rank].begin(), taken[rank].end());
        builder.copy(rank, allgather.blocks(rank, 0, p), blocks_range(temp, 0, p, m), deps, "rotate");
        builder.copy(rank, blocks_range(temp, p - rank, rank, m), allgather.blocks(rank, 0, rank), {}, "rotate");
        const int last = builder.copy(rank, blocks_range(temp, 0, p - rank, m), allgather.blocks(rank, rank, p - rank),
                                      {}, "rotate");
        allgather.ready().set(rank, 0, p, last);
    }
    return allgather.finish();
}

}  // namespace

AlgorithmInfo allgather_bruck_info() {
    return {Collective::allgather, "bruck",
            "ceil(log2 p) steps, each handing the first min(d, p - d) blocks to r - d, then a rotation; small blocks",
            "Bruck et al. 1997; Open MPI coll/tuned allgather bruck (algorithm 2)", {}, bruck_allgather,
            RankKind::process};
}

}  // namespace numacoll::algo
