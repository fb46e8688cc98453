#include <algorithm>

#include "models/gather/gather.hpp"
#include "models/p2p_terms.hpp"

namespace numacoll::models {

double linear_gather_ns(int p, const P2pTerms& terms, double bytes) {
    const double own = terms.local_copy_ns(bytes);
    if (p <= 1) return own;
    if (terms.network)  // the messages share the root's wire; the root receives them one by one
        return std::max(own, terms.copy_ns(bytes) + (p - 2) * (bytes * terms.net_ns_per_byte + terms.receive_overhead_ns));
    return std::max(own, terms.signal_ns(p - 1, p - 1)) + (p - 1) * terms.copy_ns(bytes);
}

ModelInfo gather_linear_model() {
    ModelInfo info;
    info.collective = sched::Collective::gather;
    info.name = "linear";
    info.source = "Open MPI basic linear gather; Thakur, Rabenseifner, Gropp 2005, (p - 1)(a + m b)";
    info.predict = [](const sched::CollectiveSpec& spec, const NodeShape& shape,
                      const costs::Params& params) -> std::optional<double> {
        return linear_gather_ns(shape.ranks(), flat_terms(shape, params),
                                static_cast<double>(spec.bytes));
    };
    return info;
}

}  // namespace numacoll::models
