// allreduce "segmented-ring" (Open MPI's algorithm 5): the ring allreduce
// run on chunks of p segments, so that each message carries at most one
// segment and the rounds of consecutive chunks pipeline. Open MPI cuts each
// of the p blocks into phases of segsize; a chunk of p segments is one phase
// over contiguous blocks, the same messages. A vector of at most p segments
// is one ring, and one of fewer elements than ranks recursive doubling, as
// in Open MPI (patterns/pieces.hpp).
#include "algorithms/patterns/flat_allreduce.hpp"
#include "algorithms/registry.hpp"
#include "common/error.hpp"

namespace numacoll::algo {

AlgorithmInfo allreduce_segmented_ring_info() {
    return {Collective::allreduce, "segmented-ring",
            "the ring on chunks of p segments, messages of one segment; very large vectors",
            "Open MPI coll/tuned allreduce segmented_ring (algorithm 5); Thakur, Rabenseifner, Gropp 2005",
            {{"segment", "1MiB", "largest message, whole elements (Open MPI's fixed decision: 1 MiB)",
              {"64KiB", "1MiB"}}},
            [](const CollectiveSpec& spec, const Layout& layout, const OptionReader& options) {
                const std::uint64_t segment = segment_bytes(options, element_bytes(spec));
                if (segment == 0)
                    throw UsageError("option segment of segmented-ring must be at least one element (0 is the plain "
                                     "ring: --algorithm ring)");
                const std::uint64_t chunk = segment * layout.size();
                if (spec.bytes / element_bytes(spec) < static_cast<std::uint64_t>(layout.size()))
                    return flat_allreduce_schedule(spec, layout, 0, [](FlatAllreduceChunk& c) {
                        recursive_doubling_allreduce(c.builder, c.ranks, c.state, c.outputs, c.buffers);
                    });
                return flat_allreduce_schedule(spec, layout, chunk, [](FlatAllreduceChunk& c) {
                    ring_allreduce(c.builder, c.ranks, c.state, c.outputs, c.buffers);
                });
            },
            RankKind::process};
}

}  // namespace numacoll::algo
