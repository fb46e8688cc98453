// alltoall "modified-bruck" (Open MPI's algorithm 3; Bruck et al. 1997, as
// modified by Thakur, Rabenseifner, Gropp 2005, section 4.5): a rank
// rotates its input by its rank into a temp buffer (block i is then meant
// for r + i), then for each distance d = 1, 2, 4, ... < p sends every block
// whose index has bit d set to r + d and receives the same positions from
// r - d, into its output as scratch, and copies them back into the temp
// buffer; last it rotates back, block i of the temp buffer to output
// block r - i. ceil(log2 p) messages of about p m / 2: small blocks, many
// ranks.
//
// The positions a step moves are runs of d blocks, not one range: on one
// node the receiver pulls each run; across nodes the sender packs them into
// one message (Open MPI's convertor does, for its derived datatype) and the
// receiver unpacks the landed message. The copy back waits until the rank
// reading the temp buffer has taken it (it flags back on one node; across
// nodes the packing was the read), as a send-receive returns once its send
// is done. (algorithms/alltoall/blocks.hpp)
#include <fmt/format.h>

#include <algorithm>

#include "algorithms/alltoall/blocks.hpp"
#include "algorithms/registry.hpp"

namespace numacoll::algo {

namespace {

struct Run {
    int first;  // block position
    int count;
};

// The positions of distance d: runs [i, i + d) for i = d, 3d, 5d, ... below p.
std::vector<Run> runs_of(int p, int distance) {
    std::vector<Run> runs;
    for (int i = distance; i < p; i += 2 * distance) runs.push_back({i, std::min(distance, p - i)});
    return runs;
}

Schedule modified_bruck_alltoall(const CollectiveSpec& spec, const Layout& layout, const OptionReader&) {
    AlltoallBlocks alltoall(spec, layout);
    ScheduleBuilder& builder = alltoall.builder();
    const int p = alltoall.ranks();
    std::vector<int> rotated(static_cast<std::size_t>(p)), packs(static_cast<std::size_t>(p), -1);
    std::vector<int> last_pack_sent(static_cast<std::size_t>(p), -1);
    for (int rank = 0; rank < p; ++rank) {
        rotated[rank] = alltoall.temp(rank, p, fmt::format("rotated{}", rank));
        alltoall.local_copy(rank, alltoall.input(rank, rank, p - rank), alltoall.blocks(rotated[rank], 0, p - rank), {},
                            "rotate");
        if (rank > 0)
            alltoall.local_copy(rank, alltoall.input(rank, 0, rank), alltoall.blocks(rotated[rank], p - rank, rank), {},
                                "rotate");
    }
    for (int distance = 1; distance < p; distance *= 2) {
        const std::vector<Run> runs = runs_of(p, distance);
        int moved = 0;
        for (const Run& run : runs) moved += run.count;
        const std::string label = fmt::format("bruck{}", distance);
        // sent[r]: r's hand-over to r + d; taken[r]: r + d has read r's temp (on one node).
        std::vector<int> sent(static_cast<std::size_t>(p)), taken(static_cast<std::size_t>(p), -1);
        std::vector<int> landings(static_cast<std::size_t>(p), -1);  // per receiver
        for (int rank = 0; rank < p; ++rank) {
            const int to = (rank + distance) % p;
            if (alltoall.same_node(rank, to)) {
                sent[rank] = alltoall.send(rank, to, {}, {}, {}, label);
                continue;
            }
            if (packs[rank] < 0) packs[rank] = alltoall.temp(rank, (p + 1) / 2, fmt::format("pack{}", rank));
            // The pack buffer is reused once the step before's message has left it.
            std::vector<int> after;
            if (last_pack_sent[rank] >= 0) after.push_back(last_pack_sent[rank]);
            int at = 0;
            for (const Run& run : runs) {
                alltoall.local_copy(rank, alltoall.blocks(rotated[rank], run.first, run.count),
                                    alltoall.blocks(packs[rank], at, run.count), after, label + ":pack");
                at += run.count;
            }
            landings[to] = alltoall.temp(to, moved, fmt::format("landing{}.{}", to, distance));
            sent[rank] = last_pack_sent[rank] = alltoall.send(rank, to, alltoall.blocks(packs[rank], 0, moved),
                                                              alltoall.blocks(landings[to], 0, moved), {}, label);
        }
        for (int rank = 0; rank < p; ++rank) {
            const int from = (rank - distance + p) % p;
            if (alltoall.block_bytes() == 0) {
                alltoall.receive(rank, from, {}, {}, sent[from], false, label);
                continue;
            }
            if (alltoall.same_node(rank, from)) {
                for (const Run& run : runs)
                    alltoall.receive(rank, from, alltoall.blocks(rotated[from], run.first, run.count),
                                     alltoall.output(rank, run.first, run.count), sent[from], false, label);
                taken[from] = builder.flag(rank, from, {}, label + ":taken");
                continue;
            }
            int at = 0;
            for (const Run& run : runs) {
                alltoall.local_copy(rank, alltoall.blocks(landings[rank], at, run.count),
                                    alltoall.output(rank, run.first, run.count), {sent[from]}, label + ":unpack");
                at += run.count;
            }
        }
        for (int rank = 0; rank < p; ++rank) {
            std::vector<int> after;
            if (taken[rank] >= 0) after.push_back(taken[rank]);
            for (const Run& run : runs)
                alltoall.local_copy(rank, alltoall.output(rank, run.first, run.count),
                                    alltoall.blocks(rotated[rank], run.first, run.count), after, label + ":back");
        }
    }
    for (int rank = 0; rank < p; ++rank)
        for (int i = 0; i < p; ++i)
            alltoall.local_copy(rank, alltoall.blocks(rotated[rank], i, 1), alltoall.output(rank, (rank - i + p) % p, 1),
                                {}, "unrotate");
    return alltoall.finish();
}

}  // namespace

AlgorithmInfo alltoall_modified_bruck_info() {
    return {Collective::alltoall, "modified-bruck",
            "ceil(log2 p) steps, each sending the blocks whose index has bit d set to r + d; small blocks, many ranks",
            "Bruck et al. 1997, modified as in Thakur, Rabenseifner, Gropp 2005; Open MPI coll/tuned alltoall "
            "modified bruck (algorithm 3)",
            {},
            modified_bruck_alltoall,
            RankKind::process};
}

}  // namespace numacoll::algo
