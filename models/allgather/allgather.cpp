#include "models/allgather/allgather.hpp"

#include <algorithm>

#include "models/flat_models.hpp"
#include "models/gather/gather.hpp"
#include "models/p2p_terms.hpp"

namespace numacoll::models {

namespace {

// Every rank copies its own block, then p - 1 rounds of p hand-overs at once.
double ring_allgather_ns(int p, const P2pTerms& t, double m) {
    return t.local_copy_ns(m) + (p - 1) * (t.signal_ns(p) + t.copy_ns(m, p));
}

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
                               return ring_allgather_ns(p, terms, m);
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

ModelInfo allgather_linear_model() {
    return allgather_model("linear",
                           "Open MPI coll/tuned allgather basic linear: the linear gather to rank 0, then the linear "
                           "broadcast of the p blocks",
                           [](const NodeShape& shape, const costs::Params& params, double m) {
                               const int p = shape.ranks();
                               const P2pTerms terms = flat_terms(shape, params);
                               return linear_gather_ns(p, terms, m) + flat_bcast_ns("linear", p, 1, terms, p * m, 0);
                           });
}

ModelInfo allgather_bruck_model() {
    return allgather_model("bruck",
                           "Bruck et al. 1997; Open MPI coll/tuned allgather bruck: ceil(log2 p) steps of min(d, p - d) "
                           "blocks, the flag back, the rotation",
                           [](const NodeShape& shape, const costs::Params& params, double m) {
                               const int p = shape.ranks();
                               const P2pTerms terms = flat_terms(shape, params);
                               double time = terms.local_copy_ns(m);
                               if (p == 1) return time;
                               const double o_s = terms.network ? 0 : terms.send_overhead_ns;
                               for (int distance = 1; distance < p; distance *= 2) {
                                   // After the first step a rank's flag follows its flag back of the step
                                   // before: two flags into each reader, at once without send overheads.
                                   const double signal = distance == 1 ? terms.signal_ns(p)
                                                         : o_s > 0     ? o_s + terms.signal_ns(p)
                                                                       : terms.signal_ns(2 * p, 2);
                                   time += signal + terms.copy_ns(std::min(distance, p - distance) * m, p);
                               }
                               return time + terms.signal_ns(p) + terms.local_copy_ns(p * m) +
                                      terms.local_copy_ns((p - 1) * m) + terms.local_copy_ns(m);
                           });
}

ModelInfo allgather_two_proc_model() {
    ModelInfo info = allgather_model("two-proc", "Open MPI coll/tuned allgather two_proc: one send-receive, then the own block",
                           [](const NodeShape& shape, const costs::Params& params, double m) {
                               const P2pTerms terms = flat_terms(shape, params);
                               return terms.signal_ns(2) + terms.copy_ns(m, 2) + terms.local_copy_ns(m);
                           });
    const auto on_two = info.predict;
    info.predict = [on_two](const sched::CollectiveSpec& spec, const NodeShape& shape,
                            const costs::Params& params) -> std::optional<double> {
        if (shape.ranks() != 2) return std::nullopt;  // it runs on two ranks only
        return on_two(spec, shape, params);
    };
    return info;
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

ModelInfo allgather_neighbor_exchange_model() {
    return allgather_model("neighbor-exchange",
                           "Open MPI coll/tuned allgather neighbor exchange (Chen et al. 2005); a ring on odd p",
                           [](const NodeShape& shape, const costs::Params& params, double m) {
                               const int p = shape.ranks();
                               const P2pTerms t = flat_terms(shape, params);
                               double time = t.local_copy_ns(m);
                               if (p % 2 != 0) return ring_allgather_ns(p, t, m);
                               time += t.signal_ns(p) + t.copy_ns(m, p);
                               return time + (p / 2 - 1) * (t.signal_ns(p) + t.copy_ns(2 * m, p));
                           });
}

}  // namespace numacoll::models
