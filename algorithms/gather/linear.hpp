// gather "linear": every rank sends its block straight to the root, in
// root-relative order (Open MPI coll/tuned's basic linear gather). Few
// ranks, or blocks large enough that a tree's extra copies cost more than
// the root's serialised receives.
#pragma once

#include "algorithms/registry.hpp"

namespace numacoll::algo {

AlgorithmInfo gather_linear_info();

}  // namespace numacoll::algo
