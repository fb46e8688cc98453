#include "schedule/sequence.hpp"

#include <fmt/format.h>

#include "common/error.hpp"

namespace numacoll::sched {

Schedule back_to_back(const Schedule& one, int copies) {
    if (copies < 1) throw UsageError(fmt::format("a schedule is repeated at least once (got {})", copies));
    const std::size_t tasks = static_cast<std::size_t>(one.task_count());
    const std::string what = fmt::format("{} {} x{}", to_string(one.spec.collective), one.spec.algorithm, copies);
    TaskBudget::check(tasks * static_cast<std::size_t>(copies), what, true);
    const TaskBudget budget(what, tasks * static_cast<std::size_t>(copies));

    Schedule result;
    result.spec = one.spec;
    result.spec.options["repeat"] = std::to_string(copies);
    result.nodes = one.nodes;
    result.rank_kind = one.rank_kind;
    result.ranks = one.ranks;
    result.provenance = one.provenance;

    std::vector<int> first_of_rank(one.ranks.size(), -1), last_of_rank(one.ranks.size(), -1);
    for (std::size_t id = 0; id < tasks; ++id) {
        const int thread = one.task(static_cast<int>(id)).thread;
        if (first_of_rank[thread] < 0) first_of_rank[thread] = static_cast<int>(id);
        last_of_rank[thread] = static_cast<int>(id);
    }
    const int buffers = static_cast<int>(one.buffers().size());
    for (int copy = 0; copy < copies; ++copy) {
        for (Buffer buffer : one.buffers()) {
            if (copies > 1) buffer.name += fmt::format(".{}", copy);
            result.add_buffer(std::move(buffer));
        }
        const int task_offset = copy * static_cast<int>(tasks);
        const int buffer_offset = copy * buffers;
        const auto moved = [buffer_offset](Range range) {
            if (range.buffer >= 0) range.buffer += buffer_offset;
            return range;
        };
        for (std::size_t id = 0; id < tasks; ++id) {
            Task task = one.task(static_cast<int>(id));
            for (Range& read : task.reads) read = moved(read);
            task.write = moved(task.write);
            std::vector<int> deps = one.predecessors(static_cast<int>(id));
            for (int& dep : deps) dep += task_offset;
            if (copy > 0 && first_of_rank[task.thread] == static_cast<int>(id))
                deps.push_back(task_offset - static_cast<int>(tasks) + last_of_rank[task.thread]);
            result.add_task(std::move(task), deps);
        }
    }
    return result;
}

}  // namespace numacoll::sched
