// Closed forms of the flat Open MPI algorithms (linear, chain, pipeline,
// binary, binomial trees; split-binary broadcast; in-order binary
// reduction), evaluated on the tree each one builds over p ranks (shapes as
// Open MPI's coll/tuned builds them: Pjesivac-Grbovic et al. 2007; measured
// flat and hierarchical in Goglin et al., section 6), with the hand-over
// terms of models/p2p_terms.hpp.
//
// Broadcast, S segments of m/S bytes, a rank at depth k of the tree: with F
// the signal and C the copy of one segment, segment c reaches it at
//   t(k, c) = max(t(k, c - 1), t(k - 1, c) + F) + C,
// so the last rank has the vector at  k F + (k + S - 1) C : linear k = 1,
// chain of fanout f k = ceil((p - 1) / f), pipeline k = p - 1, binary
// k = floor(log2 p), binomial k = floor(log2 p) (the receiver pulls, so a
// parent's children read at once: the depth, not the child count, sets the
// steps; its d children share the bandwidth, a + m max(b, B d)).
// A root's untouched input is announced once for all segments.
//
// Reduction: a parent folds its children one after the other, the last
// one first (positions descending, as the generator writes them), each
// once its partial is ready and signalled:
//   t(parent, c) = fold over its children of  max(t, t(child, c) + F) + R,
// starting from t(parent, c - 1); a leaf's input is ready at once. Closed:
// linear F + (p - 1) R; chain f L F... and for p = 2^k binomial
// k F + k (k + 1) / 2 R (each parent folds its largest subtree first).
//
// Contention: with one segment, the d transfers of one tree level run at
// once and share the level (exact in the simulator for trees whose levels
// finish together); with several segments every receiver is taken as
// active (d = p - 1), an upper bound on the steady state. Serial
// overheads: a sender's j-th signal of a fan-out waits (j - 1) o_s more.
// Inside one level of one node without contention the closed form equals
// the simulator; caches that overflow to DRAM are left out.
#pragma once

#include <vector>

#include "models/p2p_terms.hpp"

namespace numacoll::models {

enum class FlatTreeShape { linear, chain, binary, binomial, knomial };

// The children of position `pos` of a tree over p positions, in sending order.
std::vector<int> flat_tree_children(FlatTreeShape shape, int p, int fanout, int pos);

double flat_tree_bcast_ns(FlatTreeShape shape, int p, int fanout, const P2pTerms& terms, double bytes,
                          double segment_bytes);
double flat_tree_reduce_ns(FlatTreeShape shape, int p, int fanout, const P2pTerms& terms, double bytes,
                           double segment_bytes);

// Split-binary: each half down one subtree of the root's binary tree, then
// the sides swap halves pairwise (the right side first: its giver's signal
// waits for its own swap), a rank without partner from the root.
double split_binary_bcast_ns(int p, const P2pTerms& terms, double bytes, double segment_bytes);

// In-order binary: a binary tree over ranks in order, each folding left,
// itself, right; the top's result is then copied to the root.
double in_order_binary_reduce_ns(int p, const P2pTerms& terms, double bytes, double segment_bytes);

}  // namespace numacoll::models
