// calibrate::fit: from microbenchmark timings to the cost model's figures,
// by least squares on the costs the simulator charges (sim/task_plan.hpp),
// so that a calibrated simulation of the microbenchmarks gives back their
// measured times. With a = latency, b = 1 / per-stream bandwidth, B = 1 /
// aggregate bandwidth (HPDC'13 section 2.1), l = local_cache, L = the level
// that joins the two cores, m bytes, line = one cache line:
//   flag at L                 a_L + line·b_L + o_flag       (one line, setter's cache -> waiter, then its spin loop)
//   copy from L               a_L + m·b_L + a_l + m·b_l     (the read, then the write to the own cache)
//   reduce, own + one from L  (a_l + m·b_l) + (a_L + m·b_L) + m / rate + (a_l + m·b_l)
//   d concurrent copies at L  a_L + m·max(b_L, d·B_L) + a_l + m·b_l
//   DRAM line chase           a_d + h·a_o + line·b_d       (per line; memory h inter-socket hops away, a_o = other_socket's a)
//   DRAM copy (m > LLC)       2 (a_d + m·b_d)              (read from and write to DRAM)
//   d concurrent DRAM copies  2 (a_d + m·max(b_d, d·B_d))
//   compute                   flops / flops_per_ns
//   typed reduce (own, own)   3 (a_l + m·b_l) + m / rate_T   (a type's kernel folding two of the
//                             core's own vectors: its rate, from the cache levels fitted on doubles;
//                             kept where it differs from the doubles' by more than 10%)
//   single copy (own memory)  copy's a_l + m·b_l + a_l + m·b_l, + c + pages(m)·g
//                             (process_vm_readv of the caller's own buffer: the
//                             kernel's call c and per-4-KiB-page pinning g,
//                             fitted after the cache levels, held at >= 0)
// With core.private_cache_bytes = P, a copy (working set 2m) or reduce (3m)
// beyond P finds the core's own data in its LLC: every l above is s
// (same_socket) for it, and a contended copy's writes contend there too,
// a_s + m·max(b_s, d·B_s) (the readers share one LLC).
// A copy from the own cache has L = l. The latencies, b and 1/rate of the
// cache levels are one linear least-squares problem; each row is divided by
// its measured time, so that 64 B and 4 MiB weigh alike (relative error).
// Flags are left out of it: their one line would pin a_L to what a flag's
// spin loop adds; o_flag is what the flags take beyond their line, the
// median over the levels. A chase of memory h hops away enters the DRAM
// problem less h·a_o, once the cache levels gave a_o. Aggregates follow
// from the contended rows once b
// is known. A figure the
// fit makes negative is held at zero and the rest fitted again.
//
// Invariants: the fit uses only the levels the measurements cover;
// residuals are root-mean-square relative errors of the rows that use a level.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "costs/params.hpp"
#include "schedule/datatype.hpp"

namespace numacoll::calibrate {

enum class Microbenchmark {
    flag, copy, reduce, contended_copy, dram_chase, dram_copy, contended_dram_copy, compute, single_copy, typed_reduce
};
const char* to_string(Microbenchmark kind);

// One microbenchmark point, as measured (or made up from known figures).
struct Measurement {
    Microbenchmark kind = Microbenchmark::copy;
    costs::Level level = costs::Level::local_cache;  // where the data comes from (dram for the DRAM ones)
    std::uint64_t bytes = 0;                          // per stream; flops for compute
    int streams = 1;                                  // d
    double time_ns = 0;                               // median (per line for a chase, per one-way flag)
    double p10_ns = 0, p90_ns = 0;
    int iterations = 0;
    std::string pus;                                  // the logical PUs it ran on, "0,1"
    int hops = 0;                                     // a DRAM chase: inter-socket hops to the memory
    // A typed reduce's elements (the other reductions fold doubles).
    sched::Datatype datatype = sched::Datatype::double_;
};

struct LevelFit {
    double latency_ns = 0;
    double bandwidth_bytes_per_ns = 0;             // 1/b
    std::optional<double> aggregate_bytes_per_ns;  // 1/B; none without contended rows
    bool contention_seen = false;  // false: d streams ran as fast as one, and 1/B is d/b, a lower bound
    int streams_measured = 0;      // the largest d of the contended rows
    double residual = 0;           // RMS relative error of the rows that use the level
    int rows = 0;
    std::string microbenchmarks;   // "flag, copy, reduce"
};

struct FitResult {
    std::map<costs::Level, LevelFit> levels;  // only the measured ones
    std::optional<double> reduce_bytes_per_ns;
    double reduce_residual = 0;
    std::optional<double> compute_flops_per_ns;
    double compute_residual = 0;
    std::optional<double> flag_overhead_ns;
    double flag_residual = 0;  // RMS relative error of the flags with the overhead
    // Per kernel (its first datatype's name): the rate where it differs
    // from the doubles' by more than 10%.
    std::map<std::string, double> reduce_bytes_per_ns_by_datatype;
    // The single copy's call and page costs (costs::SingleCopyParams).
    std::optional<double> single_copy_call_ns, single_copy_page_ns;
    double single_copy_residual = 0;

    // The largest residual of the cache levels (the levels but DRAM). Here
    // 11-24% in a calibration on a steady host; near 40% when some points
    // ran slow for seconds of it and the rows no longer agree.
    double worst_cache_residual() const;
};

// What the simulator charges for a measurement's microbenchmark with these
// params (the table above).
double predicted_ns(const Measurement& measurement, const costs::Params& params);

// Fits every figure the measurements determine. CheckError when they cannot
// (a remote level without its local copies, fewer rows than unknowns).
// `private_cache_bytes`: core.private_cache_bytes of the params the figures
// are for (0 when they give none): rows whose working set exceeds it charge
// the core's own accesses at same_socket, as the simulator does.
FitResult fit_measurements(const std::vector<Measurement>& measurements, double cache_line_bytes,
                           double private_cache_bytes = 0);

}  // namespace numacoll::calibrate
