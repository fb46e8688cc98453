#include "models/scatter/tree.hpp"

#include <algorithm>

#include "models/p2p_terms.hpp"
#include "schedule/options.hpp"

namespace numacoll::models {

ModelInfo scatter_tree_model() {
    ModelInfo info;
    info.collective = sched::Collective::scatter;
    info.name = "tree";
    info.source = "Li, Hoefler, Snir, HPDC'13, section 2.2 (one- and two-stage, equation 4) applied to scatter";
    info.predict = [](const sched::CollectiveSpec& spec, const NodeShape& shape,
                      const costs::Params& params) -> std::optional<double> {
        const sched::OptionReader options(spec, "tree");
        const bool two_stage = options.choice("stages", {"1stage", "2stage"}) == "2stage";
        const double m = static_cast<double>(spec.bytes);
        const int q = std::max(1, shape.threads_per_socket), per_node = shape.node_ranks();
        const P2pTerms alpha = p2p_terms(params, costs::Level::same_socket, false);
        const P2pTerms beta = p2p_terms(params, costs::Level::other_socket, false);
        // The master copies its own block first; its signals follow its program order.
        const double own = alpha.local_copy_ns(m);
        double node = q > 1 ? own + alpha.signal_ns(q - 1) + alpha.copy_ns(m, q - 1) : own;
        if (shape.sockets > 1) {
            const double other = two_stage ? own + beta.signal_ns() + q * beta.copy_ns(m) + alpha.signal_ns() + alpha.copy_ns(m)
                                           : own + beta.signal_ns(per_node - 1) + beta.copy_ns(m, q);
            node = std::max(node, other);
        }
        if (shape.nodes == 1) return node;
        const P2pTerms net = p2p_terms(params, costs::Level::network, false);
        const double blocks = per_node * m;
        return net.copy_ns(blocks) + (shape.nodes - 2) * blocks * net.net_ns_per_byte + node;
    };
    return info;
}

}  // namespace numacoll::models
