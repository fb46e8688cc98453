// allreduce "dissemination" (HPDC'13 section 2.3, Figures 5 and 6): every
// thread ends with the full result after ceil(log2 p) combining rounds, with
// no separate broadcast.
//
// Laid out over the node: the first log2 q' rounds combine threads of one
// domain (thread l takes the partial of lane (l - 2^i) mod q'), the last
// log2 s' rounds combine the same lane of other domains, so inter-domain
// traffic falls only in the last rounds. q' and s' are the largest powers of
// two not above the smallest domain's thread count and the domain count;
// the other threads are "excess": each first hands its input to a host (a
// thread of the same domain when it has one) and copies the host's result
// at the end (Figure 6's non-power-of-two scheme).
// Across nodes (section 2.5): after the node rounds, one thread per node
// sends its partial to another node (log2 N' rounds, excess nodes folded in
// first and served last), and every active thread of the receiving node
// combines it.
// Partners (option pairing): the paper's thread j takes thread (j - 2^i)
// mod p's partial, so each rank sums the same terms grouped its own way, and
// where the operation rounds (floating sums and products) the ranks' results
// differ in their last bits, which an MPI allreduce must not do. By default
// thread j takes thread (j XOR 2^i)'s instead: a butterfly, in which
// partners swap partials and fold the same pair (the operations are
// commutative), so every rank holds the same bits. Each round still reads
// one partial per thread, from the same domain or the same lane of another,
// so the rounds, the traffic and equations (6) and (7) are unchanged.
// Each round writes a new temp buffer per thread (a round's readers may
// still read the previous one), so a thread holds log2 p vectors.
#pragma once

#include "algorithms/registry.hpp"

namespace numacoll::algo {

AlgorithmInfo allreduce_dissemination_info();

}  // namespace numacoll::algo
