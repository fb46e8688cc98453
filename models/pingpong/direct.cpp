#include "models/pingpong/direct.hpp"

#include "models/p2p_terms.hpp"
#include "schedule/options.hpp"

namespace numacoll::models {

ModelInfo pingpong_direct_model() {
    ModelInfo info;
    info.collective = sched::Collective::pingpong;
    info.name = "direct";
    info.source = "Intel MPI Benchmarks PingPong (NUIOA paper, section 4.2); LogGP, Alexandrov et al. 1995";
    info.predict = [](const sched::CollectiveSpec& spec, const NodeShape& shape,
                      const costs::Params& params) -> std::optional<double> {
        const sched::OptionReader options(spec, "direct");
        const int p = shape.ranks(), per_node = shape.node_ranks();
        const int peer = options.text("peer") == "next" ? (spec.root + 1) % std::max(1, p) : options.integer("peer", 0);
        const bool same_node = spec.root / per_node == peer / per_node;
        const bool same_socket = shape.sockets == 1 || (shape.threads_per_socket > 1 && peer == spec.root + 1 &&
                                                        (peer % per_node) % shape.threads_per_socket != 0);
        const costs::Level level = !same_node    ? costs::Level::network
                                   : same_socket ? costs::Level::same_socket
                                                 : costs::Level::other_socket;
        const P2pTerms terms = p2p_terms(params, level, !shape.threads_only);
        const double m = static_cast<double>(spec.bytes);
        return 2 * (terms.signal_ns() + terms.copy_ns(m));
    };
    return info;
}

}  // namespace numacoll::models
