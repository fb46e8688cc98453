// The closed-form cost of allreduce "tiled" (hierarchical tiled
// reduce-broadcast) from HPDC'13, section 2.4, equations (8) to (11), with
// the symbols of models/hpdc13_terms.hpp:
//   T_intra = (a_a + B_a q (m / q)) q = a_a q + B_a q m            (8)
//   T_inter = (a_b + B_b m) ceil(log2 s)                            (9)
//   T = T_intra + T_inter + T_bcast                                 (10), (11)
// where the q threads of a socket reduce their tiles at once (the aggregate
// bandwidth 1/B_a), the tiles cross sockets in a binary tree, and T_bcast is
// equation (4) for the broadcast the algorithm is told to use (the paper's
// equation 11 takes the cheaper of the two). Options: bcast (2stage: two
// stages; 1stage: one). Like the paper, it leaves out strip mining, the
// reduction arithmetic and the flags, and adds, on several nodes, the internode allreduce among node
// roots of section 2.5 (models/internode_terms.hpp, option internode).
#pragma once

#include <cstdint>

#include "models/model.hpp"

namespace numacoll::models {

double tiled_allreduce_ns(const costs::Params& params, const NodeShape& shape, bool two_stage, std::uint64_t bytes);

ModelInfo allreduce_tiled_model();

}  // namespace numacoll::models
