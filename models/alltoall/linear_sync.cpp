// The closed form of alltoall "linear-sync" on p ranks: Open MPI coll/tuned alltoall linear_sync: the linear exchange, the (i + K)-th send raised once the i-th was taken (models/alltoall/alltoall_terms.hpp).
#include "models/alltoall/alltoall_terms.hpp"
#include "schedule/options.hpp"

namespace numacoll::models {

ModelInfo alltoall_linear_sync_model() {
    ModelInfo info;
    info.collective = sched::Collective::alltoall;
    info.name = "linear-sync";
    info.source = "Open MPI coll/tuned alltoall linear_sync: the linear exchange, the (i + K)-th send raised once the i-th was taken (models/alltoall/alltoall_terms.hpp)";
    info.predict = [](const sched::CollectiveSpec& spec, const NodeShape& shape,
                      const costs::Params& params) -> std::optional<double> {
        const sched::OptionReader options(spec, "linear-sync");
        const int requests = options.integer("requests", 0);
        const int p = shape.ranks();
        return linear_alltoall_ns(p, flat_terms(shape, params), static_cast<double>(spec.bytes),
                                  requests == 0 ? p - 1 : requests);
    };
    return info;
}

}  // namespace numacoll::models
