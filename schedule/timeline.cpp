#include "schedule/timeline.hpp"

#include <fmt/format.h>

namespace numacoll::sched {

std::string trace_csv_header(const std::string& run_columns) {
    return run_columns + "task,thread,kind,label,start_ns,end_ns\n";
}

std::string trace_csv_rows(const Schedule& schedule, const Timeline& timeline, const std::string& run_values) {
    std::string out;
    for (int id = 0; id < schedule.task_count(); ++id) {
        const Task& task = schedule.task(id);
        out += fmt::format("{}{},{},{},{},{:.6f},{:.6f}\n", run_values, id, task.thread, to_string(task.kind), task.label,
                           timeline.tasks[id].start_ns, timeline.tasks[id].end_ns);
    }
    return out;
}

}  // namespace numacoll::sched
