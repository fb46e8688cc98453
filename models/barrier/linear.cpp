// The closed form of barrier "linear" (models/barrier/signal_terms.hpp).
#include "models/barrier/signal_terms.hpp"

#include <algorithm>

namespace numacoll::models {

ModelInfo barrier_linear_model() {
    ModelInfo info;
    info.collective = sched::Collective::barrier;
    info.name = "linear";
    info.source = "Open MPI coll/tuned barrier basic_linear: p - 1 arrivals into rank 0, then p - 1 releases";
    info.predict = [](const sched::CollectiveSpec&, const NodeShape& shape,
                      const costs::Params& params) -> std::optional<double> {
        const int p = shape.ranks();
        const P2pTerms t = flat_terms(shape, params);
        if (p == 1) return 0.0;
        const double serial_ns = (p - 2) * (t.network ? std::max(t.send_overhead_ns, t.gap_ns) : t.send_overhead_ns);
        return barrier_signal_ns(t, p - 1, p - 1) + barrier_signal_ns(t, p - 1, 1) + serial_ns;
    };
    return info;
}

}  // namespace numacoll::models
