// overlap::osu_overlap_percent: how much of a nonblocking collective hides
// behind computation, as the OSU micro-benchmarks' nonblocking collective
// tests report it (osu_iallreduce, osu_ibcast...: calculate_and_print_stats
// in their util/osu_util.c): with
//   pure    = the collective alone, issued and waited for,
//   compute = the computation alone,
//   overall = issue, compute, wait,
// overlap = max(0, 100 - 100 x (overall - compute) / pure). 100% when the
// collective adds nothing to the computation; 0% when it adds all of its own
// time (or more). OSU sizes the computation to the pure time by default
// (compute "auto" here).
#pragma once

namespace numacoll::overlap {

// Error (an invariant) when `pure_ns` is not above 0 or a time is negative.
double osu_overlap_percent(double pure_ns, double compute_ns, double overall_ns);

}  // namespace numacoll::overlap
