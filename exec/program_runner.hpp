// exec::ProgramRunner: a schedule's thread programs as the harness's
// IterationWork. Each iteration a thread rewrites its rank's input and
// clears its rank's outputs and temporaries (prepare: outside the timed
// region, every buffer Modified in its owner's cache, as the cost model
// assumes), then runs its tasks in order (run): it waits for what other
// threads must tell it first, executes the task (memcpy, a reduction
// kernel, real compute work, nothing for a wait), and signals through the
// transport when the task is one that others wait for. In the recorded
// iteration it stamps every task's start and end.
//
// The runner takes its transport's concrete type (ThreadTransport, or any
// other Transport), so that the calls in the timed loop are direct.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "exec/buffers.hpp"
#include "exec/harness.hpp"
#include "exec/programs.hpp"
#include "exec/transport.hpp"
#include "schedule/timeline.hpp"

namespace numacoll::exec {

// What every runner holds, whatever its transport: the programs, the
// buffers, which tasks others wait for, and the recorded task times.
class ScheduleWork : public IterationWork {
public:
    // Thread t of the harness runs programs[t]. All references must outlive the work.
    ScheduleWork(const sched::Schedule& schedule, const std::vector<ThreadProgram>& programs, const Buffers& buffers);

    void prepare(int thread, std::uint32_t iteration) override;

    // The recorded iteration's tasks, from the earliest thread start in
    // `arrivals` (the harness's clock starts of that iteration); tasks of
    // other nodes stay at zero.
    sched::Timeline timeline(const std::vector<Clock::time_point>& arrivals) const;

protected:
    // A copy, reduce, compute or wait task: work in this process's memory only.
    void execute_locally(const sched::Task& task) const;

    const sched::Schedule& schedule_;
    const std::vector<ThreadProgram>& programs_;
    const Buffers& buffers_;
    std::vector<int> inputs_;                      // per program: its rank's input buffer, -1 if none
    std::vector<std::vector<int>> cleared_;        // per program: its rank's outputs and temporaries
    std::vector<std::vector<std::uint8_t>> announces_;  // per program and entry: others wait for this task
    std::vector<std::pair<Clock::time_point, Clock::time_point>> task_times_;
};

template <typename TransportType>
class ProgramRunner : public ScheduleWork {
public:
    ProgramRunner(const sched::Schedule& schedule, const std::vector<ThreadProgram>& programs, const Buffers& buffers,
                  TransportType& transport)
        : ScheduleWork(schedule, programs, buffers), transport_(transport) {}

    void run(int thread, std::uint32_t iteration, bool record) override {
        const ThreadProgram& program = programs_[thread];
        const std::vector<std::uint8_t>& announces = announces_[thread];
        for (std::size_t k = 0; k < program.tasks.size(); ++k) {
            for (int dep : program.waits[k]) transport_.wait(dep, iteration);
            const int id = program.tasks[k];
            const Clock::time_point begin = record ? Clock::now() : Clock::time_point{};
            const sched::Task& task = schedule_.task(id);
            if (task.kind == sched::TaskKind::flag)
                transport_.signal(id, iteration);
            else if (task.kind == sched::TaskKind::net)
                transport_.transfer(id, iteration, buffers_);
            else
                execute_locally(task);
            if (record) task_times_[id] = {begin, Clock::now()};
            if (announces[k]) transport_.wake(id);
        }
        transport_.finish(program.rank, iteration);
    }

private:
    TransportType& transport_;
};

}  // namespace numacoll::exec
