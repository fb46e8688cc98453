// The closed form of bcast "scatter-allgather" on p ranks: the round trace of models/bcast/scattered.hpp.
#include "models/bcast/scattered.hpp"

namespace numacoll::models {

ModelInfo bcast_scatter_allgather_model() {
    ModelInfo info;
    info.collective = sched::Collective::bcast;
    info.name = "scatter-allgather";
    info.source = "Thakur, Rabenseifner, Gropp 2005, section 4.3; Open MPI coll/tuned bcast scatter_allgather (models/bcast/scattered.hpp)";
    info.predict = [](const sched::CollectiveSpec& spec, const NodeShape& shape, const costs::Params& params) {
        return scattered_bcast_ns(spec, shape, params, ScatteredAllgather::recursive_doubling);
    };
    return info;
}

}  // namespace numacoll::models
