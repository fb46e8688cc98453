// Structural validation of a Schedule, independent of what it computes:
// - every task is well formed (ranges inside their buffers, copy/reduce only
//   touch buffers on the thread's node, net tasks cross nodes, reductions
//   work on whole 8-byte elements);
// - the DAG is acyclic and task ids are a topological order;
// - an edge between threads leaves a flag or net task aimed at the target;
// - every read is of data that a dependency path has already written, or of
//   an input whose owner has signalled its arrival (another thread may not
//   read an input before its rank entered the collective);
// - a write into a rank's output by another thread leads to a task that rank
//   runs (its output must be final when it leaves, after its last task),
//   and so does a read of a buffer that a process exposes (Buffer::exposed:
//   it may reuse the buffer once it leaves);
// - between processes sharing a segment, a task touches another rank's
//   buffer only in the segment, or copies from one that its owner exposes;
// - no two tasks without a path between them touch the same bytes when one
//   of them writes (no write/write nor read/write race).
// The symbolic checker (symbolic_checker.hpp) then proves what it computes.
#pragma once

#include <string>
#include <vector>

#include "schedule/schedule.hpp"

namespace numacoll::sched {

// Every problem found, one line each (at most `limit`); empty when valid.
std::vector<std::string> find_schedule_problems(const Schedule& schedule, std::size_t limit = 20);

// Throws CheckError with the first problem.
void validate_schedule(const Schedule& schedule);

// "task 12 (reduce on rank 3, c0:reduce:L3:r1)": how messages name a task.
std::string describe_task(const Schedule& schedule, int id);
// "out5[0,64)"
std::string describe_range(const Schedule& schedule, const Range& range);

}  // namespace numacoll::sched
