// reduce "tree": the reduction phase of HPDC'13's reduce-broadcast (section
// 2.2) on its own. Inside each node an n-ary tree over the hierarchy brings
// the data to the node's leader (the rank with the root's local rank), the
// leaders then reduce to the root over the network in a binomial tree. Only
// the root has an output, so every other parent folds into a temp buffer of
// its own.
#pragma once

#include "algorithms/registry.hpp"

namespace numacoll::algo {

AlgorithmInfo reduce_tree_info();

}  // namespace numacoll::algo
