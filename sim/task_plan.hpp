// sim::plan_tasks: what each schedule task costs on the platform, as a
// sequence of steps (transfers between endpoints and work on a core).
//
// Where data lives (the one place this model is written down):
// - The paper's Modified-state setup (HPDC'13 section 3.4): every rank writes
//   its input just before the collective, so an input sits in its owner's
//   cache when it fits there, else in the DRAM of its buffer's NUMA node.
// - A copy or reduce by core t that writes m bytes leaves them in t's cache
//   when m fits in t's last-level cache of C bytes; a longer write keeps its
//   last C bytes there and its first m - C in the DRAM of the buffer's NUMA
//   node (its own stream evicted them). ("Fits" compares one range with the
//   whole LLC: strip mining exists to keep each chunk below it.) Inputs
//   were written the same way.
// - Evictions inside a stream: every byte a copy or reduce writes, and every
//   operand byte it reads from outside its LLC domain, enters its LLC, whose
//   oldest bytes leave once it is full; an operand the LLC held is read from
//   the next level for the part the stream's own evictions reach before its
//   reads do (evicted_in_stream in the .cpp gives the rule). One stream that
//   reads only what its LLC holds never loses it; a copy of twice the LLC
//   reads all its operand from DRAM. Streams running at once in one LLC are
//   not seen: planning takes one task at a time.
// - A read leaves a shared copy in the reader's socket when the range fits
//   in its LLC (the LLCs of both machines are inclusive): a later reader in
//   that socket gets the bytes from there instead of crossing sockets again.
//   This is the synergistic prefetching of HPDC'13 section 2.2 (a one-stage
//   broadcast crosses the inter-socket link once per socket, not once per
//   reader). A write leaves the writer's copy as the only one.
//   The copy exists once the task that made it has finished, in simulated
//   time: a read that starts earlier (the concurrent readers of a fan-out)
//   goes to where the bytes really are. Plans are built before the
//   simulation, so such a read carries both sources and the engine picks
//   one when the read starts (Step::source_ready_after).
//   Where the LLC merges concurrent misses (params llc.merge_bytes: Westmere's
//   inclusive L3, Magny-Cours' L3 with its probe filter), the copy serves
//   from the moment its maker's fetch of the bytes has started: a later
//   reader of the domain streams them from the LLC as they arrive and ends
//   no earlier than the fetch plus one merge unit's move at its stream's
//   rate (its request for it went out long before: no latency; the lines cross
//   the inter-socket link once, each reader pays its own LLC stream). A
//   read that starts before the fetch does fetches itself.
// - A domain's last-level caches hold at most their size: what a write or a
//   shared copy puts beyond it evicts the oldest ranges (first in, first
//   out, by task in planning order) to DRAM, and their shared copies vanish.
// - A net transfer lands in the DRAM of the destination buffer's NUMA node
//   (the NIC writes memory), and reads the source from DRAM.
// - With core.private_cache_bytes in the params: a copy or reduce on core t
//   whose reads and write together exceed that capacity finds t's own data
//   in t's LLC, not its private caches: its reads of t's cache and its write
//   to t's cache go between t's core and the LLC (the llc endpoint: the
//   same_socket level's cost, sharing the LLC's aggregate bandwidth). Where
//   the bytes live is unchanged: another core reads them at same_socket
//   either way. (One task's operands stand for its working set, as one
//   range stands for it against the LLC.)
//
// What a task costs:
// - copy:   read each input piece from where it lives into t's core, one
//           after the other, then write m bytes (to t's cache or to DRAM);
// - reduce: the same reads, then the reduction on t's core (input bytes
//           folded = m * (inputs - 1) at the datatype's rate,
//           costs::reduce_rate), then the write;
//   Reads and writes of t's own cache and the reduction touch nothing any
//   other thread uses: they are merged into one work step of the same
//   duration, after the transfers that do share resources. (When several
//   ranks share t's core, hyper-threads, that step is shared_work: the
//   ranks share the core's speed.)
// - flag:   one cache line from the setter's cache to the waiter's core,
//           then the flag's overhead (core.flag_overhead_ns) on the waiter's
//           core: the spin loop that notices the line and leaves;
// - net:    memory -> NIC -> network -> NIC -> memory (payload m, or 0 for a
//           pure synchronisation message), through the NIC nearest the
//           sender's and the receiver's NUMA node; with message overheads
//           (costs::MessageParams): o_s on the sender's core, the gap g on
//           its NIC, the transfer, then o_r on the receiver's core. The
//           messages from one rank to another move one after the other, in
//           the order they are ready (one message queue per ordered pair of
//           ranks: TaskPlans::queue_count): a pipeline's segments arrive
//           one by one, not all together at the end;
//   Between MPI processes of one node (RankKind::process) a hand-over is a
//   message too: the sender's flag costs o_s (process) on its core first,
//   and a copy or reduce that reads another rank's data o_r (process).
//   Processes sharing a segment (RankKind::shared_process) hand over as
//   threads do, by flags in the segment; their extra work is the copies into
//   and out of it, tasks like any other (sched::process_form). With single
//   copy, a copy from another process's exposed buffer moves its bytes as
//   any copy does, after the kernel's work on t's core: a serial step of
//   costs::SingleCopyParams' call_ns plus page_ns per 4 KiB page.
//   Overheads and gaps are serial steps: one core (or NIC) runs them one
//   after the other, so a root that sends p messages spends p·o_s.
// - compute: its flops on t's core, at the core's compute_flops_per_ns (a
//   work step: work is measured in bytes folded at reduce_bytes_per_ns, so
//   flops count for reduce_bytes_per_ns / compute_flops_per_ns bytes each);
// - wait:    a thread waiting for its dependencies: free (a work step of 0).
//
// With computation around the collective (application tasks), each step
// that needs a rank's progress engine names that rank (Step::progress_of:
// sim/progress.hpp says which), a rendezvous message first sends its request
// (a transfer of no payload on the message's route), and under the
// shared-thread strategy every work step on a rank's core is shared work.
// The application's compute is work on the rank's core; its progress calls
// are work steps of 0 that the engine opens and closes itself.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "schedule/schedule.hpp"
#include "sim/platform_model.hpp"
#include "sim/progress.hpp"

