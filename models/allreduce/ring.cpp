// The closed form of allreduce "ring" on p ranks: Thakur, Rabenseifner, Gropp 2005, section 4.4: 2 (p - 1) hand-overs of m / p (models/exchange_terms.hpp).
#include "models/exchange_terms.hpp"

namespace numacoll::models {

ModelInfo allreduce_ring_model() {
    ModelInfo info;
    info.collective = sched::Collective::allreduce;
    info.name = "ring";
    info.source = "Thakur, Rabenseifner, Gropp 2005, section 4.4: 2 (p - 1) hand-overs of m / p (models/exchange_terms.hpp)";
    info.predict = [](const sched::CollectiveSpec& spec, const NodeShape& shape,
                      const costs::Params& params) -> std::optional<double> {
        const int p = shape.ranks();
        const P2pTerms t = flat_terms(shape, params);
        const double m = static_cast<double>(spec.bytes);
        if (p == 1) return t.local_copy_ns(m);
        return ring_allreduce_ns(p, t, m, static_cast<double>(sched::element_bytes(spec)));
    };
    return info;
}

}  // namespace numacoll::models
