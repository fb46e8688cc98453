// barrier "tree": HPDC'13's allreduce tree run on no data, so that only its
// flags remain (section 5: "synchronization operations, such as
// HMPI_Barrier" use the same trees). Arrivals go up the hierarchy's n-ary
// tree and the release comes down a 1-stage, 2-stage or n-ary broadcast.
#pragma once

#include "algorithms/registry.hpp"

namespace numacoll::algo {

AlgorithmInfo barrier_tree_info();

}  // namespace numacoll::algo
