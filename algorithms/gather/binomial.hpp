// gather "binomial": a binomial tree in root-relative order. An inner rank
// collects its subtree's blocks, contiguous in that order, in a temp buffer
// (its own block first) and passes them up in one piece; the root's output
// is in absolute order, so a subtree that wraps around rank 0 arrives in
// two pieces (Open MPI's and MPICH's binomial gather). Small blocks, many ranks.
#pragma once

#include "algorithms/registry.hpp"

namespace numacoll::algo {

AlgorithmInfo gather_binomial_info();

}  // namespace numacoll::algo
