#include "models/gather/gather.hpp"
#include "models/p2p_terms.hpp"

namespace numacoll::models {

ModelInfo gather_leader_model() {
    ModelInfo info;
    info.collective = sched::Collective::gather;
    info.name = "leader";
    info.source = "Goglin, Moreaud, NUIOA-aware collectives, sections 3.2 and 3.3.2; linear stages as "
                  "Thakur, Rabenseifner, Gropp 2005";
    info.predict = [](const sched::CollectiveSpec& spec, const NodeShape& shape,
                      const costs::Params& params) -> std::optional<double> {
        const double m = static_cast<double>(spec.bytes);
        NodeShape node = shape;
        node.nodes = 1;
        const double inside = linear_gather_ns(node.node_ranks(), p2p_terms(params, joining_level(node), !shape.threads_only), m);
        if (shape.nodes == 1) return inside;
        const P2pTerms net = p2p_terms(params, costs::Level::network, !shape.threads_only);
        const double blocks = node.node_ranks() * m;
        return inside + net.copy_ns(blocks) + (shape.nodes - 2) * blocks * net.net_ns_per_byte;
    };
    return info;
}

}  // namespace numacoll::models
