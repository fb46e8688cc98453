// calibrate::Microbenchmarks: the measurements a calibration fits, each a
// small loop run through the executor's harness (exec/harness.hpp): pinned
// threads, buffers on their NUMA nodes, warm-up then timed iterations, an
// iteration's time the longest any thread spent in it, inputs rewritten
// before each iteration outside the timed region (the Modified state of
// HPDC'13 section 3.4). The operations are the executor's own: memcpy for
// a copy, exec::reduce_into for a reduction, exec::Flag for a flag,
// exec::compute_flops for compute work. Every result is checked after the
// last iteration (VerificationError when wrong).
//
// - flag: a ping-pong of flags between two PUs, `rounds` round trips per
//   iteration; the time is per one-way flag;
// - copy: the reader copies m bytes the writer wrote (writer == reader: its own);
// - reduce: the reader sums its own m bytes and the writer's into a third buffer;
// - contended_copy: d readers copy at once, each from its own writer;
// - dram_chase: one PU follows a random cycle through every line of a buffer
//   far larger than the last-level cache, on its own NUMA node or another;
//   the time is per line;
// - dram_copy: one PU copies such a buffer; contended_dram_copy: d PUs each
//   copy their own part of it at once (the copies share their buffers);
// - compute: exec::compute_flops on one PU;
// - typed_reduce: one PU folds two of its own vectors of `datatype` with
//   the datatype's kernel (exec::reduce_into), by `op`;
// - single_copy: one PU copies m bytes of its own with process_vm_readv
//   (what a single copy between processes runs, exec/process_transport.hpp;
//   its own pid, so that one process measures it). single_copy_allowed()
//   says whether this system lets a process make the call at all.
// Every time is given less the harness's floor on the same threads
// (exec::timing_floor_ns: its clock reads and the threads' start), which
// validation adds back to predictions: the figures describe the work alone.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "calibrate/fit.hpp"
#include "exec/harness.hpp"
#include "exec/memory_binding.hpp"
#include "topologies/machine.hpp"

namespace numacoll::calibrate {

// Iterations of one point (the harness's), and flag round trips per iteration.
struct BenchmarkIterations {
    int warmup = 10;
    int timed = 100;
    int flag_rounds = 100;
};

// A writer PU and the PU that reads what it wrote (logical indexes).
struct PuPair {
    int writer_pu = 0;
    int reader_pu = 0;
};

class Microbenchmarks {
public:
    // `keep_dram_buffers`: the DRAM points keep their buffers (and a chase its
    // cycle) from one call to the next with the same arguments, as the rounds
    // of a calibration make them; the caller checks that they all fit at once.
    Microbenchmarks(const topo::Machine& machine, BenchmarkIterations iterations, bool keep_dram_buffers = false);

    // The raw iteration times of each (for rounds that are pooled later), and the point.
    struct Timed {
        Measurement measurement;
        std::vector<double> iteration_ns;  // per unit: per one-way flag, per line of a chase
    };

    Timed flag(costs::Level level, PuPair pair);
    Timed copy(costs::Level level, PuPair pair, std::uint64_t bytes);
    Timed reduce(costs::Level level, PuPair pair, std::uint64_t bytes);
    Timed contended_copy(costs::Level level, const std::vector<PuPair>& pairs, std::uint64_t bytes);
    // `numa`: the logical NUMA node of the buffer (-1: the PU's own), `hops` away.
    Timed dram_chase(int pu, std::uint64_t buffer_bytes, int steps, int numa = -1, int hops = 0);
    Timed dram_copy(const std::vector<int>& pus, std::uint64_t bytes_per_stream);
    Timed compute(int pu, double flops);
    Timed typed_reduce(int pu, std::uint64_t bytes, sched::Datatype datatype, sched::ReduceOp op);
    Timed single_copy(int pu, std::uint64_t bytes);
    static bool single_copy_allowed();

    bool threads_pinned() const { return pinned_; }
    bool memory_bound() const { return binding_.memory_bound(); }

private:
    exec::HarnessOptions options(int timed) const;
    int numa_of_pu(int pu) const;
    // The iteration times less the harness's floor on the same threads, per unit.
    Timed finish(Measurement measurement, const exec::HarnessResult& result, double units_per_iteration,
                 const std::vector<int>& pus, const std::vector<bool>& timed_threads = {});
    double floor_ns(const std::vector<int>& pus, const std::vector<bool>& timed_threads);

    // A chase's buffer and its cycle: new, or the one an earlier call of the
    // same size and NUMA node left when buffers are kept. First touching
    // buffers larger than the last-level cache (1 GiB where hwloc reports a
    // 508 MB L3) was over half of a quick calibration.
    struct ChaseBuffer {
        std::shared_ptr<std::byte> memory;
        bool prepared = false;  // its cycle is written
    };
    ChaseBuffer& chase_buffer(std::uint64_t bytes, int numa);
    // The copies' sources and destinations: one pool per NUMA node, which
    // every DRAM copy carves from its start (a point's streams on one node
    // take consecutive parts), grown when a point needs more. One copy of
    // B bytes and d concurrent copies of B/d each take the same 2B.
    std::byte* copy_pool(int numa, std::uint64_t bytes);

    const topo::Machine& machine_;
    BenchmarkIterations iterations_;
    exec::MemoryBinding binding_;
    bool pinned_ = true;
    std::map<std::pair<std::vector<int>, std::vector<bool>>, double> floors_;
    bool keep_dram_buffers_ = false;
    std::map<std::pair<std::uint64_t, int>, ChaseBuffer> chases_;  // by size and NUMA node
    std::map<int, std::pair<std::shared_ptr<std::byte>, std::uint64_t>> copy_pools_;  // by NUMA node: memory, bytes
};

// Writes a chase's cycle into `lines` lines of `stride` uint64 each: line i
// holds the index of the line that follows it, and the walk from line 0
// passes through every line once before it returns (Sattolo's shuffle makes
// one cycle), in an order that no prefetcher follows.
void write_chase_cycle(std::uint64_t* next, std::uint64_t lines, std::uint64_t stride);

}  // namespace numacoll::calibrate
