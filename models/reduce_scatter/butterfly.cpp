// The closed form of reduce_scatter "butterfly" on p ranks: Traff 2005: the excess fold, log2 p' halving folds by distance doubling, the results handed to their ranks, the copy into the output (models/exchange_terms.hpp).
#include "models/exchange_terms.hpp"

namespace numacoll::models {

ModelInfo reduce_scatter_butterfly_model() {
    ModelInfo info;
    info.collective = sched::Collective::reduce_scatter;
    info.name = "butterfly";
    info.source = "Traff 2005: the excess fold, log2 p' halving folds by distance doubling, the results handed to their ranks (models/exchange_terms.hpp)";
    info.predict = [](const sched::CollectiveSpec& spec, const NodeShape& shape,
                      const costs::Params& params) -> std::optional<double> {
        return butterfly_reduce_scatter_ns(shape.ranks(), flat_terms(shape, params), static_cast<double>(spec.bytes));
    };
    return info;
}

}  // namespace numacoll::models
