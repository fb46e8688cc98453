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

// What equations (1)-(11) leave out, and section 3.4 accounts for when it
// checks them on Westmere: each step's local accesses (a reduction step
// reads the own partial and writes the result, the 2 Rl of its unfolding;
// a broadcast copy writes once, Rl), the arithmetic of a fold, and the
// synchronisation it subtracts by timing a zero-byte run (one flag per step
// of the critical path: a + 64 B b at the step's level, plus the flag
// overhead where the params give one). Local accesses of 0 bytes cost nothing.
// With core.private_cache_bytes, a step whose operands and result exceed it
// makes those local accesses at same_socket's a + m b (the LLC), as the
// simulator does (sim/task_plan.hpp).
struct Hpdc13StepCosts {
    double a_local = 0, b_local = 0;
    double reduce_ns_per_byte = 0;
    double flag_alpha_ns = 0, flag_beta_ns = 0;
    double private_cache_bytes = 0;  // 0: nothing spills
    double a_spill = 0, b_spill = 0;
    // One access to m own bytes in a step that touches `working_set` bytes.
    double local_ns(double m, double working_set) const {
        if (m <= 0) return 0;
        return costs::spills_private_cache(private_cache_bytes, working_set) ? a_spill + b_spill * m
                                                                             : a_local + b_local * m;
    }
    // One step of a reduction: its flag, the own partial read and the result
    // written, and `folded` bytes of arithmetic (read from the others).
    double fold_step_ns(double flag_ns, double m, double folded) const {
        return flag_ns + 2 * local_ns(m, 2 * m + folded) + folded * reduce_ns_per_byte;
    }
    // A broadcast copy's write of m bytes (m read, m written).
    double copy_write_ns(double m) const { return local_ns(m, 2 * m); }
};

Hpdc13StepCosts hpdc13_step_costs(const costs::Params& params);

// The steps of equations (1)-(3): ceil(log_n q) inside the sockets, ceil(log_n s) across.
double hpdc13_reduction_steps_ns(const Hpdc13StepCosts& costs, int q, int s, int n, double m);

// The stages of equation (4): a flag and the readers' local write per stage.
double hpdc13_broadcast_steps_ns(const Hpdc13StepCosts& costs, int q, int s, bool two_stage, double m);

// Equation (4) for the style the algorithm is told to use: one stage
// a_b + B_b q m, or two stages a_a + B_a (q - 1) m + a_b + b_b m; on one
// socket a_a + B_a (q - 1) m (0 for one thread).
double hpdc13_broadcast_ns(const Hpdc13Terms& terms, int q, int s, bool two_stage, double m);

}  // namespace numacoll::models
