#include "algorithms/builder.hpp"

#include <fmt/format.h>

#include "schedule/program_order.hpp"

namespace numacoll::algo {

namespace {

// A task of `kind` on `thread`; the caller adds what it moves.
sched::Task task_of(TaskKind kind, int thread, const std::string& label) {
    sched::Task task;
    task.kind = kind;
    task.thread = thread;
    task.label = label;
    return task;
}

}  // namespace

ScheduleBuilder::ScheduleBuilder(const Layout& layout, const CollectiveSpec& spec)
    : layout_(layout), last_(layout.size(), -1) {
    schedule_.spec = spec;
    schedule_.nodes = layout.nodes;
    for (const auto& place : layout.ranks)
        schedule_.ranks.push_back({place.node, place.core, place.pu, place.numa, place.package});
}

int ScheduleBuilder::add_input(int rank, std::uint64_t bytes) {
    return schedule_.add_buffer({fmt::format("in{}", rank), rank, bytes, BufferRole::input, layout_.ranks[rank].numa});
}

int ScheduleBuilder::add_output(int rank, std::uint64_t bytes) {
    return schedule_.add_buffer(
        {fmt::format("out{}", rank), rank, bytes, BufferRole::output, layout_.ranks[rank].numa});
}

int ScheduleBuilder::add_temp(int rank, std::uint64_t bytes, const std::string& name) {
    return schedule_.add_buffer({name, rank, bytes, BufferRole::temp, layout_.ranks[rank].numa});
}

int ScheduleBuilder::add_ordered(sched::Task task, const std::vector<int>& deps) {
    const int thread = task.thread;
    const bool holds = sched::holds_its_rank(task.kind);
    const std::vector<int>* all_deps = &deps;
    if (last_[thread] >= 0) {
        deps_with_last_.assign(deps.begin(), deps.end());
        deps_with_last_.push_back(last_[thread]);
        all_deps = &deps_with_last_;
    }
    const int id = schedule_.add_task(std::move(task), *all_deps);
    if (holds) last_[thread] = id;
    return id;
}

int ScheduleBuilder::copy(int thread, Range from, Range to, const std::vector<int>& deps, const std::string& label) {
    sched::Task task = task_of(TaskKind::copy, thread, label);
    task.reads = {from};
    task.write = to;
    return add_ordered(std::move(task), deps);
}

int ScheduleBuilder::reduce(int thread, const std::vector<Range>& from, Range to, const std::vector<int>& deps,
                            const std::string& label) {
    sched::Task task = task_of(TaskKind::reduce, thread, label);
    task.reads.assign(from.begin(), from.end());
    task.write = to;
    return add_ordered(std::move(task), deps);
}

int ScheduleBuilder::flag(int from, int to, const std::vector<int>& deps, const std::string& label) {
    sched::Task task = task_of(TaskKind::flag, from, label);
    task.peer = to;
    return add_ordered(std::move(task), deps);
}

int ScheduleBuilder::net(int from, int to, Range from_range, Range to_range, const std::vector<int>& deps,
                         const std::string& label) {
    sched::Task task = task_of(TaskKind::net, from, label);
    task.peer = to;
    if (from_range.buffer >= 0) task.reads = {from_range};
    task.write = to_range;
    return add_ordered(std::move(task), deps);
}

int ScheduleBuilder::wait(int thread, const std::vector<int>& deps, const std::string& label) {
    return add_ordered(task_of(TaskKind::wait, thread, label), deps);
}

int ScheduleBuilder::wait_for_others(int thread, const std::vector<int>& tasks, const std::string& label) {
    std::vector<int> foreign;
    for (int task : tasks)
        if (thread_of(task) != thread) foreign.push_back(task);
    return foreign.empty() ? -1 : wait(thread, foreign, label);
}

int ScheduleBuilder::compute(int thread, double flops, const std::vector<int>& deps, const std::string& label) {
    sched::Task task = task_of(TaskKind::compute, thread, label);
    task.flops = flops;
    return add_ordered(std::move(task), deps);
}

Schedule ScheduleBuilder::finish() { return std::move(schedule_); }

}  // namespace numacoll::algo
