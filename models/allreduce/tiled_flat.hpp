// Closed forms of allreduce "tiled-naive" and "tiled-cyclic", the
// baselines HPDC'13 measures (section 3.2): the tiled reduce-broadcast of
// equations (8) to (11) with one tiling group of all p = s q threads (s = 1
// in equation 8), so no tree of tiles crosses sockets, but every thread's
// tile gathers from every socket. The reduction then costs
//   a p + max(B_a q m, B_b (s - 1) q^2 m / p):
// a latency per tile read, and whichever shared resource saturates first:
// a socket's cache (its q threads read q m bytes in all) or the link
// between two sockets (q threads each read m/p bytes of each of the other
// socket's q threads). The broadcast is equation (4) as the bcast option
// says. Naive and cyclic differ only in the order threads read the tiles
// (cyclic spreads the readers of one tile over time), which a model of
// aggregate bandwidths does not see: both get this form. On one socket it
// is equation (8) with q = p. On several nodes the internode allreduce of
// section 2.5 is added (models/internode_terms.hpp).
#pragma once

#include <cstdint>

#include "models/model.hpp"

namespace numacoll::models {

double tiled_flat_allreduce_ns(const costs::Params& params, const NodeShape& shape, bool two_stage, std::uint64_t bytes);

ModelInfo allreduce_tiled_naive_model();
ModelInfo allreduce_tiled_cyclic_model();

}  // namespace numacoll::models
