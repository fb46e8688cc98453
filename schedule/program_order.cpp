#include "schedule/program_order.hpp"

#include <algorithm>

namespace numacoll::sched {

std::vector<std::pair<int, int>> missing_program_order_edges(const Schedule& schedule) {
    std::vector<std::pair<int, int>> missing;
    std::vector<int> holding(static_cast<std::size_t>(schedule.rank_count()), -1);  // per rank
    const TaskRows& predecessors = schedule.predecessor_rows();
    for (int id = 0; id < schedule.task_count(); ++id) {
        const Task& task = schedule.task(id);
        if (task.application || task.thread < 0 || task.thread >= schedule.rank_count()) continue;
        const int previous = holding[static_cast<std::size_t>(task.thread)];
        if (previous >= 0 && std::find(predecessors.begin(id), predecessors.end(id), previous) == predecessors.end(id))
            missing.emplace_back(previous, id);
        if (holds_its_rank(task.kind)) holding[static_cast<std::size_t>(task.thread)] = id;
    }
    return missing;
}

}  // namespace numacoll::sched
