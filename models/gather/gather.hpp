// Closed forms of the gathers, blocks of m bytes, with the hand-over terms
// of models/p2p_terms.hpp (F a signal, C(x) a copy of x bytes, at the level
// joining the ranks; the network on several nodes):
// - linear (Open MPI basic linear; Thakur, Rabenseifner, Gropp 2005,
//   (p - 1)(a + m b)): every rank's signal is up at once, the root copies its
//   own block, then the p - 1 others one after the other:
//     max(2 local(m), F(d = p - 1)) + (p - 1) C(m).
// - binomial (Open MPI's, MPICH's; Thakur et al. log2 p a + (p - 1) m b):
//   each rank copies its own block into a collection buffer, then its
//   children's whole subtrees, the largest first, each once signalled;
//   evaluated on the binomial tree (models/flat_terms.hpp), the root's own
//   block last. For p = 2^k: the root's last subtree of 2^(k-1) blocks
//   dominates.
// - leader (Goglin, Moreaud, NUIOA-aware collectives, sections 3.2
//   and 3.3.2): a linear gather inside each node, then each other node's
//   leader sends its node's blocks in one message; the k - 1 messages share
//   the root's wire.
// Inside one socket without contention linear and binomial equal the
// simulator.
#pragma once

#include "models/model.hpp"
#include "models/p2p_terms.hpp"

namespace numacoll::models {

ModelInfo gather_linear_model();
ModelInfo gather_binomial_model();
ModelInfo gather_leader_model();
ModelInfo gather_linear_sync_model();

// A linear gather of p blocks of m bytes with these terms.
double linear_gather_ns(int p, const P2pTerms& terms, double bytes);

}  // namespace numacoll::models
