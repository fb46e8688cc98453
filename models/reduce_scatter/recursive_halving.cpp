// The closed form of reduce_scatter "recursive-halving" on p ranks: Thakur, Rabenseifner, Gropp 2005: the excess fold, log2 p' halving folds, the excess ranks' blocks, the copy into the output (models/exchange_terms.hpp).
#include "models/exchange_terms.hpp"

namespace numacoll::models {

ModelInfo reduce_scatter_recursive_halving_model() {
    ModelInfo info;
    info.collective = sched::Collective::reduce_scatter;
    info.name = "recursive-halving";
    info.source = "Thakur, Rabenseifner, Gropp 2005: the excess fold, log2 p' halving folds, the excess ranks' blocks, the copy into the output (models/exchange_terms.hpp)";
    info.predict = [](const sched::CollectiveSpec& spec, const NodeShape& shape,
                      const costs::Params& params) -> std::optional<double> {
        return recursive_halving_reduce_scatter_ns(shape.ranks(), flat_terms(shape, params),
                                                   static_cast<double>(spec.bytes));
    };
    return info;
}

}  // namespace numacoll::models
