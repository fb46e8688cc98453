// Closed forms of the allgathers, blocks of m bytes, with the hand-over
// terms of models/p2p_terms.hpp (F a signal, C(x, d) a copy of x bytes, d
// at once, at the level joining the ranks; the network on several nodes).
// Every rank first copies its own block into its output: 2 local(m).
// - ring (Thakur, Rabenseifner, Gropp 2005: (p - 1)(a + m b)): p - 1 steps
//   in which every rank passes the block it got last to its successor. A
//   rank's signal follows its program order, which in the generated step
//   already holds its receive of that step: the hand-overs of one step chain
//   around the ring, so the classic (p - 1) steps become
//     2 local(m) + p (p - 1)(F + C(m)).
// - recursive-doubling (Thakur et al.: log2 p a + (p - 1) m b): with
//   p' = 2^floor(log2 p), the excess ranks hand their block to a partner
//   first (F + C(m)) and get all p blocks back last (F + C(p m)); in between
//   log2 p' exchanges of 2^j blocks (plus the excess partners' ones); the
//   second signal of a pair follows its sender's receive (program order):
//     2 local(m) + sum_j 2 (F + C(2^j m (2 when there is an excess))),
//   exact for p = 2, an upper bound beyond (pairs of a step overlap).
// - leader (Goglin, Moreaud, NUIOA-aware collectives, section
//   3.3.3): a linear gather inside each node (models/gather/gather.hpp), the
//   leaders exchange their nodes' blocks (k - 1 messages of (ranks per node) m
//   each, sharing the wire), then every other rank reads all p blocks from
//   its leader, d = ranks per node - 1 at once.
// Inside one socket without contention ring equals the simulator.
#pragma once

#include "models/model.hpp"

namespace numacoll::models {

ModelInfo allgather_ring_model();
ModelInfo allgather_recursive_doubling_model();
ModelInfo allgather_leader_model();

}  // namespace numacoll::models
