#include "algorithms/patterns/flat_reduce_scatter.hpp"

#include <fmt/format.h>

#include "algorithms/patterns/power_of_two.hpp"

namespace numacoll::algo {

Schedule flat_reduce_scatter_schedule(const CollectiveSpec& spec, const Layout& layout,
                                      const FlatReduceScatterPattern& pattern) {
    ScheduleBuilder builder(layout, spec);
    const int p = layout.size();
    const std::uint64_t block = spec.bytes, all = block * static_cast<std::uint64_t>(p);
    std::vector<int> ranks, inputs, outputs, works;
    for (int rank = 0; rank < p; ++rank) {
        ranks.push_back(rank);
        inputs.push_back(builder.add_input(rank, all));
        outputs.push_back(builder.add_output(rank, block));
    }
    TempPool landings(builder, all), partials(builder, all), homes(builder, all), accumulation(builder, all);
    if (p > 1 && block > 0)
        for (int rank = 0; rank < p; ++rank) works.push_back(accumulation.buffer(rank, 0, "acc"));
    else
        works.assign(static_cast<std::size_t>(p), -1);
    ReadySignals signals(inputs);
    PointToPoint p2p(builder, inputs, all);
    ChunkState state = start_chunk(0, all, "c0", inputs, p);
    const PieceBuffers buffers{landings, partials, &signals, /*runs_as_one_message=*/true};
    FlatReduceScatterChunk chunk{builder, ranks, state, works, outputs, buffers, p2p, homes};
    if (p > 1) pattern(chunk);
    for (int rank = 0; rank < p && block > 0; ++rank) {
        const Range output{outputs[rank], 0, block};
        if (state.partial[rank] == output) continue;
        const Range mine{state.partial[rank].buffer, block * static_cast<std::uint64_t>(rank), block};
        state.ready[rank] = {builder.copy(rank, mine, output, state.ready[rank], "c0:mine")};
        state.partial[rank] = output;
    }
    settle(builder, state);
    return builder.finish();
}

void ring_reduce_scatter(FlatReduceScatterChunk& c) {
    const int k = static_cast<int>(c.ranks.size());
    Pieces pieces(c.builder, c.ranks, c.state, c.works, c.buffers, k);
    for (int step = 0; step + 1 < k; ++step) {
        std::vector<Pieces::Send> sends;
        for (int i = 0; i < k; ++i) sends.push_back({i, (i + 1) % k, (i - step - 1 + 2 * k) % k, 1});
        pieces.round(sends, true, 0, fmt::format("ring-rs{}", step));
    }
    pieces.finish();
}

void recursive_halving_reduce_scatter(FlatReduceScatterChunk& c) {
    const int k = static_cast<int>(c.ranks.size());
    const ExcessFold excess = fold_adjacent(k);
    const int pof2 = excess.power;
    const std::vector<int>& active = excess.active;
    // Active v owns the blocks from the one after active v - 1's up to its own:
    // its own and those of the excess ranks folded into it.
    std::vector<int> first_block(static_cast<std::size_t>(pof2) + 1, k);
    for (int v = 0; v < pof2; ++v) first_block[v] = v == 0 ? 0 : active[v - 1] + 1;
    Pieces pieces(c.builder, c.ranks, c.state, c.works, c.buffers, k);
    std::vector<Pieces::Send> folds, unfolds;
    for (const auto& [from, to] : excess.folds) {
        folds.push_back({from, to, 0, k});
        unfolds.push_back({to, from, from, 1});
    }
    pieces.round(folds, true, 0, "rh-fold");
    for (int mask = pof2 / 2, step = 0; mask >= 1; mask >>= 1, ++step) {
        std::vector<Pieces::Send> sends;
        for (int v = 0; v < pof2; ++v) {
            const int group = v & ~(2 * mask - 1), upper = group + mask;
            const bool lower = (v & mask) == 0;  // keeps the lower half's blocks, gives the upper's
            const int give_first = lower ? first_block[upper] : first_block[group];
            const int give_end = lower ? first_block[group + 2 * mask] : first_block[upper];
            sends.push_back({active[v], active[v ^ mask], give_first, give_end - give_first});
        }
        pieces.round(sends, true, step + 1, fmt::format("rh{}", step));
    }
    pieces.round(unfolds, false, 0, "rh-unfold");
    pieces.finish();
}

void butterfly_reduce_scatter(FlatReduceScatterChunk& c) {
    const int k = static_cast<int>(c.ranks.size());
    const ExcessFold excess = fold_adjacent(k);
    const int pof2 = excess.power;
    const std::vector<int>& active = excess.active;
    // Super-block j: the blocks of active j, its own and its folded neighbour's.
    const auto first_block = [&](int j) { return j == pof2 ? k : j == 0 ? 0 : active[j - 1] + 1; };
    Pieces pieces(c.builder, c.ranks, c.state, c.works, c.buffers, k);
    std::vector<Pieces::Send> folds;
    for (const auto& [from, to] : excess.folds) folds.push_back({from, to, 0, k});
    pieces.round(folds, true, 0, "bf-fold");
    // Distance doubling: the lower of a pair keeps the lower half of its run.
    std::vector<int> kept(static_cast<std::size_t>(pof2), 0);  // first super-block of each v's run
    for (int mask = 1, blocks = pof2 / 2, step = 0; mask < pof2; mask <<= 1, blocks /= 2, ++step) {
        std::vector<Pieces::Send> sends;
        std::vector<int> next = kept;
        for (int v = 0; v < pof2; ++v) {
            const bool lower = (v & mask) == 0;
            const int give = lower ? kept[v] + blocks : kept[v];
            next[v] = lower ? kept[v] : kept[v] + blocks;
            sends.push_back({active[v], active[v ^ mask], first_block(give), first_block(give + blocks) - first_block(give)});
        }
        pieces.round(sends, true, step + 1, fmt::format("bf{}", step));
        kept = next;
    }
    // Active v now holds super-block kept[v] (the bit reversal of v) reduced: its blocks go to their ranks.
    std::vector<Pieces::Send> results;
    for (int v = 0; v < pof2; ++v)
        for (int block = first_block(kept[v]); block < first_block(kept[v] + 1); ++block)
            if (block != active[v]) results.push_back({active[v], block, block, 1});
    pieces.round(results, false, 0, "bf-results");
    pieces.finish();
}

void reduce_then_scatter(FlatReduceScatterChunk& c) {
    ChunkState& state = c.state;
    const HomeOf home = [&](int rank) {
        return rank == 0 ? Range{c.works[0], 0, state.bytes} : c.homes.range(rank, 0, "red", 0, state.bytes);
    };
    run_flat_reduce(FlatAlgorithm::binomial, 1, c.p2p, c.ranks, state, home);
    place_partial(c.builder, state, 0, home(0));
    const std::uint64_t block = state.bytes / c.ranks.size();
    // Rank 0's own block last: its copy would hold back the hand-overs the others wait for.
    for (int rank = 1; rank < static_cast<int>(c.ranks.size()); ++rank) {
        const Range output{c.outputs[rank], 0, block};
        const Range from{c.works[0], block * static_cast<std::uint64_t>(rank), block};
        state.ready[rank] = {c.p2p.move(0, from, state.ready[0], rank, output, fmt::format("c0:block{}", rank))};
        state.partial[rank] = output;
    }
}

}  // namespace numacoll::algo
