// The closed-form cost of allreduce "tree" from HPDC'13 (Li, Hoefler, Snir),
// equations (1), (2), (4) and (5), with a node's parameters.
//
// Symbols (section 2.1): q threads per socket, s sockets, n the tree's arity,
// m the vector in bytes; alpha = inside a socket (same_socket level), beta =
// between sockets (other_socket level); a latency, b = 1 / per-stream
// bandwidth, B = 1 / aggregate bandwidth.
//   T_intra = (n - 1) * sum over the h = ceil(log_n q) steps k of
//             max(a_a + b_a m, a_a + B_a d_k m), with d_k = ceil(q / n^(k+1))
//             reductions at once in step k (fewer at each level, as the paper
//             says; its Westmere unfolding, section 3.4, has 3, 2, 1);
//   T_inter = (n - 1) (a_b + b_b m) ceil(log_n s);
//   T_bcast = a_b + B_b q m (one stage) or a_a + B_a (q - 1) m + a_b + b_b m
//             (two stages); on one socket, a_a + B_a (q - 1) m (0 for one thread);
//   T = T_intra + T_inter + T_bcast.
// Options: arity (n) and bcast (2stage: two stages; 1stage and nary: one).
// The equations leave out strip mining, the reduction arithmetic, the local
// accesses and the flags; the registered model adds the last three per step
// as section 3.4 accounts for them (tree_allreduce_steps_ns,
// models/hpdc13_terms.hpp), and, on several nodes, the internode allreduce
// among node roots of section 2.5 (models/internode_terms.hpp, option internode).
#pragma once

#include <cstdint>

#include "models/model.hpp"

namespace numacoll::models {

double tree_allreduce_ns(const costs::Params& params, const NodeShape& shape, int arity, bool two_stage,
                         std::uint64_t bytes);

// The flags, local accesses and arithmetic of those steps (Hpdc13StepCosts).
double tree_allreduce_steps_ns(const costs::Params& params, const NodeShape& shape, int arity, bool two_stage,
                               std::uint64_t bytes);

ModelInfo allreduce_tree_model();

}  // namespace numacoll::models
