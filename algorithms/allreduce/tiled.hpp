// allreduce "tiled", "tiled-naive" and "tiled-cyclic": tiled reduce, then
// broadcast (HPDC'13 sections 2.4 and 3.2).
//
// tiled (hierarchical): inside each domain the chunk is cut into q tiles at
// cache-line granularity (no false sharing between writers), and thread t
// reduces tile t of every input of its domain into its own output. Across
// domains a binary tree of tiles follows in ceil(log2 s) rounds: the owner
// of a tile in the parent domain folds in the child domain's bytes of it.
// Domain 0's owners then hold the result, which every thread copies tile by
// tile (1-stage) or through one master per domain (2-stage).
// tiled-naive: one tile per thread of the node, ignoring domains (every
// thread reads every input, across domains).
// tiled-cyclic: the same, each thread starting with its own input and going
// round the others (Mamidala et al.), to spread the readers over sources.
// Across nodes (section 2.5): each node gathers its tiles on its leader, the
// leaders run a recursive-doubling allreduce, and each node broadcasts.
// An empty vector runs the tree's flags (a barrier).
#pragma once

#include "algorithms/registry.hpp"

namespace numacoll::algo {

AlgorithmInfo allreduce_tiled_info();
AlgorithmInfo allreduce_tiled_naive_info();
AlgorithmInfo allreduce_tiled_cyclic_info();

}  // namespace numacoll::algo
