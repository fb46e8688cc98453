// allreduce "recursive-doubling" (Thakur, Rabenseifner, Gropp 2005; Open
// MPI's algorithm 3): in round i rank r and rank r XOR 2^i exchange their
// partials and fold; p not a power of two folds the excess ranks in first
// (MPICH's adjacent fold) and sends them the result last. Every round
// folds the whole vector, so each result goes to a fresh temp
// (patterns/pieces.hpp).
#include "algorithms/patterns/flat_allreduce.hpp"
#include "algorithms/registry.hpp"

namespace numacoll::algo {

AlgorithmInfo allreduce_recursive_doubling_info() {
    return {Collective::allreduce, "recursive-doubling",
            "log2 p exchanges of the whole vector between partners; small vectors",
            "Thakur, Rabenseifner, Gropp 2005, section 4.4; Open MPI coll/tuned allreduce recursive_doubling (algorithm 3)",
            {},
            [](const CollectiveSpec& spec, const Layout& layout, const OptionReader&) {
                return flat_allreduce_schedule(spec, layout, 0, [](FlatAllreduceChunk& c) {
                    recursive_doubling_allreduce(c.builder, c.ranks, c.state, c.outputs, c.buffers);
                });
            },
            RankKind::process};
}

}  // namespace numacoll::algo
