// allreduce "ring" (Open MPI's algorithm 4; Thakur, Rabenseifner, Gropp
// 2005): the vector cut into p pieces; p - 1 steps of reduce-scatter, where
// rank r folds the piece rank r - 1 hands it, then p - 1 steps of
// allgather. Each rank moves 2 (p - 1) / p of the vector
// (patterns/pieces.hpp). A vector of fewer elements than ranks runs
// recursive doubling instead, as Open MPI's ring does.
#include "algorithms/patterns/flat_allreduce.hpp"
#include "algorithms/registry.hpp"

namespace numacoll::algo {

AlgorithmInfo allreduce_ring_info() {
    return {Collective::allreduce, "ring",
            "reduce-scatter then allgather around a ring of p pieces; bandwidth-optimal, large vectors",
            "Thakur, Rabenseifner, Gropp 2005, section 4.4; Open MPI coll/tuned allreduce ring (algorithm 4)",
            {},
            [](const CollectiveSpec& spec, const Layout& layout, const OptionReader&) {
                if (spec.bytes / element_bytes(spec) < static_cast<std::uint64_t>(layout.size()))
                    return flat_allreduce_schedule(spec, layout, 0, [](FlatAllreduceChunk& c) {
                        recursive_doubling_allreduce(c.builder, c.ranks, c.state, c.outputs, c.buffers);
                    });
                return flat_allreduce_schedule(spec, layout, 0, [](FlatAllreduceChunk& c) {
                    ring_allreduce(c.builder, c.ranks, c.state, c.outputs, c.buffers);
                });
            },
            RankKind::process};
}

}  // namespace numacoll::algo
