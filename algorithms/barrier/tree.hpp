// barrier "tree" and "dissemination": HPDC'13's allreduce algorithms run on
// no data, so that only their flags remain (section 5: "synchronization
// operations, such as HMPI_Barrier" use the same trees). The tree gathers
// arrivals up the hierarchy and releases down a 1-stage, 2-stage or n-ary
// broadcast; dissemination signals in ceil(log2 p) rounds.
#pragma once

#include "algorithms/registry.hpp"

namespace numacoll::algo {

AlgorithmInfo barrier_tree_info();
AlgorithmInfo barrier_dissemination_info();

}  // namespace numacoll::algo
