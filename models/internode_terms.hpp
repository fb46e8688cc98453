// The internode allreduce among node leaders that HPDC'13's tree and tiled
// allreduces add on several nodes (section 2.5: reduce inside each node,
// allreduce among the node roots, broadcast inside each node), in the
// classic closed forms of Thakur, Rabenseifner, Gropp (2005), with the
// network hand-over terms of models/p2p_terms.hpp (a message of m bytes,
// then a fold of what landed). k node roots, k' = 2^floor(log2 k):
//   recursive-doubling: log2 k' (message m + fold m), plus, when k != k',
//                       one fold of the excess roots first and one copy back last;
//   binomial:           the flat binomial reduce, then the binomial bcast;
//   ring:               (k - 1) (message + fold of m / k) + (k - 1) messages of m / k;
//   rabenseifner:       sum over the log2 k' halvings of (message + fold of m / 2^j),
//                       then the same doublings as messages, plus the excess fold and copy.
#pragma once

#include <string>

#include "models/p2p_terms.hpp"

namespace numacoll::models {

// `pattern`: the internode option (recursive-doubling, binomial, ring,
// rabenseifner); UsageError for another. 0 for one node.
double internode_allreduce_ns(const std::string& pattern, int nodes, const costs::Params& params, double bytes);

// Reads the spec's internode option and adds nothing on one node.
double internode_term_ns(const sched::CollectiveSpec& spec, const std::string& algorithm, const NodeShape& shape,
                         const costs::Params& params);

}  // namespace numacoll::models
