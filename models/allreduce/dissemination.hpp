// The closed-form cost of allreduce "dissemination" from HPDC'13, section
// 2.3, equations (6) and (7), with the symbols of models/hpdc13_terms.hpp.
// All threads combine at once in every step (aggregate bandwidths), sockets
// last:
//   p a power of two:  (a_a + B_a q m) ceil(log2 q) + (a_b + B_b q m) ceil(log2 s)     (6)
//   otherwise, with q' = 2^floor(log2 q) and r = q - q' excess threads per socket:
//     (a_a + B_a q' m) ceil(log2 q') + (a_b + B_b q' m) ceil(log2 s) + 2 (a_a + B_a r m)  (7)
// (the excess threads fold into a host first and copy the result last).
// On k nodes (section 2.5) the rounds go on among nodes: ceil(log2 k')
// rounds of a network message and fold (models/p2p_terms.hpp), the s q'
// lanes of a node sharing its wire, plus one fold and one copy for the
// excess nodes when k is no power of two.
// Like the paper, it leaves out strip mining, the reduction arithmetic and
// the flags inside a node.
#pragma once

#include <cstdint>

#include "models/model.hpp"

namespace numacoll::models {

double dissemination_allreduce_ns(const costs::Params& params, const NodeShape& shape, std::uint64_t bytes);

ModelInfo allreduce_dissemination_model();

}  // namespace numacoll::models
