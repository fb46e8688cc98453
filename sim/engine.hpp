// sim::simulate: run any Schedule on SimGrid over a PlatformModel.
//
// Each task becomes its plan's steps (sim/task_plan.hpp), run one after the
// other: a transfer is a SimGrid Comm (the links it crosses are shared, and
// SimGrid's solver shares them); work on a core that runs one rank is a
// SimGrid timer of its exact duration (nothing else uses that core, and an
// Exec activity would cost the solver and SimGrid's in-flight activity list
// for nothing: half the simulation's time at 1024 cores); work on a core
// that runs several ranks (hyper-threads) is an Exec, so they share it. Activities are created just in
// time, when a task's last predecessor completes (creating the whole DAG up
// front makes SimGrid 3.32 quadratic). Time unit: nanoseconds (bandwidths in
// bytes/ns). Network model CM02 with network/crosstraffic:0, no TCP
// window and equal raw route latencies (simgrid_platform.hpp):
// concurrent flows share links max-min fairly and d flows of m bytes through
// a shared link take exactly a + m·max(b, B·d) (tests/sim/engine_closed_form_test.cpp).
//
// Two orders the steps alone do not give: the transfers of one message
// queue (TaskPlans::queue_count) run one at a time in the order they are
// ready, each credited the latency that passed while it waited; and a read
// of a copy another task is fetching, where the LLCs merge misses (params
// llc.merge_bytes), ends no earlier than that fetch plus one merge unit's move.
//
// On SimGrid < 3.34 the comms stay out of maestro's activity list
// (sim/comm_attachment.hpp): the engine keeps a handle on each until its
// completion callback has run, which is what makes that safe.
//
// With computation around the collective (ApplicationRoles), a step that
// needs a rank's progress engine waits until the rank is inside a progress
// call (or starts at once, under a progress thread), and a progress call
// lasts until the rank's share has nothing ready or running on its
// processor and its own dependencies are done (sim/progress.hpp).
//
// SimGrid allows one engine per process, so every simulation runs in a
// forked child that sends its timeline back through a pipe; the caller can
// simulate as often as it likes. The child's heap grows in transparent huge
// pages where the kernel gives them on request (sim/huge_page_heap.hpp).
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "schedule/schedule.hpp"
#include "schedule/timeline.hpp"
#include "sim/platform_model.hpp"
#include "sim/progress.hpp"
#include "sim/task_plan.hpp"

namespace numacoll::sim {

struct SimulationStats {
    double wall_seconds = 0;          // in the simulating process, platform included
    long peak_memory_bytes = 0;       // of the simulating process (max RSS)
    std::size_t activities = 0;       // SimGrid activities created (Comms; Execs for shared_work)
    std::size_t timers = 0;           // SimGrid timers set (work steps)
    std::size_t comms_kept_attached = 0;  // comms kept out of maestro's list (sim/comm_attachment.hpp)
    std::size_t recycling_heap_bytes = 0;  // slabs of small objects handed out (sim/recycling_heap.hpp)
    std::size_t platform_lookups_indexed = 0;  // SimGrid lookups answered by numacoll's index (sim/platform_lookups.hpp)
};

struct Simulation {
    sched::Timeline timeline;
    SimulationStats stats;
};

// Task dependencies in compressed rows: one allocation for a million tasks,
// not one per task. The successors of task t are ids[first[t] .. first[t+1]).
struct Successors {
    std::vector<std::size_t> first;  // one per task, plus the end
    std::vector<int> ids;

    static Successors of(const sched::Schedule& schedule);
    static Successors from_lists(const std::vector<std::vector<int>>& lists);
    std::size_t task_count() const { return first.empty() ? 0 : first.size() - 1; }
};

// The application around a nonblocking collective, as the engine needs it
// (sim/progress.hpp): per task its rank and role. Empty for a collective alone.
struct ApplicationRoles {
    enum class Role : std::uint8_t { collective, compute, progress_call };
    ProgressStrategy strategy = ProgressStrategy::manual;
    std::vector<Role> roles;           // per task
    std::vector<int> ranks;            // per task: its rank
    std::vector<Endpoint> rank_cores;  // per rank: its core (where a shared progress thread polls)

    bool empty() const { return roles.empty(); }
    // Empty when the schedule has no application task.
    static ApplicationRoles of(const sched::Schedule& schedule, ProgressStrategy strategy);
};

// Throws Error when the simulation fails (the message says why). `progress`
// matters only for a schedule with computation around its collective.
Simulation simulate(const sched::Schedule& schedule, const PlatformModel& platform,
                    ProgressStrategy progress = ProgressStrategy::manual);
// The same with the schedule's plans made already: plan_tasks' for it with
// the same strategy (sim/planning_beside_generation.hpp makes them).
// `while_simulating`, when given, runs in this process as soon as the
// simulating process has all it needs: the caller may free `schedule` and
// `plans` then (a million tasks' take 20-30 ms to free, which can pass
// while the simulation runs instead of after it). If it throws, the
// simulating process is stopped and the exception passes on.
Simulation simulate_planned(const sched::Schedule& schedule, const PlatformModel& platform, const TaskPlans& plans,
                            ProgressStrategy progress = ProgressStrategy::manual,
                            const std::function<void()>& while_simulating = {});

// SimGrid's own command-line conventions, for every later simulation of
// this process: `configs` as --cfg=KEY:VALUE, `logs` as --log=SPEC (e.g.
// "root.thres:info"). UsageError for a malformed item, and for the keys
// the cost model rests on (relied_on_simgrid_keys()), which numacoll sets.
void set_simgrid_arguments(const std::vector<std::string>& configs, const std::vector<std::string>& logs);

// "SimGrid 3.32.0 (library 3.32.0), comms kept out of maestro's list, indexed
// platform lookups": the SimGrid this binary simulates with (numacoll --version).
std::string simgrid_description();
const std::vector<std::string>& relied_on_simgrid_keys();

// The engine under simulate(): runs task plans whose dependencies are
// `successors` (task ids in topological order). Closed-form tests use it to
// time exact transfers without the data-location model in between.
// `while_simulating`: as simulate_planned's, for `plans` and `successors`.
Simulation simulate_plans(const PlatformModel& platform, const TaskPlans& plans, const Successors& successors,
                          const ApplicationRoles& application = {},
                          const std::function<void()>& while_simulating = {});
// The same with plans and successor lists built by hand (tests, benchmarks).
Simulation simulate_plans(const PlatformModel& platform, const std::vector<TaskPlan>& plans,
                          const std::vector<std::vector<int>>& successors);

}  // namespace numacoll::sim