namespace numacoll::sim {

struct Step {
    // work: on a core that runs one rank, which contends with nothing;
    // shared_work: on a core that runs several ranks, which share its speed;
    // serial: `amount` ns of a core or NIC (`from`) that runs such steps one
    // at a time, in the order they start (message overheads);
    // gap: holds its NIC (`from`) for `amount` ns from when it gets it, one at
    // a time as serial steps, but the task goes on as soon as it has it:
    // LogGP's g is the interval between two messages leaving one NIC, not a
    // delay of each (Alexandrov et al. 1995: a lone message costs o_s + L + o_r).
    enum class Kind : std::uint8_t { transfer, work, shared_work, serial, gap };

    Step() = default;
    Step(Kind kind_of, Endpoint from_endpoint, Endpoint to_endpoint, double amount_of)
        : kind(kind_of), from(from_endpoint), to(to_endpoint), amount(amount_of) {}

    Kind kind = Kind::transfer;
    // With computation around the collective, the rank whose progress engine
    // must be running for this step to start (sim/progress.hpp); -1: none.
    // (Beside `kind`, in what would be padding: a million steps stay 56 bytes each.)
    int progress_of = -1;
    Endpoint from;   // transfer source, or the core that works
    Endpoint to;     // transfer destination
    double amount = 0;  // bytes moved, bytes folded (work), or ns (serial)
    // A transfer whose source is a copy another task makes: `from` only once
    // task `source_ready_after` has finished, `fallback_from` before that
    // (where the LLCs merge misses, `from` once that task's fetch has started:
    // the engine's rule, from params llc.merge_bytes).
    int source_ready_after = -1;
    Endpoint fallback_from{};
};

static_assert(sizeof(Step) == 56, "a step is 56 bytes: a million-task plan is about 60 MB of them");

// One task's steps, built by hand (tests, benchmarks).
struct TaskPlan {
    std::vector<Step> steps;  // run one after the other
    // The message queue its transfers wait in (TaskPlans::queue), -1: none.
    int queue = -1;
};

// One task's steps, as stored in TaskPlans.
struct TaskPlanView {
    std::span<const Step> steps;  // run one after the other
    int queue = -1;
};

// The steps of every task, in chunks of chunk_steps steps that never move
// once filled: a million tasks are a million steps or so, not a million
// small vectors, and adding steps never copies those already stored (a
// single array that grows by doubling copied and faulted in twice the
// steps when the count of tasks was not known in advance). A task's steps
// lie in one chunk; a task with more than chunk_steps gets a chunk of its own.
// Moving keeps every step where it is; there is no copy.
class TaskPlans {
public:
    static constexpr std::size_t chunk_steps = std::size_t{1} << 16;  // 3.5 MiB

