// sim::PlanningBesideGeneration: plans a schedule on a second thread while
// the calling thread generates it, so that a large simulation's generation
// and planning overlap instead of following one another (on a million-task
// node, 0.23 s and 0.35 s in sequence: CHANGELOG.md, "How the simulator got its speed").
//
// Installed as the generating thread's sched::ScheduleWatcher, it copies
// each buffer and task in batches to a thread that feeds a TaskPlanner.
// The plans it hands back are always plan_tasks' for the finished schedule:
// it uses those made beside generation only when it followed every addition
// of that schedule (one schedule object, ids in order, the finished
// schedule of the same lineage with as many tasks and buffers, the same
// ranks, nodes and rank kind), no input buffer came after the first task,
// and no task was the application's; otherwise, or when planning failed on
// its thread, finish() plans the finished schedule itself, as plan_tasks
// does, and throws what plan_tasks throws.
//
// Memory: at most `max_batches_waiting` batches of copies wait (a few MB);
// the generating thread waits for the planner rather than queue more. The
// planner's own state is freed on the planning thread after finish() has
// taken the plans; the destructor waits for it.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "schedule/schedule.hpp"
#include "sim/task_plan.hpp"

namespace numacoll::sim {

class PlanningBesideGeneration final : public sched::ScheduleWatcher {
public:
    // `rank_kind`: the kind of ranks the finished schedule will have (the
    // algorithm's). `expected_tasks` sizes the plans (0: unknown).
    PlanningBesideGeneration(const PlatformModel& platform, ProgressStrategy progress, sched::RankKind rank_kind,
                             std::size_t expected_tasks);
    ~PlanningBesideGeneration();
    PlanningBesideGeneration(const PlanningBesideGeneration&) = delete;
    PlanningBesideGeneration& operator=(const PlanningBesideGeneration&) = delete;

    void buffer_added(const sched::Schedule& schedule, int id) noexcept override;
    void task_added(const sched::Schedule& schedule, int id) noexcept override;

    // The plans of `finished` (see above); call once, after generation.
    TaskPlans finish(const sched::Schedule& finished);
    // Whether finish() used the plans made beside generation.
    bool planned_beside() const { return planned_beside_; }

    static constexpr std::size_t batch_tasks = 4096;
    static constexpr std::size_t max_batches_waiting = 2;

private:
    // What the planner needs before the first buffer: the schedule's ranks.
    struct Start {
        std::vector<sched::RankInfo> ranks;
        int nodes = 1;
        sched::Datatype datatype = sched::Datatype::double_;
    };
    struct Batch {
        std::optional<Start> start;
        std::vector<sched::Buffer> buffers;  // before the batch's tasks
        std::vector<sched::Task> tasks;
    };

    // On the generating thread.
    bool follows(const sched::Schedule& schedule);
    void send_batch();
    void stop_following();
    // On the planning thread.
    void plan_batches();

    const PlatformModel& platform_;
    const ProgressStrategy progress_;
    const sched::RankKind rank_kind_;
    const std::size_t expected_tasks_;

    // The generating thread's view.
    const sched::Schedule* followed_ = nullptr;
    std::uint64_t lineage_ = 0;
    Start start_;
    bool following_ = true;
    std::size_t buffers_sent_ = 0;
    std::size_t tasks_sent_ = 0;
    Batch batch_;
    bool finished_ = false;
    bool planned_beside_ = false;

    // Shared, under mutex_.
    std::mutex mutex_;
    std::condition_variable batch_ready_;
    std::condition_variable room_ready_;  // also: planning_done_
    std::condition_variable released_;
    std::deque<Batch> waiting_;
    bool closed_ = false;     // no more batches
    bool abandoned_ = false;  // the plans will not be used: stop
    bool failed_ = false;     // planning threw on the planning thread
    bool planning_done_ = false;       // the planning thread plans no more
    bool released_by_caller_ = false;  // finish() is done with planner_

    std::optional<TaskPlanner> planner_;  // the planning thread's, but finish()'s while it waits
    std::thread thread_;
};

}  // namespace numacoll::sim
