#include "sim/planning_beside_generation.hpp"

#include <system_error>
#include <utility>

#include "common/error.hpp"

namespace numacoll::sim {

PlanningBesideGeneration::PlanningBesideGeneration(const PlatformModel& platform, ProgressStrategy progress,
                                                   sched::RankKind rank_kind, std::size_t expected_tasks)
    : platform_(platform), progress_(progress), rank_kind_(rank_kind), expected_tasks_(expected_tasks) {
    try {
        thread_ = std::thread([this] { plan_batches(); });
    } catch (const std::system_error&) {  // no thread to be had: finish() plans after generation
        following_ = false;
        planning_done_ = true;
    }
}

PlanningBesideGeneration::~PlanningBesideGeneration() {
    {
        const std::lock_guard lock(mutex_);
        closed_ = true;
        abandoned_ = true;
        released_by_caller_ = true;
    }
    batch_ready_.notify_all();
    released_.notify_all();
    if (thread_.joinable()) thread_.join();
}

bool PlanningBesideGeneration::follows(const sched::Schedule& schedule) {
    if (!following_) return false;
    if (followed_ == nullptr) {
        // The first addition: the schedule starts empty, its ranks are set.
        if (schedule.task_count() + schedule.buffers().size() != 1 || schedule.nodes != platform_.nodes()) {
            stop_following();
            return false;
        }
        followed_ = &schedule;
        lineage_ = schedule.lineage();
        start_ = {schedule.ranks, schedule.nodes, schedule.spec.datatype};
        batch_.start = start_;
        return true;
    }
    if (followed_ != &schedule || lineage_ != schedule.lineage()) {
        stop_following();  // another schedule, or this one moved: plan the finished one instead
        return false;
    }
    return true;
}

void PlanningBesideGeneration::buffer_added(const sched::Schedule& schedule, int id) noexcept {
    if (!follows(schedule)) return;
    const sched::Buffer& buffer = schedule.buffer(id);
    // An input written before the collective must be placed before any task
    // runs (TaskPlanner); one that comes later is planned after generation.
    if (static_cast<std::size_t>(id) != buffers_sent_ ||
        (buffer.role == sched::BufferRole::input && tasks_sent_ > 0)) {
        stop_following();
        return;
    }
    try {
        batch_.buffers.push_back({{}, buffer.owner, buffer.bytes, buffer.role, buffer.numa});  // no name: not planned
    } catch (...) {
        stop_following();
        return;
    }
    ++buffers_sent_;
}

void PlanningBesideGeneration::task_added(const sched::Schedule& schedule, int id) noexcept {
    if (!follows(schedule)) return;
    const sched::Task& task = schedule.task(id);
    if (static_cast<std::size_t>(id) != tasks_sent_ || task.application) {
        stop_following();
        return;
    }
    try {
        if (batch_.tasks.empty()) batch_.tasks.reserve(batch_tasks);
        batch_.tasks.push_back(task);
        ++tasks_sent_;
        if (batch_.tasks.size() >= batch_tasks) send_batch();
    } catch (...) {
        stop_following();
    }
}

void PlanningBesideGeneration::send_batch() {
    std::unique_lock lock(mutex_);
    room_ready_.wait(lock, [&] { return waiting_.size() < max_batches_waiting || abandoned_ || planning_done_; });
    if (abandoned_ || planning_done_) {  // the planning thread gave up
        lock.unlock();
        stop_following();
        return;
    }
    waiting_.push_back(std::move(batch_));
    lock.unlock();
    batch_ready_.notify_one();
    batch_ = Batch{};
}

void PlanningBesideGeneration::stop_following() {
    following_ = false;
    batch_ = Batch{};
    std::deque<Batch> dropped;
    {
        const std::lock_guard lock(mutex_);
        abandoned_ = true;
        dropped.swap(waiting_);
    }
    batch_ready_.notify_all();
}

void PlanningBesideGeneration::plan_batches() {
    for (;;) {
        Batch batch;
        {
            std::unique_lock lock(mutex_);
            batch_ready_.wait(lock, [&] { return !waiting_.empty() || closed_ || abandoned_; });
            if (abandoned_ || waiting_.empty()) break;
            batch = std::move(waiting_.front());
            waiting_.pop_front();
        }
        room_ready_.notify_one();
        try {
            if (batch.start)
                planner_.emplace(platform_, progress_, std::move(batch.start->ranks), batch.start->nodes, rank_kind_,
                                 batch.start->datatype, false, expected_tasks_);
            for (const sched::Buffer& buffer : batch.buffers) planner_->add_buffer(buffer);
            for (const sched::Task& task : batch.tasks) planner_->add_task(task);
        } catch (...) {
            // A schedule the planner refuses, or memory: planned again after
            // generation, where the error is the one plan_tasks gives.
            const std::lock_guard lock(mutex_);
            failed_ = true;
            break;
        }
    }
    // finish() takes the plans while this thread waits; the planner's own
    // state is freed here, beside whatever the caller does next.
    std::unique_lock lock(mutex_);
    planning_done_ = true;
    room_ready_.notify_all();
    released_.wait(lock, [&] { return released_by_caller_; });
    lock.unlock();
    planner_.reset();
}

TaskPlans PlanningBesideGeneration::finish(const sched::Schedule& finished) {
    if (finished_) throw Error("PlanningBesideGeneration::finish: called twice");
    finished_ = true;
    if (following_ && (!batch_.buffers.empty() || !batch_.tasks.empty() || batch_.start)) send_batch();
    std::unique_lock lock(mutex_);
    closed_ = true;
    batch_ready_.notify_all();
    room_ready_.wait(lock, [&] { return planning_done_; });
    // The planning thread waits for released_by_caller_: planner_ is this thread's until then.
    const bool complete = following_ && !failed_ && !abandoned_ && planner_.has_value() && followed_ != nullptr &&
                          finished.lineage() == lineage_ &&
                          static_cast<std::size_t>(finished.task_count()) == tasks_sent_ &&
                          finished.buffers().size() == buffers_sent_ && planner_->task_count() == tasks_sent_ &&
                          planner_->buffer_count() == buffers_sent_ && finished.ranks == start_.ranks &&
                          finished.nodes == start_.nodes && finished.rank_kind == rank_kind_ &&
                          finished.spec.datatype == start_.datatype &&
                          !finished.has_application_tasks();
    std::optional<TaskPlans> plans;
    if (complete) plans.emplace(planner_->take());
    released_by_caller_ = true;
    lock.unlock();
    released_.notify_all();
    if (plans) {
        planned_beside_ = true;
        return std::move(*plans);
    }
    return plan_tasks(finished, platform_, progress_);
}

}  // namespace numacoll::sim
