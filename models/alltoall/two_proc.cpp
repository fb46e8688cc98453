// The closed form of alltoall "two-proc" on p ranks: Open MPI coll/tuned alltoall two_proc: one send-receive, then the own block (models/alltoall/alltoall_terms.hpp).
#include "models/alltoall/alltoall_terms.hpp"

namespace numacoll::models {

ModelInfo alltoall_two_proc_model() {
    ModelInfo info;
    info.collective = sched::Collective::alltoall;
    info.name = "two-proc";
    info.source = "Open MPI coll/tuned alltoall two_proc: one send-receive, then the own block (models/alltoall/alltoall_terms.hpp)";
    info.predict = [](const sched::CollectiveSpec& spec, const NodeShape& shape,
                      const costs::Params& params) -> std::optional<double> {
        if (shape.ranks() != 2) return std::nullopt;  // it runs on two ranks only
        const P2pTerms t = flat_terms(shape, params);
        const double m = static_cast<double>(spec.bytes);
        return pairwise_alltoall_ns(shape.ranks(), t, m);
    };
    return info;
}

}  // namespace numacoll::models
