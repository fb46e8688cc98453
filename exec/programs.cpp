#include "exec/programs.hpp"

namespace numacoll::exec {

std::vector<ThreadProgram> build_programs(const sched::Schedule& schedule, int node) {
    std::vector<int> index_of_rank(schedule.rank_count(), -1);
    std::vector<ThreadProgram> programs;
    for (int rank = 0; rank < schedule.rank_count(); ++rank) {
        if (schedule.ranks[rank].node != node) continue;
        index_of_rank[rank] = static_cast<int>(programs.size());
        programs.push_back({rank, {}, {}});
    }
    for (int id = 0; id < schedule.task_count(); ++id) {
        const sched::Task& task = schedule.task(id);
        const int index = index_of_rank[task.thread];
        if (index < 0) continue;
        ThreadProgram& program = programs[index];
        program.tasks.push_back(id);
        std::vector<int> waits;
        for (int dep : schedule.predecessors(id))
            if (schedule.task(dep).thread != task.thread) waits.push_back(dep);
        program.waits.push_back(std::move(waits));
    }
    return programs;
}

}  // namespace numacoll::exec
