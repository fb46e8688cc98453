// Closed forms of the flat allreduces (algorithms/patterns/flat_allreduce.hpp)
// over p ranks joined at one level, with the hand-over terms of
// models/p2p_terms.hpp: a hand-over is the sender's signal (a flag inside a
// node, nothing of its own between nodes) then the receiver's fold (R) or
// copy (C) of what it reads. Every rank of a round hands over at once, so
// a round of d hand-overs of m bytes costs F(d) + R(m, d) or F(d) + C(m, d).
// p' = 2^floor(log2 p), e = p - p' excess ranks, m the vector:
//   ring:               (p - 1) (F + R(m/p)) + (p - 1) (F + C(m/p));
//   recursive doubling: [e > 0: F + R(m)] + log2 p' (F + R(m)) + [e > 0: F + C(m)];
//   rabenseifner:       the same excess terms, then halvings F + R(m / 2^j),
//                       j = 1..log2 p', then doublings F + C(m 2^(j-1) / p');
//   segmented ring:     S chunks of p segments one after the other, the
//                       input's ready flag raised once for all of them.
// The reduce-scatters of p blocks of m bytes (models/reduce_scatter/), each
// ending with a rank's copy of its block into its output, local(m):
//   ring:               (p - 1) (F + R(m));
//   recursive halving:  [e > 0: F + R(p m)] + per round F + R(the largest
//                       run of blocks a rank hands over) + [e > 0: F + C(m)];
//   butterfly:          the same excess fold and folds of the largest run
//                       (distance doubling), then one hand-over of m for
//                       each block not at its rank, d = their number, at once.
// As in Open MPI, ring and segmented ring on fewer elements than ranks are
// recursive doubling, and Rabenseifner on fewer than p' the linear allreduce
// (models/allreduce/rabenseifner.cpp).
// Sources: Thakur, Rabenseifner, Gropp (2005), section 4.4; Rabenseifner
// (2004). Exact inside one socket with equal pieces; between nodes every
// hand-over is taken as a message, so a layout of several nodes is priced
// as if every rank had its own.
#pragma once

#include <string>

#include "models/p2p_terms.hpp"

namespace numacoll::models {

// Fewer elements than ranks: recursive doubling, as Open MPI's ring runs then.
double ring_allreduce_ns(int p, const P2pTerms& terms, double bytes, double element_bytes);
double recursive_doubling_allreduce_ns(int p, const P2pTerms& terms, double bytes);
double rabenseifner_allreduce_ns(int p, const P2pTerms& terms, double bytes);
// `segment_bytes`: the largest message (0: one chunk).
double segmented_ring_allreduce_ns(int p, const P2pTerms& terms, double bytes, double segment_bytes,
                                   double element_bytes);

// A flat reduce to rank 0 by `reduce`'s tree, then a flat broadcast by
// `bcast`'s (models/flat_models.hpp): the linear and non-overlapping allreduces.
double reduce_then_bcast_allreduce_ns(const std::string& reduce, const std::string& bcast, int p, const P2pTerms& terms,
                                      double bytes);

double ring_reduce_scatter_ns(int p, const P2pTerms& terms, double block_bytes);
double recursive_halving_reduce_scatter_ns(int p, const P2pTerms& terms, double block_bytes);
double butterfly_reduce_scatter_ns(int p, const P2pTerms& terms, double block_bytes);

// 2^floor(log2 p), p >= 1.
int largest_power_of_two(int p);

}  // namespace numacoll::models
