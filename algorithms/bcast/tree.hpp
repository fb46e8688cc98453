// bcast "tree": the broadcast phase of HPDC'13's reduce-broadcast (section
// 2.2) on its own. The root's vector goes to one leader per node (the rank
// with the root's local rank) over the network in a binomial tree; inside
// each node the leader's copy is read in one stage, two stages (domain
// masters first) or down an n-ary tree.
#pragma once

#include "algorithms/registry.hpp"

namespace numacoll::algo {

AlgorithmInfo bcast_tree_info();

}  // namespace numacoll::algo
