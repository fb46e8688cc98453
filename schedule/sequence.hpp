// sched::sequence and sched::back_to_back: one schedule that runs several
// collectives in a row, as an application's loop calls them, so that one
// simulation covers the whole iteration.
//
// Part p (0-based, counting every repetition) has its own tasks and buffers
// (names suffixed ".p" when there is more than one part), so no part
// overwrites what another still reads; each rank starts part p + 1 when it
// has finished its own share of the parts before (an edge from its last task
// so far to its first of p + 1), not when every rank has: consecutive parts
// overlap across ranks exactly as blocking collectives called back to back
// do. Task ids stay a topological order. Each part keeps its own proof: the
// joining edges only add order, and the parts share no bytes.
#pragma once

#include <string>
#include <vector>

#include "schedule/schedule.hpp"

namespace numacoll::sched {

// `copies` >= 1; the result's spec is `one`'s with options["repeat"] =
// copies. UsageError when the copies exceed the task budget.
Schedule back_to_back(const Schedule& one, int copies);

// Refuses, as back_to_back would, `copies` of a schedule of `tasks` tasks
// (an estimate when `estimated`) that exceed the task budget: a sweep checks
// its points this way before generating any.
void check_back_to_back(std::size_t tasks, const CollectiveSpec& spec, int copies, bool estimated);

// The parts in order, the whole list `repeat` times. Every part runs on the
// same ranks (InputError naming the first that does not). With one part this
// is back_to_back. With several, the result's spec has the first part's
// collective, size and root, the algorithm "sequence", and as options only
// "sequence" (describe_sequence) and "repeat" when above 1.
Schedule sequence(const std::vector<Schedule>& parts, int repeat = 1);

// "allreduce/tree/64B+bcast/2stage/1MiB": each part's collective, algorithm
// and size, for a result row.
std::string describe_sequence(const std::vector<Schedule>& parts);

}  // namespace numacoll::sched
