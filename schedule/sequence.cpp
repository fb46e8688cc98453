#include "schedule/sequence.hpp"

#include <fmt/format.h>

#include "common/byte_size.hpp"
#include "common/error.hpp"

namespace numacoll::sched {

namespace {

bool same_ranks(const Schedule& a, const Schedule& b) {
    return a.nodes == b.nodes && a.rank_kind == b.rank_kind && a.ranks == b.ranks;
}

// The joining itself, over pointers so that repeating one schedule copies
// nothing but its tasks.
Schedule join(const std::vector<const Schedule*>& parts, int repeat, const std::string& what) {
    if (parts.empty()) throw InputError("a sequence needs at least one collective");
    if (repeat < 1) throw UsageError(fmt::format("a schedule is repeated at least once (got {})", repeat));
    for (std::size_t p = 1; p < parts.size(); ++p) {
        const Schedule& part = *parts[p];
        if (same_ranks(*parts.front(), part)) continue;
        const std::string why =
            part.rank_kind != parts.front()->rank_kind
                ? fmt::format("its ranks are {}, the first's {}", to_string(part.rank_kind),
                              to_string(parts.front()->rank_kind))
                : fmt::format("{} ranks on {} node(s), the first {} on {}", part.rank_count(), part.nodes,
                              parts.front()->rank_count(), parts.front()->nodes);
        throw InputError(fmt::format("collective {} of the sequence ({} {}) runs on other ranks than the first ({}): "
                                     "a sequence runs every collective on the same ranks",
                                     p + 1, to_string(part.spec.collective), part.spec.algorithm, why));
    }
    std::size_t tasks_per_round = 0;
    for (const Schedule* part : parts) tasks_per_round += static_cast<std::size_t>(part->task_count());
    const std::size_t total_tasks = tasks_per_round * static_cast<std::size_t>(repeat);
    TaskBudget::check(total_tasks, what, true);
    const TaskBudget budget(what, total_tasks);

    const Schedule& first = *parts.front();
    Schedule result;
    result.spec = first.spec;
    if (repeat > 1) result.spec.options["repeat"] = std::to_string(repeat);
    result.nodes = first.nodes;
    result.rank_kind = first.rank_kind;
    result.ranks = first.ranks;
    result.provenance = first.provenance;

    const std::size_t part_count = parts.size() * static_cast<std::size_t>(repeat);
    // Each rank's last task so far, over every part already joined.
    std::vector<int> last_of_rank(first.ranks.size(), -1);
    for (std::size_t index = 0; index < part_count; ++index) {
        const Schedule& part = *parts[index % parts.size()];
        const int task_offset = result.task_count();
        const int buffer_offset = static_cast<int>(result.buffers().size());
        for (Buffer buffer : part.buffers()) {
            if (part_count > 1) buffer.name += fmt::format(".{}", index);
            result.add_buffer(std::move(buffer));
        }
        const auto moved = [buffer_offset](Range range) {
            if (range.buffer >= 0) range.buffer += buffer_offset;
            return range;
        };
        std::vector<char> started(first.ranks.size(), 0);
        std::vector<int> last_in_part(first.ranks.size(), -1);
        for (int id = 0; id < part.task_count(); ++id) {
            Task task = part.task(id);
            for (Range& read : task.reads) read = moved(read);
            task.write = moved(task.write);
            std::vector<int> deps = part.predecessors(id);
            for (int& dep : deps) dep += task_offset;
            const int thread = task.thread;
            if (!started[thread]) {
                started[thread] = 1;
                if (last_of_rank[thread] >= 0) deps.push_back(last_of_rank[thread]);
            }
            last_in_part[thread] = task_offset + id;
            result.add_task(std::move(task), deps);
        }
        for (std::size_t rank = 0; rank < last_in_part.size(); ++rank)
            if (last_in_part[rank] >= 0) last_of_rank[rank] = last_in_part[rank];
    }
    return result;
}

}  // namespace

namespace {

// How the task budget's refusal names `copies` of a collective.
std::string back_to_back_name(const CollectiveSpec& spec, int copies) {
    return fmt::format("{} {} x{}", to_string(spec.collective), spec.algorithm, copies);
}

}  // namespace

Schedule back_to_back(const Schedule& one, int copies) { return join({&one}, copies, back_to_back_name(one.spec, copies)); }

void check_back_to_back(std::size_t tasks, const CollectiveSpec& spec, int copies, bool estimated) {
    TaskBudget::check(TaskBudget::count_of_estimate(static_cast<double>(tasks) * copies), back_to_back_name(spec, copies),
                      estimated);
}

std::string describe_sequence(const std::vector<Schedule>& parts) {
    std::string out;
    for (const Schedule& part : parts)
        out += fmt::format("{}{}/{}/{}", out.empty() ? "" : "+", to_string(part.spec.collective), part.spec.algorithm,
                           format_bytes(part.spec.bytes));
    return out;
}

Schedule sequence(const std::vector<Schedule>& parts, int repeat) {
    if (parts.size() == 1) return back_to_back(parts.front(), repeat);
    std::vector<const Schedule*> pointers;
    for (const Schedule& part : parts) pointers.push_back(&part);
    const std::string what = fmt::format("a sequence of {} collectives x{}", parts.size(), repeat);
    Schedule result = join(pointers, repeat, what);
    if (parts.size() > 1) {
        // The first part's options do not describe the others.
        result.spec.algorithm = "sequence";
        result.spec.options.clear();
        result.spec.options["sequence"] = describe_sequence(parts);
        if (repeat > 1) result.spec.options["repeat"] = std::to_string(repeat);
    }
    return result;
}

}  // namespace numacoll::sched
