#include "algorithms/bcast/scattered.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "algorithms/patterns/flat_trees.hpp"

namespace numacoll::algo {

void pass_to_non_root(Pieces& pieces, std::vector<Pieces::Send> sends, const std::string& label) {
    std::erase_if(sends, [&](const Pieces::Send& send) {
        if (send.to == 0) return true;
        for (int piece = send.first; piece < send.first + send.n; ++piece)
            if (!pieces.holds(send.to, piece)) return false;
        return true;
    });
    pieces.round(sends, false, 0, label);
}

Schedule scatter_then_allgather(const CollectiveSpec& spec, const Layout& layout, const ScatteredAllgather& allgather) {
    ScheduleBuilder builder(layout, spec);
    const int ranks = layout.size(), root = spec.root;
    std::vector<int> inputs(ranks, -1), holds(ranks, -1), order;
    inputs[root] = holds[root] = builder.add_input(root, spec.bytes);
    for (int rank = 0; rank < ranks; ++rank)
        if (rank != root) holds[rank] = builder.add_output(rank, spec.bytes);
    for (int v = 0; v < ranks; ++v) order.push_back((root + v) % ranks);
    ChunkState state = start_chunk(0, spec.bytes, "c0", inputs, ranks);
    // Open MPI cuts whole elements; a vector that is not (a broadcast moves any bytes) is cut in bytes.
    const std::uint64_t unit = spec.bytes % element_bytes(spec) == 0 ? element_bytes(spec) : 1;
    const std::uint64_t elements = spec.bytes / unit;
    if (elements < static_cast<std::uint64_t>(ranks)) {
        PointToPoint p2p(builder, inputs);
        run_flat_bcast(FlatAlgorithm::linear, 1, p2p, order, state,
                       [&](int rank) { return Range{holds[rank], 0, spec.bytes}; });
        settle(builder, state);
        return builder.finish();
    }
    const std::uint64_t block = (elements + ranks - 1) / ranks;
    std::vector<std::uint64_t> lengths;
    for (int v = 0; v < ranks; ++v) {
        const std::uint64_t start = block * v;
        lengths.push_back(unit * (start >= elements ? 0 : std::min(block, elements - start)));
    }
    TempPool landings(builder), partials(builder);
    ReadySignals signals(inputs);
    Pieces pieces(builder, order, state, holds, {landings, partials, &signals, true}, lengths);
    // Binomial scatter, largest subtree first; Open MPI sends nothing to a subtree of empty blocks.
    int top = 1;
    while (2 * top < ranks) top *= 2;
    for (int mask = top, step = 0; mask >= 1; mask /= 2, ++step) {
        std::vector<Pieces::Send> sends;
        for (int v = 0; v + mask < ranks; v += 2 * mask) {
            const int count = std::min(mask, ranks - v - mask);
            if (lengths[v + mask] > 0) sends.push_back({v, v + mask, v + mask, count});
        }
        pieces.round(sends, false, 0, fmt::format("scatter{}", step));
    }
    allgather(pieces, ranks);
    pieces.finish();
    settle(builder, state);
    return builder.finish();
}

}  // namespace numacoll::algo
