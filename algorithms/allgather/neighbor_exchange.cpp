// allgather "neighbor-exchange" (Chen et al. 2005; Open MPI's coll_tuned
// allgather algorithm 5): on an even p, p/2 steps. In the first, ranks 2k
// and 2k+1 swap their blocks; in step i after it each rank swaps the pair
// of blocks it got last with its neighbour on the other side (the right
// one at odd steps for even ranks, the left one for odd ranks, and the
// other way at even steps), so each pair of blocks travels one step along
// the line (allgather/blocks.hpp: every step's signals before its copies).
// An odd p runs the ring instead, as Open MPI's does.
// Large blocks, few steps.
#include <fmt/format.h>

#include <array>

#include "algorithms/allgather/blocks.hpp"
#include "algorithms/registry.hpp"

namespace numacoll::algo {

namespace {

void neighbor_exchange_rounds(Pieces& pieces, int ranks) {
    if (ranks % 2 != 0) return ring_rounds(pieces, ranks);
    const auto neighbour = [&](int rank, int parity) {
        const bool even = rank % 2 == 0;
        return (even == (parity == 0) ? rank + 1 : rank - 1 + ranks) % ranks;
    };
    std::vector<Pieces::Send> swaps;
    for (int r = 0; r < ranks; ++r) swaps.push_back({r, neighbour(r, 0), r, 1});
    pieces.round(swaps, false, 0, "swap0");
    // Per rank: the first block of the pair it got last (it sends that pair
    // next), and of the pair it gets at each parity (Open MPI's recv_data_from).
    std::vector<int> sending(ranks);
    std::vector<std::array<int, 2>> from(ranks);
    for (int r = 0; r < ranks; ++r) {
        sending[r] = r - r % 2;
        from[r] = {r - r % 2, r - r % 2};
    }
    for (int step = 1; step < ranks / 2; ++step) {
        const int parity = step % 2;
        std::vector<Pieces::Send> sends;
        for (int r = 0; r < ranks; ++r) {
            const int offset = (r % 2 == 0) == (parity == 0) ? 2 : -2;
            from[r][parity] = (from[r][parity] + offset + ranks) % ranks;
            sends.push_back({r, neighbour(r, parity), sending[r], 2});
        }
        pieces.round(sends, false, 0, fmt::format("swap{}", step));
        for (int r = 0; r < ranks; ++r) sending[r] = from[r][parity];
    }
}

}  // namespace

AlgorithmInfo allgather_neighbor_exchange_info() {
    return {Collective::allgather, "neighbor-exchange",
            "p/2 swaps with alternating neighbours, two blocks at a time; large blocks (a ring on odd p)",
            "Chen et al. 2005; Open MPI coll/tuned allgather neighbor exchange (algorithm 5)", {},
            [](const CollectiveSpec& spec, const Layout& layout, const OptionReader&) {
                return allgather_in_rounds(spec, layout, neighbor_exchange_rounds);
            },
            RankKind::process};
}

}  // namespace numacoll::algo
