// The closed form of barrier "recursive-doubling" (models/barrier/signal_terms.hpp).
#include "models/barrier/signal_terms.hpp"
#include "models/exchange_terms.hpp"

namespace numacoll::models {

ModelInfo barrier_recursive_doubling_model() {
    ModelInfo info;
    info.collective = sched::Collective::barrier;
    info.name = "recursive-doubling";
    info.source = "Open MPI coll/tuned barrier recursive_doubling: the excess ranks' arrival and release, log2 p' pairwise rounds";
    info.predict = [](const sched::CollectiveSpec&, const NodeShape& shape,
                      const costs::Params& params) -> std::optional<double> {
        const int p = shape.ranks();
        const P2pTerms t = flat_terms(shape, params);
        if (p == 1) return 0.0;
        const int power = largest_power_of_two(p);
        double time = power == p ? 0 : 2 * barrier_signal_ns(t, p - power);
        for (int mask = 1; mask < power; mask *= 2) time += barrier_signal_ns(t, power);
        return time;
    };
    return info;
}

}  // namespace numacoll::models
