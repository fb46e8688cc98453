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
// The paper's model leaves out strip mining, the reduction arithmetic and the
// flags; it is a guide to compare with, not a prediction of every effect.
#pragma once

#include <cstdint>

#include "costs/params.hpp"

namespace numacoll::validate {

struct TreeShape {
    int threads_per_socket = 1;  // q (the largest socket's)
    int sockets = 1;             // s
    int arity = 2;               // n
    bool two_stage = false;
};

double tree_allreduce_model_ns(const costs::Params& params, const TreeShape& shape, std::uint64_t bytes);

}  // namespace numacoll::validate
