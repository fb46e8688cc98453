// The closed form of reduce_scatter "nonoverlapping" on p ranks: Open MPI coll/tuned reduce_scatter non-overlapping: the flat binomial reduce of p m bytes, then the linear scatter of blocks of m (models/flat_models.hpp, models/scatter/linear.hpp).
#include "models/flat_models.hpp"
#include "models/scatter/linear.hpp"

namespace numacoll::models {

ModelInfo reduce_scatter_nonoverlapping_model() {
    ModelInfo info;
    info.collective = sched::Collective::reduce_scatter;
    info.name = "nonoverlapping";
    info.source = "Open MPI coll/tuned reduce_scatter non-overlapping: the flat binomial reduce of p m bytes, then the linear scatter of blocks of m (models/flat_models.hpp, models/scatter/linear.hpp)";
    info.predict = [](const sched::CollectiveSpec& spec, const NodeShape& shape,
                      const costs::Params& params) -> std::optional<double> {
        const int p = shape.ranks();
        const P2pTerms t = flat_terms(shape, params);
        const double m = static_cast<double>(spec.bytes);
        if (p == 1) return t.local_copy_ns(m);
        return flat_reduce_ns("binomial", p, 1, t, m * p, 0) + linear_scatter_ns(p, t, m);
    };
    return info;
}

}  // namespace numacoll::models
