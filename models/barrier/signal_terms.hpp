// The closed forms of Open MPI's barriers (algorithms/barrier/linear.cpp,
// double_ring.cpp, recursive_doubling.cpp, binomial.cpp) on p ranks joined
// at one level: S(d, k) is one signal among d at once, k of them into the
// same reader (a flag, a + 64 max(b k, B d) plus the process overheads,
// inside a node; a message without data, o_s + L + o_r, between nodes;
// models/p2p_terms.hpp). p' = 2^floor(log2 p), e = p - p':
//   linear:             S(p - 1, p - 1) + S(p - 1, 1) + (p - 2) o_s
//                       (every rank into rank 0 at once; rank 0's releases one after the other);
//   double-ring:        2 p S(1, 1);
//   recursive-doubling: [e > 0: 2 S(e, 1)] + log2 p' S(p', 1);
//   binomial:           2 h S(1, 1), h the tree's height (the most set bits of a rank below p);
//   two-proc:           S(2, 1), on two ranks.
// Exact inside one socket without contention where no two signals reach a
// rank at once (p a power of two for binomial); between nodes every signal
// is taken as a message.
#pragma once

#include "models/model.hpp"
#include "models/p2p_terms.hpp"

namespace numacoll::models {

// One signal of `concurrent` at once, `into_one_reader` of them into one rank.
double barrier_signal_ns(const P2pTerms& terms, int concurrent = 1, int into_one_reader = 1);

}  // namespace numacoll::models
