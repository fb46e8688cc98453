// reduce "rabenseifner" (Rabenseifner 2004; Open MPI's coll/tuned reduce
// algorithm 7, its redscat_gather): a reduce-scatter by recursive halving,
// each of 2^floor(log2 p) active ranks ending with one piece fully reduced,
// then a binomial gather of the pieces to the root; the excess ranks fold
// in first (patterns/pieces.hpp). Every rank accumulates in a vector-sized
// buffer (the root in its output), as Open MPI's does. Where the root is an
// excess rank, the rank it folded into gathers and hands it the result
// last (Open MPI routes that last step's messages to the root directly: one
// hand-over of the vector more here). A vector of fewer elements than
// 2^floor(log2 p) runs the linear reduce instead, as Open MPI's does.
// Large vectors.
#include "algorithms/patterns/flat_trees.hpp"
#include "algorithms/patterns/pieces.hpp"
#include "algorithms/patterns/power_of_two.hpp"
#include "algorithms/patterns/reduce_homes.hpp"
#include "algorithms/registry.hpp"

namespace numacoll::algo {

namespace {

Schedule rabenseifner_reduce_schedule(const CollectiveSpec& spec, const Layout& layout, const OptionReader&) {
    ScheduleBuilder builder(layout, spec);
    const int ranks = layout.size(), root = spec.root;
    std::vector<int> inputs, outputs(ranks, -1), all;
    for (int rank = 0; rank < ranks; ++rank) {
        inputs.push_back(builder.add_input(rank, spec.bytes));
        all.push_back(rank);
    }
    const int output = outputs[root] = builder.add_output(root, spec.bytes);
    ChunkState state = start_chunk(0, spec.bytes, "c0", inputs, ranks);
    if (spec.bytes / element_bytes(spec) < static_cast<std::uint64_t>(largest_power_of_two(ranks))) {
        ReduceHomes homes(builder, root, output);
        PointToPoint p2p(builder, inputs);
        std::vector<int> group;
        for (int k = 0; k < ranks; ++k) group.push_back((root + k) % ranks);
        run_flat_reduce(FlatAlgorithm::linear, 1, p2p, group, state, [&](int rank) { return homes.at(rank, 0, spec.bytes); });
        homes.complete_root(state);
    } else {
        for (int rank = 0; rank < ranks; ++rank)
            if (rank != root && ranks > 1) outputs[rank] = builder.add_temp(rank, spec.bytes, "rab");
        TempPool landings(builder), partials(builder);
        ReadySignals signals(inputs);
        rabenseifner_reduce(builder, all, state, outputs, {landings, partials, &signals}, root);
        place_partial(builder, state, root, {output, 0, spec.bytes});
    }
    settle(builder, state);
    return builder.finish();
}

}  // namespace

AlgorithmInfo reduce_rabenseifner_info() {
    return {Collective::reduce, "rabenseifner",
            "recursive-halving reduce-scatter, then a binomial gather to the root; large vectors",
            "Rabenseifner 2004; Open MPI coll/tuned reduce rabenseifner (algorithm 7)", {},
            rabenseifner_reduce_schedule, RankKind::process};
}

}  // namespace numacoll::algo
