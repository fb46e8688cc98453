// allreduce "tree": the reduce-broadcast of Li, Hoefler, Snir (HPDC'13, section 2.2).
//
// 1. Reduce: an n-ary tree mapped onto the node's hwloc hierarchy, level by
//    level from the innermost shared cache up to the packages, so that
//    inter-package traffic happens only at the top. In each round a parent
//    reads its own partial and those of its n-1 children and writes its output.
// 2. Across nodes: the node roots run an allreduce over the network (net
//    tasks): recursive doubling, ring, Rabenseifner or binomial (internode=).
// 3. Broadcast inside each node: 1-stage (every thread reads the node root's
//    vector), 2-stage (one master per top-level group reads it first, then
//    the others read the master's copy) or n-ary (the reduction tree run
//    backwards). The phases live in patterns/node_trees.hpp.
// Strip mining (patterns/strips.hpp): the vector is cut into chunks that stay
// in a core's cache, each running the whole pattern (they pipeline).
#pragma once

#include "algorithms/patterns/internode_allreduce.hpp"
#include "algorithms/patterns/node_trees.hpp"
#include "algorithms/registry.hpp"

namespace numacoll::algo {

// The schedule itself; for spec.collective == barrier (no data) it owns no buffers.
Schedule tree_allreduce_schedule(const CollectiveSpec& spec, const Layout& layout, int arity, BroadcastStyle style,
                                 std::uint64_t strip,
                                 InternodeAlgorithm internode = InternodeAlgorithm::recursive_doubling);

AlgorithmInfo allreduce_tree_info();

}  // namespace numacoll::algo