    TaskPlans() = default;
    explicit TaskPlans(const std::vector<TaskPlan>& plans);
    TaskPlans(TaskPlans&&) noexcept = default;
    TaskPlans& operator=(TaskPlans&&) noexcept = default;
    TaskPlans(const TaskPlans&) = delete;
    TaskPlans& operator=(const TaskPlans&) = delete;

    // Room for `tasks` tasks' places, so that appending does not copy them.
    void reserve(std::size_t tasks);
    // Appends the next task's steps. `queue` >= 0: the task's transfers wait
    // in that message queue (below).
    void add(std::span<const Step> steps, int queue = -1);
    TaskPlanView operator[](std::size_t task) const {
        return {std::span<const Step>(begin_[task], count_[task]), queue_[task]};
    }
    // Message queues: the transfers of the tasks of one queue run one at a
    // time, in the order they are ready to start (the messages from one MPI
    // process to another leave in order, one after the other: one queue pair
    // or transport endpoint serves them; messages to different peers share
    // the links). Queues are numbered from 0.
    int queue_count() const { return queue_count_; }
    std::size_t size() const { return begin_.size(); }
    std::size_t step_count() const { return step_count_; }
    // Calls f(step) for every step, task by task.
    template <typename F>
    void for_each_step(F&& f) const {
        for (std::size_t task = 0; task < size(); ++task)
            for (const Step& step : (*this)[task].steps) f(step);
    }

private:
    std::vector<std::vector<Step>> chunks_;  // each filled within its first capacity
    std::vector<const Step*> begin_;          // per task: its first step
    std::vector<std::uint32_t> count_;        // per task: its steps
    std::vector<std::int32_t> queue_;         // per task: its message queue, -1: none
    int queue_count_ = 0;
    std::size_t step_count_ = 0;
};

// Plans a schedule's buffers and tasks one at a time, each in id order: what
// plan_tasks does for a whole schedule, for a schedule still being generated
// (sim/planning_beside_generation.hpp). Its plans equal plan_tasks' for the
// finished schedule when every input buffer was added before the first task
// (inputs are written before the collective starts) and `ranks`, `nodes`,
// `rank_kind`, `datatype` (its spec's) and `application_around` (the
// schedule has application tasks) are the finished schedule's. Error for a task that names a rank or
// buffer not added yet.
class TaskPlanner {
public:
    // `datatype`: the elements its reductions fold (costs::reduce_rate).
    TaskPlanner(const PlatformModel& platform, ProgressStrategy progress, std::vector<sched::RankInfo> ranks, int nodes,
                sched::RankKind rank_kind, sched::Datatype datatype, bool application_around,
                std::size_t expected_tasks = 0);
    ~TaskPlanner();
    TaskPlanner(const TaskPlanner&) = delete;
    TaskPlanner& operator=(const TaskPlanner&) = delete;

    void add_buffer(const sched::Buffer& buffer);
    void add_task(const sched::Task& task);
    std::size_t task_count() const;
    std::size_t buffer_count() const;
    // The plans so far; the planner is spent.
    TaskPlans take();

private:
    struct State;
    std::unique_ptr<State> state_;
};

// `progress`: how a schedule with computation around its collective
// (application tasks) advances (sim/progress.hpp); ignored without them.
TaskPlans plan_tasks(const sched::Schedule& schedule, const PlatformModel& platform,
                     ProgressStrategy progress = ProgressStrategy::manual);

}  // namespace numacoll::sim
