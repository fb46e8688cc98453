// The closed form of alltoall "modified-bruck" on p ranks: Bruck et al. 1997; Thakur, Rabenseifner, Gropp 2005, section 4.5: the rotation, ceil(log2 p) steps of runs pulled and copied back, the rotation back (models/alltoall/alltoall_terms.hpp).
#include "models/alltoall/alltoall_terms.hpp"

namespace numacoll::models {

ModelInfo alltoall_modified_bruck_model() {
    ModelInfo info;
    info.collective = sched::Collective::alltoall;
    info.name = "modified-bruck";
    info.source = "Bruck et al. 1997; Thakur, Rabenseifner, Gropp 2005, section 4.5: the rotation, ceil(log2 p) steps of runs pulled and copied back, the rotation back (models/alltoall/alltoall_terms.hpp)";
    info.predict = [](const sched::CollectiveSpec& spec, const NodeShape& shape,
                      const costs::Params& params) -> std::optional<double> {
        const P2pTerms t = flat_terms(shape, params);
        const double m = static_cast<double>(spec.bytes);
        return modified_bruck_alltoall_ns(shape.ranks(), t, m);
    };
    return info;
}

}  // namespace numacoll::models
