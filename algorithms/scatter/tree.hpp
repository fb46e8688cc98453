// scatter "tree" (HPDC'13's hierarchy applied to a one-to-all personalised
// collective): the root sends each node's blocks, in one message, to that
// node's master (the rank with the root's local rank); inside each node
// either every rank reads its block from the master (1stage) or one master
// per domain first copies its domain's blocks, and the domain's ranks read
// theirs from it (2stage: each block crosses the inter-domain link once,
// and ranks do not all hit the master's domain at once).
#pragma once

#include "algorithms/registry.hpp"

namespace numacoll::algo {

AlgorithmInfo scatter_tree_info();

}  // namespace numacoll::algo
