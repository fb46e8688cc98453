// The closed form of scatter "linear" (Open MPI's basic linear; Thakur,
// Rabenseifner, Gropp 2005, (p - 1)(a + m b) between nodes), blocks of m
// bytes, with the terms of models/p2p_terms.hpp: inside a node the p - 1
// ranks read their blocks from the root's input at once while the root
// copies its own, once it has raised their flags one after the other (o_s
// each, for MPI processes),
//   max((p - 1) o_s + 2 local(m), (p - 2) o_s + F(p - 1) + C(m, p - 1));
// between nodes the root's p - 1 messages leave one after the other,
//   C(m) + (p - 2) (max(o_s, g) + m / bandwidth)
// (a core sends every o_s, its NIC takes one every g: LogGP).
// One socket without contention equals the simulator.
// (The formula's home is models/scatter/linear.hpp.)
#include "models/scatter/linear.hpp"

#include <algorithm>

namespace numacoll::models {

double linear_scatter_ns(int p, const P2pTerms& t, double m) {
    if (p == 1) return t.local_copy_ns(m);
    if (t.network) return t.copy_ns(m) + (p - 2) * (std::max(t.send_overhead_ns, t.gap_ns) + m * t.net_ns_per_byte);
    // The root raises its p - 1 flags one after the other, each for its send overhead, then copies its own block.
    return std::max((p - 1) * t.send_overhead_ns + t.local_copy_ns(m),
                    (p - 2) * t.send_overhead_ns + t.signal_ns(p - 1) + t.copy_ns(m, p - 1));
}

ModelInfo scatter_linear_model() {
    ModelInfo info;
    info.collective = sched::Collective::scatter;
    info.name = "linear";
    info.source = "Open MPI coll/tuned scatter basic_linear; Thakur, Rabenseifner, Gropp 2005";
    info.predict = [](const sched::CollectiveSpec& spec, const NodeShape& shape,
                      const costs::Params& params) -> std::optional<double> {
        const int p = shape.ranks();
        const P2pTerms t = flat_terms(shape, params);
        return linear_scatter_ns(p, t, static_cast<double>(spec.bytes));
    };
    return info;
}

}  // namespace numacoll::models
