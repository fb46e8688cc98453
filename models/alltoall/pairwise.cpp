// The closed form of alltoall "pairwise" on p ranks: Thakur, Rabenseifner, Gropp 2005, section 4.5: p - 1 send-receive steps of a block, then the own block (models/alltoall/alltoall_terms.hpp).
#include "models/alltoall/alltoall_terms.hpp"

namespace numacoll::models {

ModelInfo alltoall_pairwise_model() {
    ModelInfo info;
    info.collective = sched::Collective::alltoall;
    info.name = "pairwise";
    info.source = "Thakur, Rabenseifner, Gropp 2005, section 4.5: p - 1 send-receive steps of a block, then the own block (models/alltoall/alltoall_terms.hpp)";
    info.predict = [](const sched::CollectiveSpec& spec, const NodeShape& shape,
                      const costs::Params& params) -> std::optional<double> {
        const P2pTerms t = flat_terms(shape, params);
        const double m = static_cast<double>(spec.bytes);
        return pairwise_alltoall_ns(shape.ranks(), t, m);
    };
    return info;
}

}  // namespace numacoll::models
