// allgather "ring": p-1 steps; in step s rank r passes block r-s to rank
// r+1. Bandwidth-optimal: each block crosses each link once, and ranks of
// one node are neighbours, so the ring leaves a node once per step
// (MPICH/Open MPI ring allgather, as compared in the NUIOA paper, section 3.3.3).
#pragma once

#include "algorithms/registry.hpp"

namespace numacoll::algo {

AlgorithmInfo allgather_ring_info();

}  // namespace numacoll::algo
