// sched::back_to_back: one schedule that runs a collective several times in a
// row, as an application's loop calls it.
//
// Copy c (0-based) has its own tasks and buffers (names suffixed ".c"), so
// no copy overwrites what another still reads; each rank starts copy c + 1
// when it has finished its own part of copy c (an edge from its last task
// of c to its first of c + 1), not when every rank has: consecutive copies
// overlap across ranks exactly as blocking collectives called back to back
// do. Task ids stay a topological order.
#pragma once

#include "schedule/schedule.hpp"

namespace numacoll::sched {

// `copies` >= 1; the result's spec is `one`'s with options["repeat"] =
// copies. UsageError when the copies exceed the task budget.
Schedule back_to_back(const Schedule& one, int copies);

}  // namespace numacoll::sched
