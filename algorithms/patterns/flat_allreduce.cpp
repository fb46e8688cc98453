#include "algorithms/patterns/flat_allreduce.hpp"

#include "algorithms/patterns/strips.hpp"

namespace numacoll::algo {

Schedule flat_allreduce_schedule(const CollectiveSpec& spec, const Layout& layout, std::uint64_t chunk_bytes,
                                 const FlatAllreducePattern& pattern) {
    ScheduleBuilder builder(layout, spec);
    std::vector<int> ranks, inputs, outputs;
    for (int rank = 0; rank < layout.size(); ++rank) {
        ranks.push_back(rank);
        inputs.push_back(builder.add_input(rank, spec.bytes));
        outputs.push_back(builder.add_output(rank, spec.bytes));
    }
    TempPool landings(builder), partials(builder), homes(builder);
    ReadySignals signals(inputs);
    PointToPoint p2p(builder, inputs);
    return build_in_chunks(builder, chunk_bytes, [&](std::uint64_t offset, std::uint64_t bytes, const std::string& tag) {
        ChunkState state = start_chunk(offset, bytes, tag, inputs, layout.size());
        FlatAllreduceChunk chunk{builder, ranks, state, outputs, {landings, partials, &signals}, p2p, homes};
        pattern(chunk);
        for (int rank : ranks) place_partial(builder, state, rank, {outputs[rank], offset, bytes});
        settle(builder, state);
    });
}

void reduce_then_bcast(FlatAllreduceChunk& chunk, FlatAlgorithm reduce, FlatAlgorithm bcast) {
    ChunkState& state = chunk.state;
    const HomeOf output = [&](int rank) { return Range{chunk.outputs[rank], state.offset, state.bytes}; };
    const HomeOf reduce_home = [&](int rank) {
        return rank == 0 ? output(rank) : chunk.homes.range(rank, 0, "red", state.offset, state.bytes);
    };
    run_flat_reduce(reduce, 1, chunk.p2p, chunk.ranks, state, reduce_home);
    place_partial(chunk.builder, state, 0, output(0));
    run_flat_bcast(bcast, 1, chunk.p2p, chunk.ranks, state, output);
}

}  // namespace numacoll::algo
