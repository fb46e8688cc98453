#include "sim/locality_stats.hpp"

#include <boost/graph/topological_sort.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <iterator>

#include "common/statistics.hpp"

namespace numacoll::sim {

LocalityClass locality_between(const PlatformModel& platform, const sched::Schedule& schedule, int reader_rank,
                               int owner_rank) {
    const sched::RankInfo& reader = schedule.ranks[reader_rank];
    const sched::RankInfo& owner = schedule.ranks[owner_rank];
    if (reader.node != owner.node) return {1000, "network"};
    const costs::LevelJoin join = platform.levels().between(owner.core, reader.core);
    switch (join.level) {
        case costs::Level::local_cache: return {0, "same core"};
        case costs::Level::same_cache: return {1, "same cache"};
        case costs::Level::same_socket: return {2, "same LLC domain"};
        default: return {2 + join.hops, fmt::format("other LLC domain ({} hop{})", join.hops, join.hops == 1 ? "" : "s")};
    }
}

namespace {

// The farthest class a task reads from (a flag: from its setter to its waiter).
LocalityClass farthest_read(const sched::Schedule& schedule, const PlatformModel& platform, int id) {
    const sched::Task& task = schedule.task(id);
    if (task.kind == sched::TaskKind::net) return {1000, "network"};
    if (task.kind == sched::TaskKind::flag) return locality_between(platform, schedule, task.peer, task.thread);
    LocalityClass farthest{0, "same core"};
    for (const sched::Range& read : task.reads)
        farthest = std::max(farthest, locality_between(platform, schedule, task.thread, schedule.buffer(read.buffer).owner));
    return farthest;
}

}  // namespace

ScheduleStats schedule_stats(const sched::Schedule& schedule, const PlatformModel& platform) {
    ScheduleStats stats;
    stats.tasks = schedule.task_count();
    stats.tasks_per_thread.assign(schedule.rank_count(), 0);
    std::vector<std::uint64_t> written(stats.tasks, 0);
    for (int id = 0; id < stats.tasks; ++id) {
        const sched::Task& task = schedule.task(id);
        ++stats.tasks_by_kind[task.kind];
        ++stats.tasks_per_thread[task.thread];
        written[id] = task.write.buffer >= 0 ? task.write.bytes : 0;
        switch (task.kind) {
            case sched::TaskKind::flag: ++stats.flags[farthest_read(schedule, platform, id)]; break;
            case sched::TaskKind::net: stats.bytes_read[{1000, "network"}] += task.write.bytes; break;
            case sched::TaskKind::copy:
            case sched::TaskKind::reduce:
                for (const sched::Range& read : task.reads)
                    stats.bytes_read[locality_between(platform, schedule, task.thread,
                                                      schedule.buffer(read.buffer).owner)] += read.bytes;
                break;
            case sched::TaskKind::compute:
            case sched::TaskKind::wait: break;
        }
    }

    // Longest chains: by tasks (ties broken by bytes) and by bytes alone.
    std::vector<int> order;
    boost::topological_sort(schedule.graph(), std::back_inserter(order));
    std::reverse(order.begin(), order.end());
    std::vector<std::pair<int, std::uint64_t>> by_tasks(stats.tasks);
    std::vector<std::uint64_t> by_bytes(stats.tasks, 0);
    std::vector<int> previous(stats.tasks, -1);
    for (int id : order) {
        by_tasks[id].first += 1;
        by_tasks[id].second += written[id];
        by_bytes[id] += written[id];
        const sched::TaskRows& successors = schedule.successor_rows();
        for (const int* at = successors.begin(id); at != successors.end(id); ++at) {
            const int next = *at;
            if (by_tasks[id] > by_tasks[next]) by_tasks[next] = by_tasks[id], previous[next] = id;
            by_bytes[next] = std::max(by_bytes[next], by_bytes[id]);
        }
    }
    if (stats.tasks == 0) return stats;
    const int last = static_cast<int>(std::max_element(by_tasks.begin(), by_tasks.end()) - by_tasks.begin());
    stats.critical_path_tasks = by_tasks[last].first;
    stats.critical_path_bytes = *std::max_element(by_bytes.begin(), by_bytes.end());
    for (int id = last; id >= 0; id = previous[id]) {
        const sched::TaskKind kind = schedule.task(id).kind;
        if (kind == sched::TaskKind::copy || kind == sched::TaskKind::reduce || kind == sched::TaskKind::net)
            stats.critical_steps.push_back({id, kind, farthest_read(schedule, platform, id)});
    }
    std::reverse(stats.critical_steps.begin(), stats.critical_steps.end());
    return stats;
}

std::string format_stats(const ScheduleStats& stats) {
    std::string text = fmt::format("tasks: {}", stats.tasks);
    for (const auto& [kind, count] : stats.tasks_by_kind) text += fmt::format(", {} {}", count, sched::to_string(kind));
    text += "\nbytes read, by where they come from:\n";
    if (stats.bytes_read.empty()) text += "  none\n";
    for (const auto& [locality, bytes] : stats.bytes_read) text += fmt::format("  {:<22} {}\n", locality.name, bytes);
    text += "flags, by how far they travel:\n";
    if (stats.flags.empty()) text += "  none\n";
    for (const auto& [locality, count] : stats.flags) text += fmt::format("  {:<22} {}\n", locality.name, count);
    text += fmt::format("critical path: {} tasks; the heaviest chain writes {} bytes\n", stats.critical_path_tasks,
                        stats.critical_path_bytes);
    text += "data steps on the critical path:";
    for (const CriticalStep& step : stats.critical_steps)
        text += fmt::format(" {} ({}),", sched::to_string(step.kind), step.locality.name);
    if (!stats.critical_steps.empty()) text.pop_back();
    text += "\n";
    std::vector<double> counts(stats.tasks_per_thread.begin(), stats.tasks_per_thread.end());
    std::sort(counts.begin(), counts.end());
    if (!counts.empty())
        text += fmt::format("tasks per thread: min {}, median {}, max {}\n", counts.front(),
                            median_of_sorted(counts), counts.back());
    for (std::size_t rank = 0; rank < stats.tasks_per_thread.size(); ++rank)
        text += fmt::format("{}rank {}: {}", rank % 8 == 0 ? (rank ? "\n  " : "  ") : ", ", rank,
                            stats.tasks_per_thread[rank]);
    return text + "\n";
}

}  // namespace numacoll::sim
