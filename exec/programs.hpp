// exec::ThreadProgram: what one thread runs of a schedule: its tasks in id
// order (its program order, since ids are a topological order), and before
// each the tasks of other threads it must hear from (a flag, or a message's
// arrival); its own earlier tasks are done by then. Programs are built per
// node, so that an engine with a process per node runs its slice only.
#pragma once

#include <vector>

#include "schedule/schedule.hpp"

namespace numacoll::exec {

struct ThreadProgram {
    int rank = 0;
    std::vector<int> tasks;               // task ids, ascending
    std::vector<std::vector<int>> waits;  // per entry of `tasks`: tasks of other threads to hear from first
};

// The programs of the ranks on `node`, in rank order.
std::vector<ThreadProgram> build_programs(const sched::Schedule& schedule, int node);

}  // namespace numacoll::exec
