// The closed form of reduce_scatter "ring" on p ranks: Thakur, Rabenseifner, Gropp 2005: p - 1 folds of a block, then the copy into the output (models/exchange_terms.hpp).
#include "models/exchange_terms.hpp"

namespace numacoll::models {

ModelInfo reduce_scatter_ring_model() {
    ModelInfo info;
    info.collective = sched::Collective::reduce_scatter;
    info.name = "ring";
    info.source = "Thakur, Rabenseifner, Gropp 2005: p - 1 folds of a block, then the copy into the output (models/exchange_terms.hpp)";
    info.predict = [](const sched::CollectiveSpec& spec, const NodeShape& shape,
                      const costs::Params& params) -> std::optional<double> {
        return ring_reduce_scatter_ns(shape.ranks(), flat_terms(shape, params), static_cast<double>(spec.bytes));
    };
    return info;
}

}  // namespace numacoll::models
