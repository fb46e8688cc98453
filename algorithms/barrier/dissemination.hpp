// barrier "dissemination" (HPDC'13 sections 2.3 and 5; Hensgen, Finkel and
// Manber's dissemination barrier): in round i every rank j signals rank
// (j + 2^i) mod p, so that after ceil(log2 p) rounds every rank has heard,
// directly or not, from every other. No data, no buffers, any rank count;
// a signal between nodes is a message without payload.
#pragma once

#include "algorithms/registry.hpp"

namespace numacoll::algo {

AlgorithmInfo barrier_dissemination_info();

}  // namespace numacoll::algo
