// The closed form of allreduce "recursive-doubling" on p ranks: Thakur, Rabenseifner, Gropp 2005, section 4.4: log2 p exchanges of m (models/exchange_terms.hpp).
#include "models/exchange_terms.hpp"

namespace numacoll::models {

ModelInfo allreduce_recursive_doubling_model() {
    ModelInfo info;
    info.collective = sched::Collective::allreduce;
    info.name = "recursive-doubling";
    info.source = "Thakur, Rabenseifner, Gropp 2005, section 4.4: log2 p exchanges of m (models/exchange_terms.hpp)";
    info.predict = [](const sched::CollectiveSpec& spec, const NodeShape& shape,
                      const costs::Params& params) -> std::optional<double> {
        const int p = shape.ranks();
        const P2pTerms t = flat_terms(shape, params);
        const double m = static_cast<double>(spec.bytes);
        if (p == 1) return t.local_copy_ns(m);
        return recursive_doubling_allreduce_ns(p, t, m);
    };
    return info;
}

}  // namespace numacoll::models
