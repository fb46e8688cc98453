// allreduce "rabenseifner" (Rabenseifner 2004; Open MPI's algorithm 6): a
// reduce-scatter by recursive halving, each rank ending with one of
// 2^floor(log2 p) pieces fully reduced, then an allgather by recursive
// doubling; excess ranks fold in first and get the result last
// (patterns/pieces.hpp). A vector of fewer elements than 2^floor(log2 p)
// runs the linear allreduce instead, as Open MPI's does.
#include "algorithms/patterns/flat_allreduce.hpp"
#include "algorithms/patterns/power_of_two.hpp"
#include "algorithms/registry.hpp"

namespace numacoll::algo {

AlgorithmInfo allreduce_rabenseifner_info() {
    return {Collective::allreduce, "rabenseifner",
            "recursive-halving reduce-scatter, then recursive-doubling allgather; large vectors in few steps",
            "Rabenseifner 2004; Thakur, Rabenseifner, Gropp 2005, section 4.4; Open MPI coll/tuned allreduce rabenseifner (algorithm 6)",
            {},
            [](const CollectiveSpec& spec, const Layout& layout, const OptionReader&) {
                if (spec.bytes / element_bytes(spec) < static_cast<std::uint64_t>(largest_power_of_two(layout.size())))
                    return flat_allreduce_schedule(spec, layout, 0, [](FlatAllreduceChunk& c) {
                        reduce_then_bcast(c, FlatAlgorithm::linear, FlatAlgorithm::linear);
                    });
                return flat_allreduce_schedule(spec, layout, 0, [](FlatAllreduceChunk& c) {
                    rabenseifner_allreduce(c.builder, c.ranks, c.state, c.outputs, c.buffers);
                });
            },
            RankKind::process};
}

}  // namespace numacoll::algo
