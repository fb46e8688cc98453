// Closed forms of the allgathers, blocks of m bytes, with the hand-over
// terms of models/p2p_terms.hpp (F a signal, C(x, d) a copy of x bytes, d
// at once, at the level joining the ranks; the network on several nodes).
// Every rank first copies its own block into its output, 2 local(m)
// (two-proc last).
// - ring (Thakur, Rabenseifner, Gropp 2005: (p - 1)(a + m b)): p - 1 steps
//   in which every rank passes the block it got last to its successor,
//   each step's signals before its copies (a send-receive posts both), p
//   hand-overs at once:
//     local(m) + (p - 1)(F(p) + C(m, p)).
// - recursive-doubling (Thakur et al.: log2 p a + (p - 1) m b): with
//   p' = 2^floor(log2 p), the excess ranks hand their block to a partner
//   first (F + C(m)) and get all p blocks back last (F + C(p m)); in between
//   log2 p' exchanges of 2^j blocks (plus the excess partners' ones); the
//   second signal of a pair follows its sender's receive (program order):
//     2 local(m) + sum_j 2 (F + C(2^j m (2 when there is an excess))),
//   exact for p = 2, an upper bound beyond (pairs of a step overlap).
// - linear (Open MPI's algorithm 1): the linear gather of blocks of m to
//   rank 0 (models/gather/gather.hpp), then the p - 1 others read its p
//   blocks at once, the linear broadcast of p m (models/flat_models.hpp).
// - bruck (Open MPI's algorithm 2; Bruck et al. 1997): the own block, then
//   per distance d = 1, 2, 4, ... < p a step of F + C(min(d, p - d) m, p),
//   a rank's flag following, after the first step, its flag back of the
//   step before: o_s later, or without send overheads at once, two flags
//   into each reader (F(2p, 2)); then the flag back of the last step's
//   reader, F, and rank 1's rotation through a temp buffer,
//   local(p m) + local((p - 1) m) + local(m). With send overheads the two flags into a
//   reader, o_s apart, still share its stream a while: the model is short
//   by that (0.1-0.2% on 3 and 4 ranks).
// - two-proc (Open MPI's algorithm 6, two ranks): both sides signal at
//   once, then each copies the other's block and its own:
//     F(2) + C(m, 2) + local(m).
// - leader (Goglin, Moreaud, NUIOA-aware collectives, section
//   3.3.3): a linear gather inside each node (models/gather/gather.hpp), the
//   leaders exchange their nodes' blocks (k - 1 messages of (ranks per node) m
//   each, sharing the wire), then every other rank reads all p blocks from
//   its leader, d = ranks per node - 1 at once.
// - neighbor-exchange (Open MPI's algorithm 5; Chen et al. 2005), p even:
//   the own block, a swap of one block, then p/2 - 1 swaps of two, every
//   step's signals before its copies, all p ranks at once:
//     local(m) + F(p) + C(m, p) + (p/2 - 1)(F(p) + C(2m, p));
//   an odd p the ring.
// Inside one socket without contention ring equals the simulator.
#pragma once

#include "models/model.hpp"

namespace numacoll::models {

ModelInfo allgather_linear_model();
ModelInfo allgather_bruck_model();
ModelInfo allgather_ring_model();
ModelInfo allgather_recursive_doubling_model();
ModelInfo allgather_leader_model();
ModelInfo allgather_two_proc_model();
ModelInfo allgather_neighbor_exchange_model();

}  // namespace numacoll::models
