#include "models/allgather/allgather.hpp"

#include <algorithm>

#include "models/gather/gather.hpp"
#include "models/p2p_terms.hpp"

namespace numacoll::models {

namespace {

ModelInfo allgather_model(const std::string& name, const std::string& source,
                          std::function<double(const NodeShape&, const costs::Params&, double)> time) {
    ModelInfo info;
    info.collective = sched::Collective::allgather;
    info.name = name;
    info.source = source;
    info.predict = [time](const sched::CollectiveSpec& spec, const NodeShape& shape,
                          const costs::Params& params) -> std::optional<double> {
        return time(shape, params, static_cast<double>(spec.bytes));
    };
    return info;
}

}  // namespace

ModelInfo allgather_ring_model() {
    return allgather_model("ring", "MPICH/Open MPI ring allgather; Thakur, Rabenseifner, Gropp 2005, (p - 1)(a + m b)",
                           [](const NodeShape& shape, const costs::Params& params, double m) {
                               const int p = shape.ranks();
                               const P2pTerms terms = flat_terms(shape, params);
                               return terms.local_copy_ns(m) + p * (p - 1) * (terms.signal_ns() + terms.copy_ns(m));
                           });
}

ModelInfo allgather_recursive_doubling_model() {
    return allgather_model(
        "recursive-doubling", "MPICH recursive-doubling allgather; Thakur, Rabenseifner, Gropp 2005",
        [](const NodeShape& shape, const costs::Params& params, double m) {
            const int p = shape.ranks();
            const P2pTerms terms = flat_terms(shape, params);
            int power = 1;
            while (2 * power <= p) power *= 2;
            const bool excess = power != p;
            double time = terms.local_copy_ns(m);
            if (excess) time = std::max(time, terms.signal_ns(p - power)) + terms.copy_ns(m, p - power);
            for (int mask = 1; mask < power; mask *= 2)
                time += 2 * (terms.signal_ns() + terms.copy_ns(mask * m * (excess ? 2 : 1)));
            if (excess) time += terms.signal_ns(p - power) + terms.copy_ns(p * m, p - power);
            return time;
        });
}

ModelInfo allgather_leader_model() {
    return allgather_model(
        "leader", "Goglin, Moreaud, NUIOA-aware collectives, section 3.3.3; stages as Thakur et al. 2005",
        [](const NodeShape& shape, const costs::Params& params, double m) {
            NodeShape node = shape;
            node.nodes = 1;
            const int per_node = node.node_ranks();
            const P2pTerms inside = p2p_terms(params, joining_level(node), !shape.threads_only);
            double time = linear_gather_ns(per_node, inside, m);
            if (shape.nodes > 1) {
                const P2pTerms net = p2p_terms(params, costs::Level::network, !shape.threads_only);
                time += net.copy_ns(per_node * m) + (shape.nodes - 2) * per_node * m * net.net_ns_per_byte;
            }
            if (per_node > 1)
                time += inside.signal_ns(per_node - 1) + inside.copy_ns(shape.ranks() * m, per_node - 1);
            return time;
        });
}

}  // namespace numacoll::models
