// The closed form of allreduce "linear" on p ranks: Open MPI coll/tuned allreduce basic_linear: the flat linear reduce, then the flat linear bcast (models/flat_terms.hpp).
#include "models/exchange_terms.hpp"

namespace numacoll::models {

ModelInfo allreduce_linear_model() {
    ModelInfo info;
    info.collective = sched::Collective::allreduce;
    info.name = "linear";
    info.source = "Open MPI coll/tuned allreduce basic_linear: the flat linear reduce, then the flat linear bcast (models/flat_terms.hpp)";
    info.predict = [](const sched::CollectiveSpec& spec, const NodeShape& shape,
                      const costs::Params& params) -> std::optional<double> {
        const int p = shape.ranks();
        const P2pTerms t = flat_terms(shape, params);
        const double m = static_cast<double>(spec.bytes);
        if (p == 1) return t.local_copy_ns(m);
        return reduce_then_bcast_allreduce_ns("linear", "linear", p, t, m);
    };
    return info;
}

}  // namespace numacoll::models
