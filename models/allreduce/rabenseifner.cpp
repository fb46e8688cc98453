// The closed form of allreduce "rabenseifner" on p ranks: Rabenseifner 2004; Thakur, Rabenseifner, Gropp 2005: halvings then doublings (models/exchange_terms.hpp).
#include "models/exchange_terms.hpp"

namespace numacoll::models {

ModelInfo allreduce_rabenseifner_model() {
    ModelInfo info;
    info.collective = sched::Collective::allreduce;
    info.name = "rabenseifner";
    info.source = "Rabenseifner 2004; Thakur, Rabenseifner, Gropp 2005: halvings then doublings (models/exchange_terms.hpp)";
    info.predict = [](const sched::CollectiveSpec& spec, const NodeShape& shape,
                      const costs::Params& params) -> std::optional<double> {
        const int p = shape.ranks();
        const P2pTerms t = flat_terms(shape, params);
        const double m = static_cast<double>(spec.bytes);
        if (p == 1) return t.local_copy_ns(m);
        // Open MPI's fall-back: the linear allreduce.
        if (m / static_cast<double>(sched::element_bytes(spec)) < largest_power_of_two(p))
            return reduce_then_bcast_allreduce_ns("linear", "linear", p, t, m);
        return rabenseifner_allreduce_ns(p, t, m);
    };
    return info;
}

}  // namespace numacoll::models
