// The arithmetic of reduce and compute tasks. A reduction runs on every
// predefined MPI datatype and operation that applies to it (with MPI's
// semantics: integers wrap, logical results are 0 or 1, minloc and maxloc
// keep the smaller index of equal values), one loop per pair instantiated
// from exec/element_types.hpp. The loops are plain and contiguous so that
// the compiler vectorises them, and fold every source block by block so that
// the vector crosses memory once.
#pragma once

#include <cstddef>
#include <span>

#include "schedule/schedule.hpp"

namespace numacoll::exec {

// destination[i] = sources[0][i] op sources[1][i] op ... for i < count, in
// that order (the result does not depend on the blocking). The destination
// may be one of the sources (in-place folding).
// `count` elements of `datatype`; Error when `op` does not apply to it
// (sched::check_datatype refuses that before).
void reduce_into(std::byte* destination, std::span<const std::byte* const> sources, std::size_t count,
                 sched::Datatype datatype, sched::ReduceOp op);
// The same on doubles.
void reduce_into(double* destination, std::span<const double* const> sources, std::size_t count, sched::ReduceOp op);

// A compute task's work: at least `flops` floating-point operations (a
// multiply and an add per step, on independent chains that keep the
// core's pipelines busy), in registers. Returns the chains' sum, so that
// the work cannot be optimised away.
double compute_flops(double flops);

// The rate at which compute_flops runs on the calling thread's core, in
// flops per ns: the median of seven timed runs of two million flops. What
// turns a duration of computation into flops for a run on this machine.
double measure_compute_flops_per_ns();

}  // namespace numacoll::exec
