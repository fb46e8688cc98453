#include "models/bcast/leader.hpp"

#include "models/flat_models.hpp"
#include "schedule/options.hpp"

namespace numacoll::models {

ModelInfo bcast_leader_model() {
    ModelInfo info;
    info.collective = sched::Collective::bcast;
    info.name = "leader";
    info.source = "Goglin, Moreaud, NUIOA-aware collectives, section 3.2 (Figure 3); flat stages as "
                  "Thakur, Rabenseifner, Gropp 2005";
    info.predict = [](const sched::CollectiveSpec& spec, const NodeShape& shape,
                      const costs::Params& params) -> std::optional<double> {
        const sched::OptionReader options(spec, "leader");
        const double segment = static_cast<double>(options.bytes("segment"));
        const double m = static_cast<double>(spec.bytes);
        NodeShape node = shape;
        node.nodes = 1;
        const double across = flat_bcast_ns("linear", shape.nodes, 1, p2p_terms(params, costs::Level::network, !shape.threads_only),
                                            m, segment);
        return across + flat_bcast_ns(options.text("intra"), node.node_ranks(), 4,
                                      p2p_terms(params, joining_level(node), !shape.threads_only), m, segment);
    };
    return info;
}

}  // namespace numacoll::models
