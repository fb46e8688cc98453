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
// With computation around the collective (application tasks: overlap/
// compose.hpp), a thread runs the application's part in order and the
// collective's tasks only inside its progress calls, as far as they are ready
// (manual progress: MPI_Test, and all of the rest in the final MPI_Wait); or
// a progress thread per rank runs them (start_progress_threads).
//
// The runner takes its transport's concrete type (ThreadTransport, or any
// other Transport), so that the calls in the timed loop are direct.
#pragma once

#include <atomic>
#include <cstdint>
#include <limits>
#include <memory>
#include <thread>
#include <utility>
#include <vector>

#include "exec/buffers.hpp"
#include "exec/flag.hpp"
#include "exec/harness.hpp"
#include "exec/memory_binding.hpp"
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
    // Per program: the entry of its first application task (computation and
    // progress calls around the collective), or its size when it has none.
    std::vector<std::size_t> collective_end_;
    // Per program and entry, with computation around the collective: the
    // rank's own net tasks it depends on. Their sends complete later then
    // (exec/mpi_transport.hpp), and the task must wait for them.
    std::vector<std::vector<std::vector<int>>> own_sends_;
    std::vector<std::pair<Clock::time_point, Clock::time_point>> task_times_;
};

template <typename TransportType>
class ProgramRunner : public ScheduleWork {
public:
    ProgramRunner(const sched::Schedule& schedule, const std::vector<ThreadProgram>& programs, const Buffers& buffers,
                  TransportType& transport)
        : ScheduleWork(schedule, programs, buffers), transport_(transport) {}

    ~ProgramRunner() override { stop_progress_threads(); }

    // With computation around the collective: one progress thread per rank,
    // on `pus[thread]` (pinned when `pin`), runs the rank's share of the
    // collective while the rank computes; without, the rank advances it only
    // in its own progress calls (manual progress).
    // A rank whose helper shares its PU sleeps at once in its final wait:
    // spinning there would hold the core its helper needs.
    void start_progress_threads(const std::vector<int>& pus, MemoryBinding& binding, bool pin) {
        helpers_ = std::make_unique<Helper[]>(programs_.size());
        helpers_share_pus_.clear();
        for (std::size_t thread = 0; thread < programs_.size(); ++thread)
            helpers_share_pus_.push_back(pus[thread] == schedule_.ranks[programs_[thread].rank].pu);
        for (std::size_t thread = 0; thread < programs_.size(); ++thread)
            helpers_[thread].thread = std::thread([this, thread, pu = pus[thread], &binding, pin] {
                if (pin) binding.pin_current_thread(pu);
                help(static_cast<int>(thread));
            });
    }

    void run(int thread, std::uint32_t iteration, bool record) override {
        const ThreadProgram& program = programs_[thread];
        const std::size_t end = collective_end_[thread];
        if (end == program.tasks.size()) {
            run_collective(thread, iteration, record, 0, end);
        } else {
            run_around(thread, iteration, record);
        }
        transport_.finish(program.rank, iteration);
    }

private:
    struct Helper {
        std::thread thread;
        Flag start, done;
        std::atomic<bool> record{false};
    };

    // The collective's tasks [from, to) of the thread's program, in order, each after what it waits for.
    void run_collective(int thread, std::uint32_t iteration, bool record, std::size_t from, std::size_t to) {
        for (std::size_t k = from; k < to; ++k) run_task(thread, k, iteration, record);
    }

    void run_task(int thread, std::size_t k, std::uint32_t iteration, bool record) {
        const ThreadProgram& program = programs_[thread];
        for (int dep : program.waits[k]) transport_.wait(dep, iteration);
        if (!own_sends_.empty())
            for (int dep : own_sends_[thread][k]) transport_.wait(dep, iteration);
        const int id = program.tasks[k];
        const Clock::time_point begin = record ? Clock::now() : Clock::time_point{};
        const sched::Task& task = schedule_.task(id);
        if (task.kind == sched::TaskKind::flag)
            transport_.signal(id, iteration);
        else if (task.kind == sched::TaskKind::net)
            transport_.transfer(id, iteration, buffers_);
        else if (task.kind == sched::TaskKind::copy && !buffers_.holds(task.reads[0].buffer))
            transport_.copy_from_process(id, buffers_);
        else
            execute_locally(task);
        if (record) task_times_[id] = {begin, Clock::now()};
        if (announces_[thread][k]) transport_.wake(id);
    }

    bool ready(int thread, std::size_t k, std::uint32_t iteration) {
        for (int dep : programs_[thread].waits[k])
            if (!transport_.ready(dep, iteration)) return false;
        if (!own_sends_.empty())
            for (int dep : own_sends_[thread][k])
                if (!transport_.ready(dep, iteration)) return false;
        return true;
    }

    // The application around the collective: its computation, and its
    // progress calls. A call runs the collective's next tasks while they are
    // ready (the last one, MPI_Wait, all of them); with progress threads the
    // first call starts the rank's helper and the last waits for it.
    void run_around(int thread, std::uint32_t iteration, bool record) {
        const ThreadProgram& program = programs_[thread];
        const std::size_t end = collective_end_[thread];
        std::size_t next = 0;  // the collective's next task, under manual progress
        for (std::size_t k = end; k < program.tasks.size(); ++k) {
            const int id = program.tasks[k];
            const sched::Task& task = schedule_.task(id);
            const Clock::time_point begin = record ? Clock::now() : Clock::time_point{};
            const bool last = k + 1 == program.tasks.size();
            if (task.kind == sched::TaskKind::compute) {
                execute_locally(task);
            } else if (helpers_) {
                Helper& helper = helpers_[thread];
                if (k == end) {
                    helper.record.store(record, std::memory_order_relaxed);
                    helper.start.publish(iteration);
                    helper.start.wake();
                } else if (last) {
                    helper.done.wait_for(iteration, helpers_share_pus_[thread] ? 0 : Flag::spin_limit);
                }
            } else if (last) {
                run_collective(thread, iteration, record, next, end);
                next = end;
            } else {
                while (next < end && ready(thread, next, iteration)) run_task(thread, next++, iteration, record);
            }
            if (record) task_times_[id] = {begin, Clock::now()};
        }
    }

    // A progress thread's loop: the rank's share of each iteration's collective.
    void help(int thread) {
        Helper& helper = helpers_[thread];
        for (std::uint32_t iteration = 1;; ++iteration) {
            // Between iterations a helper on its rank's PU sleeps at once: the rank needs the core.
            helper.start.wait_for(iteration, helpers_share_pus_[thread] ? 0 : Flag::spin_limit);
            if (stopping_.load(std::memory_order_acquire)) return;
            run_collective(thread, iteration, helper.record.load(std::memory_order_relaxed), 0, collective_end_[thread]);
            helper.done.publish(iteration);
            helper.done.wake();
        }
    }

    void stop_progress_threads() {
        if (!helpers_) return;
        stopping_.store(true, std::memory_order_release);
        for (std::size_t thread = 0; thread < programs_.size(); ++thread) {
            helpers_[thread].start.publish(std::numeric_limits<std::uint32_t>::max());
            helpers_[thread].start.wake();
            helpers_[thread].thread.join();
        }
        helpers_.reset();
    }

    TransportType& transport_;
    std::unique_ptr<Helper[]> helpers_;
    std::vector<bool> helpers_share_pus_;  // per program: its helper runs on the rank's own PU
    std::atomic<bool> stopping_{false};
};

}  // namespace numacoll::exec
