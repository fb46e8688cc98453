// Closed forms of the alltoalls (algorithms/alltoall/) over p ranks joined
// at one level, blocks of m bytes, with the hand-over terms of
// models/p2p_terms.hpp (F the signal, C a copy, local a rank's own copy).
// Every rank hands over at once, so p transfers share the level:
//   pairwise:       (p - 1) (F(p) + C(m, p)) + local(m);
//   linear:         local(m), then every rank raises its p - 1 flags and
//                   pulls its p - 1 blocks one after the other, p at once:
//                   the i-th pull starts once the one before has ended and
//                   the i-th flag has arrived; without send overheads the
//                   flags arrive together, p - 1 into each reader
//                   (F(p (p - 1), p - 1)), with them o_s apart (F(p) for
//                   the first, taken alone: 0.4-0.6% short on 3 and 4
//                   ranks, where it shares the reader's stream with the
//                   next);
//   linear-sync:    the same pulls, the (i + K)-th flag raised once the
//                   i-th block was taken (its receiver's flag back, then
//                   the flag: 2 F(p)), a recurrence over the pulls;
//   modified Bruck: the rotation, local((p - 1) m) + local(m); per step d,
//                   F(p) + the pulls of its runs (C(d m, p) each) + the flag
//                   back F(p) + the copies back (local(d m) each); the p
//                   copies of the rotation back, p local(m).
// Between nodes each hand-over is one message (C is the message), and
// Bruck's packing and unpacking are local copies of the step's blocks.
// Sources: Thakur, Rabenseifner, Gropp (2005), section 4.5; Bruck et al.
// (1997). Exact inside one socket.
#pragma once

#include "models/p2p_terms.hpp"

namespace numacoll::models {

double pairwise_alltoall_ns(int p, const P2pTerms& terms, double block_bytes);
// `window`: the sends outstanding at once, K (p - 1 or more: the linear exchange).
double linear_alltoall_ns(int p, const P2pTerms& terms, double block_bytes, int window);
double modified_bruck_alltoall_ns(int p, const P2pTerms& terms, double block_bytes);

}  // namespace numacoll::models
