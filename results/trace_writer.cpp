#include "results/trace_writer.hpp"

#include <fmt/format.h>

namespace numacoll::results {

TraceWriter::TraceWriter(const std::string& path)
    : csv_(path, {"collective", "algorithm", "bytes", "task", "thread", "kind", "label", "start_ns", "end_ns"}) {}

void TraceWriter::write(const sched::Schedule& schedule, const sched::Timeline& timeline) {
    // A million-task point goes out in batches, so that its rows never all sit in memory as text.
    constexpr int batch = 4096;
    const std::string collective = sched::to_string(schedule.spec.collective);
    const std::string bytes = std::to_string(schedule.spec.bytes);
    std::vector<std::vector<std::string>> rows;
    for (int id = 0; id < schedule.task_count(); ++id) {
        const sched::Task& task = schedule.task(id);
        rows.push_back({collective, schedule.spec.algorithm, bytes, std::to_string(id), std::to_string(task.thread),
                        sched::to_string(task.kind), task.label.text(), fmt::format("{:.6f}", timeline.tasks[id].start_ns),
                        fmt::format("{:.6f}", timeline.tasks[id].end_ns)});
        const bool last = id + 1 == schedule.task_count();
        if (static_cast<int>(rows.size()) == batch || last) {
            csv_.rows(rows, last);
            rows.clear();
        }
    }
}

}  // namespace numacoll::results
