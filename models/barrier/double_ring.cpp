// The closed form of barrier "double-ring" (models/barrier/signal_terms.hpp).
#include "models/barrier/signal_terms.hpp"

namespace numacoll::models {

ModelInfo barrier_double_ring_model() {
    ModelInfo info;
    info.collective = sched::Collective::barrier;
    info.name = "double-ring";
    info.source = "Open MPI coll/tuned barrier double_ring: 2p signals around the ring, one after the other";
    info.predict = [](const sched::CollectiveSpec&, const NodeShape& shape,
                      const costs::Params& params) -> std::optional<double> {
        const int p = shape.ranks();
        const P2pTerms t = flat_terms(shape, params);
        if (p == 1) return 0.0;
        return 2 * p * barrier_signal_ns(t);
    };
    return info;
}

}  // namespace numacoll::models
