// The closed form of alltoall "leader" (algorithms/alltoall/leader.cpp),
// n ranks on each of k nodes, blocks of m bytes, with the terms of
// models/p2p_terms.hpp (F, C inside a node; M a message between nodes, W
// its bytes' time on the wire):
//   inside a node the linear exchange of n ranks, X = linear(n);
//   a leader packs k - 1 times n copies of n m bytes after one signal,
//   P = F + (k - 1) n C(n m), and sends each pack as it is done: the last
//   lands at L = max(P + M(n^2 m), F + n C(n m) + M(n^2 m) + (k - 2) W(n^2 m));
//   each rank pulls (k - 1) n blocks out of the landed messages, n ranks at
//   once, after its intra-node pulls:
//   max(X + (k - 1) n C(m, n), L + F(n) + n C(m, n)).
// On one node it is the linear exchange's form, exact inside one socket;
// across nodes an estimate (the packs and the pulls overlap in ways the
// two bounds only bracket).
#include <algorithm>

#include "models/alltoall/alltoall_terms.hpp"

namespace numacoll::models {

ModelInfo alltoall_leader_model() {
    ModelInfo info;
    info.collective = sched::Collective::alltoall;
    info.name = "leader";
    info.source = "NUIOA-aware collectives, section 3.2, hierarchical communicators, section 6: intra-node linear exchange, "
                  "one packed message per pair of nodes (models/alltoall/leader.cpp)";
    info.predict = [](const sched::CollectiveSpec& spec, const NodeShape& shape,
                      const costs::Params& params) -> std::optional<double> {
        NodeShape node = shape;
        node.nodes = 1;
        const P2pTerms inside = flat_terms(node, params);
        const double m = static_cast<double>(spec.bytes);
        const int n = shape.node_ranks(), k = shape.nodes;
        const double intra = linear_alltoall_ns(n, inside, m, n - 1);
        if (k == 1) return intra;
        const P2pTerms net = flat_terms(shape, params);
        const double pack = n * n * m;
        const double one_pack = inside.signal_ns() + n * inside.copy_ns(n * m);
        const double packs = inside.signal_ns() + (k - 1) * n * inside.copy_ns(n * m);
        const double last_landed = std::max(packs + net.copy_ns(pack),
                                            one_pack + net.copy_ns(pack) + (k - 2) * pack * net.net_ns_per_byte);
        return std::max(intra + (k - 1) * n * inside.copy_ns(m, n),
                        last_landed + inside.signal_ns(n) + n * inside.copy_ns(m, n));
    };
    return info;
}

}  // namespace numacoll::models
