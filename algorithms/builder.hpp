// algo::ScheduleBuilder: what generators use to write a Schedule.
//
// It keeps each thread's program order for them: a copy, reduce, compute or
// wait task depends on the previous such task of its thread, and a flag or net
// task is issued after it (without blocking the thread's later tasks). Every
// other dependency is explicit, so a generator states only the communication
// pattern: who waits for whom.
#pragma once

#include <string>
#include <vector>

#include "algorithms/ir.hpp"
#include "algorithms/layout.hpp"

namespace numacoll::algo {

class ScheduleBuilder {
public:
    ScheduleBuilder(const Layout& layout, const CollectiveSpec& spec);

    const Layout& layout() const { return layout_; }
    const CollectiveSpec& spec() const { return schedule_.spec; }

    // The collective's own buffers: one input and/or output per rank.
    int add_input(int rank, std::uint64_t bytes);
    int add_output(int rank, std::uint64_t bytes);
    int add_temp(int rank, std::uint64_t bytes, const std::string& name);

    int copy(int thread, Range from, Range to, const std::vector<int>& deps, const std::string& label);
    int reduce(int thread, const std::vector<Range>& from, Range to, const std::vector<int>& deps,
               const std::string& label);
    // Thread `from` tells thread `to` that everything in deps (and from's
    // program order so far) is done.
    int flag(int from, int to, const std::vector<int>& deps, const std::string& label);
    // A message from one node to another; `from_range`/`to_range` may both be
    // empty (buffer -1) for a pure synchronisation message.
    int net(int from, int to, Range from_range, Range to_range, const std::vector<int>& deps,
            const std::string& label);

    // A point where `thread` waits for deps (signals from other threads)
    // and does nothing else: a wait task. A thread leaves the collective
    // after its last task, so it must wait for every signal that still
    // matters to it, such as a barrier's release.
    int wait(int thread, const std::vector<int>& deps, const std::string& label);
    // A wait task of `thread` for those of `tasks` that other threads run (in
    // their order), so that it cannot leave before they have told it;
    // -1, and no task, when all of them are its own.
    int wait_for_others(int thread, const std::vector<int>& tasks, const std::string& label);
    // Real work on `thread`'s core: `flops` (> 0) floating-point operations.
    int compute(int thread, double flops, const std::vector<int>& deps, const std::string& label);

    int thread_of(int task) const { return schedule_.task(task).thread; }
    int task_count() const { return schedule_.task_count(); }
    int buffer_count() const { return static_cast<int>(schedule_.buffers().size()); }

    // The last copy/reduce/compute/wait task of a thread, -1 if none yet.
    int last_of(int thread) const { return last_[thread]; }

    Schedule finish();

private:
    // Adds `task` after deps and its thread's last task that holds the
    // thread (schedule/program_order.hpp: the rule every engine follows).
    int add_ordered(sched::Task task, const std::vector<int>& deps);

    const Layout& layout_;
    Schedule schedule_;
    std::vector<int> last_;
    std::vector<int> deps_with_last_;  // reused: no allocation per task
};

}  // namespace numacoll::algo
