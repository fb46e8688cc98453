// allgather "recursive-doubling": log2 p steps; in step k rank r exchanges
// with r xor 2^k the run of blocks of its aligned group, doubling what each
// holds. A p that is not a power of two folds the excess ranks into their
// partners first (rank p' + i into rank i, which carries its block from then
// on) and sends them the whole result at the end (MPICH's recursive-doubling
// allgather; Thakur, Rabenseifner, Gropp). Small blocks.
#pragma once

#include "algorithms/registry.hpp"

namespace numacoll::algo {

AlgorithmInfo allgather_recursive_doubling_info();

}  // namespace numacoll::algo
