#include "models/internode_terms.hpp"

#include "models/flat_terms.hpp"
#include "schedule/options.hpp"

namespace numacoll::models {

double internode_allreduce_ns(const std::string& pattern, int nodes, const costs::Params& params, double bytes) {
    if (nodes <= 1) return 0;
    const P2pTerms net = p2p_terms(params, costs::Level::network, false);
    int power = 1;
    while (2 * power <= nodes) power *= 2;
    const double excess = power == nodes ? 0 : net.fold_ns(bytes) + net.copy_ns(bytes);
    if (pattern == "binomial")
        return flat_tree_reduce_ns(FlatTreeShape::binomial, nodes, 1, net, bytes, 0) +
               flat_tree_bcast_ns(FlatTreeShape::binomial, nodes, 1, net, bytes, 0);
    if (pattern == "ring") {
        const double piece = bytes / nodes;
        return (nodes - 1) * (net.fold_ns(piece) + net.copy_ns(piece));
    }
    double time = excess;
    if (pattern == "recursive-doubling") {
        for (int step = 1; step < power; step *= 2) time += net.fold_ns(bytes);
        return time;
    }
    // rabenseifner: halvings with folds, then doublings with copies.
    double piece = bytes;
    for (int step = 1; step < power; step *= 2) {
        piece /= 2;
        time += net.fold_ns(piece) + net.copy_ns(piece);
    }
    return time;
}

double internode_term_ns(const sched::CollectiveSpec& spec, const std::string& algorithm, const NodeShape& shape,
                         const costs::Params& params) {
    if (shape.nodes <= 1) return 0;
    const sched::OptionReader options(spec, algorithm);
    const std::string pattern =
        options.choice("internode", {"recursive-doubling", "binomial", "ring", "rabenseifner"});
    return internode_allreduce_ns(pattern, shape.nodes, params, static_cast<double>(spec.bytes));
}

}  // namespace numacoll::models
