// What one rank does at a time, the rule every engine follows: a rank's
// tasks start in id order, each after the rank's previous copy, reduce,
// compute or wait task has finished; flag and net tasks only start
// something (a cache line, a send) and hold nothing up. The builder writes
// these edges into every generated schedule (algorithms/builder.hpp); the
// executor runs a rank's tasks one after the other in id order, which
// keeps them; the simulator adds the ones a file leaves out
// (sim::Successors::of), so that both engines run the same program.
// Application tasks (overlap/compose.hpp) follow the progress rules of
// docs/overlap.md instead, and are left out of the rule.
#pragma once

#include <utility>
#include <vector>

#include "schedule/schedule.hpp"

namespace numacoll::sched {

// Whether a task of this kind holds its rank until it finishes.
inline bool holds_its_rank(TaskKind kind) {
    return kind == TaskKind::copy || kind == TaskKind::reduce || kind == TaskKind::compute || kind == TaskKind::wait;
}

// The rule's edges that `schedule` does not hold as direct dependencies:
// (earlier task, later task) pairs, by the later task's id. Empty for every
// generated schedule.
std::vector<std::pair<int, int>> missing_program_order_edges(const Schedule& schedule);

}  // namespace numacoll::sched
