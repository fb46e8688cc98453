// sched::Timeline: when each task of a schedule ran, as an engine saw it.
// Both engines (sim/ and exec/) produce one, in nanoseconds from the start of
// the collective, so that their timelines can be compared and drawn side by
// side. Trace CSV columns: task, thread, kind, label, start_ns, end_ns.
#pragma once

#include <string>
#include <vector>

#include "schedule/schedule.hpp"

namespace numacoll::sched {

struct TaskTime {
    double start_ns = 0;
    double end_ns = 0;
};

struct Timeline {
    std::vector<TaskTime> tasks;  // indexed by task id
    double makespan_ns = 0;       // end of the last task
};

// The header line of a trace CSV, with `run_columns` (e.g. "collective,algorithm,bytes,")
// in front of the per-task columns.
std::string trace_csv_header(const std::string& run_columns);
// One line per task; `run_values` goes in front of each (e.g. "allreduce,tree,64,").
std::string trace_csv_rows(const Schedule& schedule, const Timeline& timeline, const std::string& run_values);

}  // namespace numacoll::sched
