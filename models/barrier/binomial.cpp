// The closed form of barrier "binomial" (models/barrier/signal_terms.hpp).
#include <algorithm>

#include "models/barrier/signal_terms.hpp"

namespace numacoll::models {

ModelInfo barrier_binomial_model() {
    ModelInfo info;
    info.collective = sched::Collective::barrier;
    info.name = "binomial";
    info.source = "Open MPI coll/tuned barrier tree: up and down a binomial tree, 2 h signals";
    info.predict = [](const sched::CollectiveSpec&, const NodeShape& shape,
                      const costs::Params& params) -> std::optional<double> {
        const int p = shape.ranks();
        const P2pTerms t = flat_terms(shape, params);
        if (p == 1) return 0.0;
        int height = 0;
        for (int rank = 1; rank < p; ++rank) height = std::max(height, __builtin_popcount(static_cast<unsigned>(rank)));
        return 2 * height * barrier_signal_ns(t);
    };
    return info;
}

}  // namespace numacoll::models
