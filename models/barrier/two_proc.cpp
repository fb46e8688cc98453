// The closed form of barrier "two-proc": one exchange of signals, S(2, 1) (models/barrier/signal_terms.hpp).
#include "models/barrier/signal_terms.hpp"

namespace numacoll::models {

ModelInfo barrier_two_proc_model() {
    ModelInfo info;
    info.collective = sched::Collective::barrier;
    info.name = "two-proc";
    info.source = "Open MPI coll/tuned barrier two_proc: one exchange of signals, S(2, 1)";
    info.predict = [](const sched::CollectiveSpec&, const NodeShape& shape,
                      const costs::Params& params) -> std::optional<double> {
        if (shape.ranks() != 2) return std::nullopt;  // it runs on two ranks only
        return barrier_signal_ns(flat_terms(shape, params), 2);
    };
    return info;
}

}  // namespace numacoll::models
