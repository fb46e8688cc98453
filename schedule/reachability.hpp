// Path queries on a schedule's DAG. Task ids are a topological order, so a
// search from `from` never needs to visit a task with an id above `to`.
#pragma once

#include <vector>

#include "schedule/schedule.hpp"

namespace numacoll::sched {

// The schedule must outlive it, unchanged.
class Reachability {
public:
    explicit Reachability(const Schedule& schedule);
    // True when a dependency path leads from `from` to `to` (or from == to).
    bool reaches(int from, int to);

private:
    const TaskRows& successors_;  // the schedule's own rows: nothing copied per task
    std::vector<int> visited_stamp_;
    std::vector<int> stack_;
    int stamp_ = 0;
};

}  // namespace numacoll::sched
