// allgather "neighbor-exchange" (Chen et al. 2005; Open MPI's coll_tuned
// allgather algorithm 5): on an even p, p/2 steps. In the first, ranks 2k
// and 2k+1 swap their blocks; in step i after it each rank swaps the pair
// of blocks it got last with its neighbour on the other side (the right
// one at odd steps for even ranks, the left one for odd ranks, and the
// other way at even steps), so each pair of blocks travels one step along
// the line. Every step's signals go out before its copies
// (patterns/pieces.hpp), so a swap does not wait behind its own receive.
// An odd p runs a ring of p - 1 steps instead, as Open MPI's does.
// Large blocks, few steps.
#include <fmt/format.h>

#include <array>

#include "algorithms/patterns/block_readiness.hpp"
#include "algorithms/patterns/pieces.hpp"
#include "algorithms/registry.hpp"

namespace numacoll::algo {

namespace {

Schedule neighbor_exchange_allgather(const CollectiveSpec& spec, const Layout& layout, const OptionReader&) {
    ScheduleBuilder builder(layout, spec);
    const int ranks = layout.size();
    const std::uint64_t block = spec.bytes;
    std::vector<int> all, inputs, outputs;
    for (int rank = 0; rank < ranks; ++rank) {
        all.push_back(rank);
        inputs.push_back(builder.add_input(rank, block));
        outputs.push_back(builder.add_output(rank, block * ranks));
    }
    // Every rank's own block first; from then on its output holds what it has.
    ChunkState state{0, block * ranks, "c0", {}, {}};
    for (int rank = 0; rank < ranks; ++rank) {
        state.partial.push_back({block == 0 ? -1 : outputs[rank], 0, block * ranks});
        state.ready.emplace_back();
        if (block > 0)
            state.ready.back().push_back(
                builder.copy(rank, {inputs[rank], 0, block}, blocks_range(outputs[rank], rank, 1, block), {}, "own"));
    }
    TempPool landings(builder), partials(builder);
    Pieces pieces(builder, all, state, outputs, {landings, partials, nullptr, true},
                  std::vector<std::uint64_t>(ranks, block));
    if (ranks % 2 != 0) {
        for (int step = 0; step + 1 < ranks; ++step) {
            std::vector<Pieces::Send> sends;
            for (int r = 0; r < ranks; ++r) sends.push_back({r, (r + 1) % ranks, (r - step + ranks) % ranks, 1});
            pieces.round(sends, false, 0, fmt::format("ring{}", step));
        }
    } else if (ranks > 1) {
        const auto neighbour = [&](int rank, int parity) {
            const bool even = rank % 2 == 0;
            return (even == (parity == 0) ? rank + 1 : rank - 1 + ranks) % ranks;
        };
        std::vector<Pieces::Send> swaps;
        for (int r = 0; r < ranks; ++r) swaps.push_back({r, neighbour(r, 0), r, 1});
        pieces.round(swaps, false, 0, "swap0");
        // The pair each rank got last, and the pair it gets at each parity, by its first block.
        std::vector<int> sending(ranks);
        for (int r = 0; r < ranks; ++r) sending[r] = r - r % 2;
        std::vector<std::array<int, 2>> from(ranks);
        for (int r = 0; r < ranks; ++r) from[r] = {r - r % 2, r - r % 2};
        for (int step = 1; step < ranks / 2; ++step) {
            const int parity = step % 2;
            std::vector<Pieces::Send> sends;
            std::vector<int> next(ranks);
            for (int r = 0; r < ranks; ++r) {
                const int offset = (r % 2 == 0) == (parity == 0) ? 2 : -2;
                from[r][parity] = (from[r][parity] + offset + ranks) % ranks;
                sends.push_back({r, neighbour(r, parity), sending[r], 2});
                next[r] = from[r][parity];
            }
            pieces.round(sends, false, 0, fmt::format("swap{}", step));
            sending = next;
        }
    }
    pieces.finish();
    settle(builder, state);
    return builder.finish();
}

}  // namespace

AlgorithmInfo allgather_neighbor_exchange_info() {
    return {Collective::allgather, "neighbor-exchange",
            "p/2 swaps with alternating neighbours, two blocks at a time; large blocks (a ring on odd p)",
            "Chen et al. 2005; Open MPI coll/tuned allgather neighbor exchange (algorithm 5)", {},
            neighbor_exchange_allgather, RankKind::process};
}

}  // namespace numacoll::algo
