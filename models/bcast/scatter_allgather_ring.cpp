// The closed form of bcast "scatter-allgather-ring" on p ranks: the round trace of models/bcast/scattered.hpp.
#include "models/bcast/scattered.hpp"

namespace numacoll::models {

ModelInfo bcast_scatter_allgather_ring_model() {
    ModelInfo info;
    info.collective = sched::Collective::bcast;
    info.name = "scatter-allgather-ring";
    info.source = "Open MPI coll/tuned bcast scatter_allgather_ring; its binomial scatter and ring allgather (models/bcast/scattered.hpp)";
    info.predict = [](const sched::CollectiveSpec& spec, const NodeShape& shape, const costs::Params& params) {
        return scattered_bcast_ns(spec, shape, params, ScatteredAllgather::ring);
    };
    return info;
}

}  // namespace numacoll::models
