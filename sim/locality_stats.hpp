// What a schedule moves where, without simulating: `numacoll dag --stats`.
//
// Every byte a copy or reduce reads is classed by the level that joins the
// buffer owner's core to the reading core (costs::CoreLevels; data sits in
// its writer's cache, the paper's Modified-state setup): same core, same
// cache, same LLC domain, other LLC domain by hops; a net task's bytes are
// "network". Flags are counted by the same classes. The critical
// paths are the longest chains of dependent tasks, by task count and by
// bytes written, found with Boost.Graph's topological sort.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "schedule/schedule.hpp"
#include "sim/platform_model.hpp"

namespace numacoll::sim {

// A locality class, ordered from nearest to farthest.
struct LocalityClass {
    int order = 0;     // same core 0, same cache 1, same LLC domain 2, other LLC domain 2 + hops, network 1000
    std::string name;  // "same LLC domain", "other LLC domain (1 hop)", ...
    auto operator<=>(const LocalityClass&) const = default;
};

// One copy, reduce or net task on the critical path, with its farthest read.
struct CriticalStep {
    int task = 0;
    sched::TaskKind kind = sched::TaskKind::copy;
    LocalityClass locality;
};

struct ScheduleStats {
    int tasks = 0;
    std::map<sched::TaskKind, int> tasks_by_kind;
    std::map<LocalityClass, std::uint64_t> bytes_read;  // by copy/reduce reads and net transfers
    std::map<LocalityClass, int> flags;
    int critical_path_tasks = 0;
    std::uint64_t critical_path_bytes = 0;     // the largest sum of bytes written along a chain
    std::vector<CriticalStep> critical_steps;  // data tasks along the longest chain of tasks
    std::vector<int> tasks_per_thread;
};

LocalityClass locality_between(const PlatformModel& platform, const sched::Schedule& schedule, int reader_rank,
                               int owner_rank);
ScheduleStats schedule_stats(const sched::Schedule& schedule, const PlatformModel& platform);
std::string format_stats(const ScheduleStats& stats);

}  // namespace numacoll::sim
