// exec::ProgramRunner: a schedule's thread programs as the harness's
// IterationWork. Each iteration a thread rewrites its rank's input
// (prepare), then runs its tasks in order (run): it waits for what other
// threads must tell it first, executes the task (memcpy, a reduction
// kernel, real compute work, nothing for a wait), and signals through the
// transport when the task is one that others wait for. In the recorded
// iteration it stamps every task's start and end.
#pragma once

#include <utility>
#include <vector>

#include "exec/buffers.hpp"
#include "exec/harness.hpp"
#include "exec/programs.hpp"
#include "exec/transport.hpp"
#include "schedule/timeline.hpp"

namespace numacoll::exec {

class ProgramRunner : public IterationWork {
public:
    // Thread t of the harness runs programs[t]. All references must outlive the runner.
    ProgramRunner(const sched::Schedule& schedule, const std::vector<ThreadProgram>& programs, const Buffers& buffers,
                  Transport& transport);

    void prepare(int thread, std::uint32_t iteration) override;
    void run(int thread, std::uint32_t iteration, bool record) override;

    // The recorded iteration's tasks, from the earliest thread start in
    // `arrivals` (the harness's clock starts of that iteration); tasks of
    // other nodes stay at zero.
    sched::Timeline timeline(const std::vector<Clock::time_point>& arrivals) const;

private:
    void execute(int task, std::uint32_t iteration);

    const sched::Schedule& schedule_;
    const std::vector<ThreadProgram>& programs_;
    const Buffers& buffers_;
    Transport& transport_;
    std::vector<int> inputs_;       // per program: its rank's input buffer, -1 if none
    std::vector<std::vector<bool>> announces_;  // per program and entry: others wait for this task
    std::vector<std::pair<Clock::time_point, Clock::time_point>> task_times_;
};

}  // namespace numacoll::exec
