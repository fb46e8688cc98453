// The symbols HPDC'13 (Li, Hoefler, Snir) writes its models with (section
// 2.1), read from a parameter set, and the broadcast phase that its tree and
// tiled allreduces share (equation 4).
//   alpha = inside a socket (the same_socket level), beta = between sockets
//   (other_socket); a latency in ns, b = 1 / per-stream bandwidth and
//   B = 1 / aggregate bandwidth, in ns per byte.
#pragma once

#include "costs/params.hpp"

namespace numacoll::models {

struct Hpdc13Terms {
    double a_alpha, b_alpha, big_b_alpha;
    double a_beta, b_beta, big_b_beta;
};

Hpdc13Terms hpdc13_terms(const costs::Params& params);

// ceil(log_n x) for x >= 1, in integers (no floating-point edge cases).
int ceil_log(int n, int x);

// Equations (1) to (3): an n-ary reduction tree inside the sockets, where
// step k runs d_k = ceil(q / n^(k+1)) reductions at once (fewer at each
// level, as the paper says; its Westmere unfolding, section 3.4, has 3, 2, 1),
//   T_intra = (n - 1) sum_k max(a_a + b_a m, a_a + B_a d_k m),
// then across sockets T_inter = (n - 1) (a_b + b_b m) ceil(log_n s).
double hpdc13_reduction_ns(const Hpdc13Terms& terms, int q, int s, int n, double m);

// Equation (4) for the style the algorithm is told to use: one stage
// a_b + B_b q m, or two stages a_a + B_a (q - 1) m + a_b + b_b m; on one
// socket a_a + B_a (q - 1) m (0 for one thread).
double hpdc13_broadcast_ns(const Hpdc13Terms& terms, int q, int s, bool two_stage, double m);

}  // namespace numacoll::models
