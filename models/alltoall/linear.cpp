// The closed form of alltoall "linear" on p ranks: Open MPI coll/tuned alltoall basic linear: the own block, then every flag and p - 1 pulls at once (models/alltoall/alltoall_terms.hpp).
#include "models/alltoall/alltoall_terms.hpp"

namespace numacoll::models {

ModelInfo alltoall_linear_model() {
    ModelInfo info;
    info.collective = sched::Collective::alltoall;
    info.name = "linear";
    info.source = "Open MPI coll/tuned alltoall basic linear: the own block, then every flag and p - 1 pulls at once (models/alltoall/alltoall_terms.hpp)";
    info.predict = [](const sched::CollectiveSpec& spec, const NodeShape& shape,
                      const costs::Params& params) -> std::optional<double> {
        const P2pTerms t = flat_terms(shape, params);
        const double m = static_cast<double>(spec.bytes);
        return linear_alltoall_ns(shape.ranks(), t, m, shape.ranks() - 1);
    };
    return info;
}

}  // namespace numacoll::models
