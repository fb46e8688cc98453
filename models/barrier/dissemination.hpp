// The closed form of barrier "dissemination": HPDC'13, section 2.3,
// equation (6) at m = 0 (Hensgen et al.'s dissemination barrier), for the
// rounds the generator runs: ceil(log2 p) rounds over all p ranks, in each
// of which every rank raises one flag to rank + 2^r (mod p) once it has the
// previous round's. Not socket-aware: with s > 1 sockets every round has a
// flag that crosses sockets (the wrap-around), so each round costs the
// slower level:
//   one socket:  ceil(log2 p) (a_a + 64 max(b_a, B_a p))   (p flags share the cache)
//   s sockets:   ceil(log2 p) (a_b + 64 max(b_b, B_b min(2^r, q)))
//   k nodes:     ceil(log2 p) (o_s + L + o_r) (models/p2p_terms.hpp)
// Inside one socket it equals the simulator; across sockets the flags that
// stay inside a socket overlap with the crossing ones.
#pragma once

#include "models/model.hpp"

namespace numacoll::models {

ModelInfo barrier_dissemination_model();

}  // namespace numacoll::models
