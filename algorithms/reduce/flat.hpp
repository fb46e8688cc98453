// reduce from the flat algorithms of flat_trees.hpp:
// - flat (`linear`, `chain`, `pipeline`, `binary`, `binomial`,
//   `in-order-binary`): one algorithm over every rank in root-relative
//   order, as Open MPI's coll/tuned runs it;
// - hierarchical (`hier-<flat>`): the flat algorithm run bottom-up on each
//   level's roots group (hierarchical communicators, section 6): caches
//   first, then packages, then the network.
// Inner ranks fold into temp buffers; only the root has an output.
#pragma once

#include <vector>

#include "algorithms/registry.hpp"

namespace numacoll::algo {

std::vector<AlgorithmInfo> reduce_flat_infos();

}  // namespace numacoll::algo
