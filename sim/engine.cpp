#include "sim/engine.hpp"

#include <fmt/format.h>
#include <simgrid/kernel/Timer.hpp>
#include <simgrid/s4u.hpp>
#include <simgrid/version.h>
#include <fcntl.h>
#include <malloc.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <functional>
#include <set>
#include <unordered_map>

#include "common/error.hpp"
#include "common/fork_gate.hpp"
#include "common/output_file.hpp"
#include "common/progress.hpp"
#include "schedule/program_order.hpp"
#include "sim/comm_attachment.hpp"
#include "sim/huge_page_heap.hpp"
#include "sim/platform_lookups.hpp"
#include "sim/recycling_heap.hpp"
#include "sim/simgrid_platform.hpp"
#include "sim/task_plan.hpp"

namespace numacoll::sim {

namespace {

namespace sg = simgrid::s4u;

// SimGrid 3.34 gave each activity class its own completion signal and made
// start() wait for dependencies (3.32 needs vetoable_start() for that).
template <class ActivityPointer>
void start_activity(const ActivityPointer& activity) {
#if SIMGRID_VERSION >= 33400
    activity->start();
#else
    activity->vetoable_start();
#endif
}

// Runs the DAG: a task starts when its last predecessor ends; its steps run in order.
class JustInTimeRun {
public:
    JustInTimeRun(const TaskPlans& plans, const Successors& successors, const PlatformModel& model,
                  const SimgridPlatform& platform, const ApplicationRoles& application, HugePageHeap* heap = nullptr)
        : plans_(plans), successors_(successors), platform_(platform),
          core_bytes_per_ns_(model.params().reduce_bytes_per_ns.value), routes_(model),
          merge_bytes_(model.params().llc_merge_bytes ? model.params().llc_merge_bytes->value : 0),
          waiting_on_(plans.size(), 0),
          next_step_(plans.size(), 0), current_(plans.size()), busy_until_ns_(platform.slot_count(), 0.0),
          queue_busy_(static_cast<std::size_t>(plans.queue_count()), 0),
          queue_waiting_(static_cast<std::size_t>(plans.queue_count())),
          progress_("simulating", "tasks", plans.size()),
          application_(application), around_(!application.empty()), heap_(heap) {
        timeline_.tasks.resize(plans.size());
        for (int id : successors.ids) ++waiting_on_[id];
        if (around_) prepare_application();
    }

    sched::Timeline run(SimulationStats& stats) {
#if SIMGRID_VERSION >= 33400
        sg::Comm::on_completion_cb([this](const sg::Comm& activity) { on_completion(activity); });
        sg::Exec::on_completion_cb([this](const sg::Exec& activity) { on_completion(activity); });
#else
        sg::Activity::on_completion_cb([this](const sg::Activity& activity) { on_completion(activity); });
#endif
        if (around_ && application_.strategy == ProgressStrategy::shared_thread) start_pollers();
        // The tasks ready at the start, listed before any runs: a progress call
        // can return at once and make later ones ready.
        std::vector<int> ready;
        for (std::size_t id = 0; id < plans_.size(); ++id)
            if (waiting_on_[id] == 0) ready.push_back(static_cast<int>(id));
        for (int id : ready) {
            if (is_call(id))
                enter_call(id);
            else
                begin(id);
        }
        sg::Engine::get_instance()->run();
        for (const auto& poller : retired_pollers_) poller->cancel();
        for (std::size_t id = 0; id < plans_.size(); ++id)
            if (!finished(static_cast<int>(id)))
                throw Error(fmt::format("simulation stopped before task {} ran (does the DAG have a cycle?)", id));
        stats.activities = activities_;
        stats.timers = timers_;
        stats.comms_kept_attached = comms_kept_attached_count();
        for (const auto& time : timeline_.tasks) timeline_.makespan_ns = std::max(timeline_.makespan_ns, time.end_ns);
        return std::move(timeline_);
    }

private:
    bool finished(int id) const { return next_step_[id] == plans_[id].steps.size() + 1; }

    void begin(int id) {
        timeline_.tasks[id].start_ns = sg::Engine::get_clock();
        advance(id, false);
    }

    // After the task's current step (when `step_ended`), starts its next
    // step, or ends the task and releases its successors.
    void advance(int id, bool step_ended = true) {
        const std::size_t step = next_step_[id]++;
        int progressing_rank = -1;
        if (around_ && step_ended) progressing_rank = step_ended_in_application(id, plans_[id].steps[step - 1]);
        if (step_ended && plans_[id].queue >= 0 && plans_[id].steps[step - 1].kind == Step::Kind::transfer)
            next_in_queue(plans_[id].queue);
        if (step_ended && !waiting_for_fetch_.empty()) fetch_ended(id, static_cast<int>(step - 1));
        if (step < plans_[id].steps.size()) {
            start(id, plans_[id].steps[step]);
        } else {
            timeline_.tasks[id].end_ns = sg::Engine::get_clock();
            task_done();
            if (current_[id]) retired_.push_back(std::move(current_[id]));
            if (around_ && application_.roles[id] == ApplicationRoles::Role::collective) collective_task_ended(id);
            release_successors(id);
        }
        if (progressing_rank >= 0) try_return(progressing_rank);
    }

    void release_successors(int id) {
        for (std::size_t at = successors_.first[id]; at < successors_.first[id + 1]; ++at) {
            const int next = successors_.ids[at];
            if (around_ && is_call(next)) {
                // A progress call is entered when the rank's own program reaches it,
                // and returns once the rest of its dependencies are done too.
                --waiting_on_[next];
                if (application_.roles[id] != ApplicationRoles::Role::collective && --calls_waiting_on_[next] == 0)
                    enter_call(next);
                else if (waiting_on_[next] == 0)
                    try_return(application_.ranks[next]);
                continue;
            }
            if (--waiting_on_[next] == 0) begin(next);
        }
    }

    bool is_call(int id) const { return around_ && application_.roles[id] == ApplicationRoles::Role::progress_call; }

    void task_done() {
        progress_.advance(++tasks_done_);
        if (heap_ != nullptr && tasks_done_ % 4096 == 0) heap_->advise_growth();
    }

    void prepare_application() {
        const std::size_t ranks = application_.rank_cores.size();
        open_call_.assign(ranks, -1);
        parked_.assign(ranks, {});
        busy_.assign(ranks, 0);
        collective_left_.assign(ranks, 0);
        pollers_.assign(ranks, nullptr);
        polling_paused_.assign(ranks, 0);
        calls_waiting_on_.assign(plans_.size(), 0);
        for (std::size_t id = 0; id < plans_.size(); ++id) {
            if (application_.roles[id] == ApplicationRoles::Role::collective) ++collective_left_[application_.ranks[id]];
            if (application_.roles[id] == ApplicationRoles::Role::collective) continue;
            for (std::size_t at = successors_.first[id]; at < successors_.first[id + 1]; ++at)
                if (is_call(successors_.ids[at])) ++calls_waiting_on_[successors_.ids[at]];
        }
    }

    // The rank enters the progress engine: what waited for it starts.
    void enter_call(int call) {
        const int rank = application_.ranks[call];
        timeline_.tasks[call].start_ns = sg::Engine::get_clock();
        open_call_[rank] = call;
        std::vector<int> waiting;
        waiting.swap(parked_[rank]);
        for (int id : waiting) {
            ++busy_[rank];
            launch(id, plans_[id].steps[next_step_[id] - 1]);
        }
        try_return(rank);
    }

    // Ends the rank's progress call once its dependencies are done and
    // nothing of the collective runs or waits on the rank's processor.
    void try_return(int rank) {
        const int call = open_call_[rank];
        if (call < 0 || waiting_on_[call] > 0 || busy_[rank] > 0 || !parked_[rank].empty()) return;
        open_call_[rank] = -1;
        timeline_.tasks[call].end_ns = sg::Engine::get_clock();
        next_step_[call] = static_cast<std::uint32_t>(plans_[call].steps.size() + 1);
        task_done();
        release_successors(call);
    }

    // Bookkeeping for a step that has just ended: the rank whose progress it
    // needed (-1: none), and the shared progress thread's polling.
    int step_ended_in_application(int id, const Step& step) {
        if (step.kind == Step::Kind::shared_work && application_.roles[id] == ApplicationRoles::Role::collective)
            resume_polling(application_.ranks[id]);
        if (step.progress_of < 0) return -1;
        --busy_[step.progress_of];
        return step.progress_of;
    }

    // A polling progress thread on each rank's core (shared-thread), from the
    // start until the rank's share of the collective ends; it does the
    // collective's work itself, so it stops polling while that work runs.
    // Polling is an Exec that is suspended for good when it stops, and a new
    // one when it starts again: SimGrid 3.32 keeps a cancelled Exec's share of
    // the core until the CPU model's next event (measured: the computation
    // beside it kept half the core), and a resumed Exec cannot be suspended
    // again (its suspended flag stays set).
    void start_pollers() {
        for (std::size_t rank = 0; rank < pollers_.size(); ++rank)
            if (collective_left_[rank] > 0) start_polling(static_cast<int>(rank));
    }

    void start_polling(int rank) {
        auto exec = sg::Exec::init();
        exec->set_flops_amount(1e18);
        exec->set_host(platform_.host(application_.rank_cores[rank]));
        exec->set_data(reinterpret_cast<void*>(poller_tag));
        start_activity(exec);
        pollers_[rank] = exec;
        ++activities_;
    }

    void stop_polling(int rank) {
        if (!pollers_[rank]) return;
        pollers_[rank]->suspend();
        retired_pollers_.push_back(std::move(pollers_[rank]));
        pollers_[rank] = nullptr;
    }

    void pause_polling(int rank) {
        if (application_.strategy == ProgressStrategy::shared_thread && polling_paused_[rank]++ == 0) stop_polling(rank);
    }

    void resume_polling(int rank) {
        if (application_.strategy == ProgressStrategy::shared_thread && --polling_paused_[rank] == 0 &&
            collective_left_[rank] > 0)
            start_polling(rank);
    }

    // The rank's share is over: its progress thread stops polling.
    void collective_task_ended(int id) {
        const int rank = application_.ranks[id];
        if (--collective_left_[rank] == 0) stop_polling(rank);
    }

    void start(int id, const Step& step) {
        if (around_ && step.progress_of >= 0) {
            // Manual progress: this step waits for its rank to call into the library.
            if (open_call_[step.progress_of] < 0) {
                parked_[step.progress_of].push_back(id);
                return;
            }
            ++busy_[step.progress_of];
        }
        launch(id, step);
    }

    void launch(int id, const Step& step) {
        if (around_ && step.kind == Step::Kind::shared_work &&
            application_.roles[id] == ApplicationRoles::Role::collective)
            pause_polling(application_.ranks[id]);
        if (step.kind == Step::Kind::serial || step.kind == Step::Kind::gap) {
            // One at a time on its core or NIC, in the order they start; a
            // gap's task goes on once it holds the NIC, a serial step's once
            // it is over.
            double& busy_until = busy_until_ns_[platform_.slot(step.from)];
            const double start_ns = std::max(busy_until, sg::Engine::get_clock());
            busy_until = start_ns + step.amount;
            simgrid::kernel::timer::Timer::set(step.kind == Step::Kind::gap ? start_ns : busy_until,
                                               [this, id] { advance(id); });
            ++timers_;
            return;
        }
        if (step.kind == Step::Kind::work) {
            // Work on a core that runs one rank contends with nothing: a
            // SimGrid timer of its exact duration, not an activity the
            // sharing solver would have to track.
            const double duration_ns = step.amount / core_bytes_per_ns_;
            simgrid::kernel::timer::Timer::set(sg::Engine::get_clock() + duration_ns, [this, id] { advance(id); });
            ++timers_;
            return;
        }
        if (step.kind == Step::Kind::transfer && plans_[id].queue >= 0) {
            // Behind the transfers of its message queue that came first.
            const auto queue = static_cast<std::size_t>(plans_[id].queue);
            if (queue_busy_[queue]) {
                queue_waiting_[queue].push_back({id, sg::Engine::get_clock()});
                return;
            }
            queue_busy_[queue] = 1;
        }
        start_activity_of(id, step);
    }

    // A queued transfer has ended: the next of its queue starts. Its bytes
    // follow the last one's on the wire, and it still arrives a latency after
    // it was ready at the earliest: the latency that passed while it waited
    // is credited (a queue's messages share one route, so one latency L).
    // It ends at max(ready + L, now) + bytes / bandwidth.
    void next_in_queue(int queue_id) {
        const auto queue = static_cast<std::size_t>(queue_id);
        if (queue_waiting_[queue].empty()) {
            queue_busy_[queue] = 0;
            return;
        }
        const auto [next, ready_ns] = queue_waiting_[queue].front();
        queue_waiting_[queue].pop_front();
        platform_.credit_latency_of_next_comm(sg::Engine::get_clock() - ready_ns);
        start_activity_of(next, plans_[next].steps[next_step_[next] - 1]);
    }

    // A transfer or shared work as a SimGrid activity.
    void start_activity_of(int id, const Step& step) {
        sg::ActivityPtr activity;
        if (step.kind == Step::Kind::transfer) {
            const Endpoint& from = source_of(id, step);
            auto comm = sg::Comm::sendto_init(platform_.host(from), platform_.host(step.to));
            comm->set_payload_size(static_cast<std::uint64_t>(step.amount + 0.5));
            comm->set_data(reinterpret_cast<void*>(static_cast<std::intptr_t>(id)));
            start_activity(comm);
            activity = comm;
        } else {  // shared_work: the ranks on this core share its speed
            auto exec = sg::Exec::init();
            exec->set_flops_amount(step.amount);
            exec->set_host(platform_.host(step.from));
            exec->set_data(reinterpret_cast<void*>(static_cast<std::intptr_t>(id)));
            start_activity(exec);
            activity = exec;
        }
        ++activities_;
        // Never drop the last handle of an activity inside its own completion
        // callback (SimGrid would free it under its feet): retire it instead.
        if (current_[id]) retired_.push_back(std::move(current_[id]));
        current_[id] = std::move(activity);
    }

    // Where a transfer reads from. A copy that another task makes serves it
    // once that task has ended; where the LLCs merge misses, from the moment
    // the task's fetch of the bytes has started: a read that starts while the
    // fetch runs ends no earlier than it.
    const Endpoint& source_of(int id, const Step& step) {
        const int maker = step.source_ready_after;
        if (maker < 0) return step.from;
        if (merge_bytes_ == 0) return finished(maker) ? step.from : step.fallback_from;
        const Fetch fetch = fetch_of(maker, step.fallback_from);
        if (fetch.ended) return step.from;
        if (!fetch.started) return step.fallback_from;
        merged_reads_[id] = {maker, fetch.last_step};
        return step.from;
    }

    // How far task `maker` is with its fetch from `source`: its transfers
    // from there (a task's steps run in order, and next_step_ is one past the
    // step that runs).
    struct Fetch {
        bool started = false, ended = false;
        int last_step = -1;
    };
    Fetch fetch_of(int maker, const Endpoint& source) const {
        const auto steps = plans_[maker].steps;
        int first = -1, last = -1;
        for (std::size_t at = 0; at < steps.size(); ++at)
            if (steps[at].kind == Step::Kind::transfer && steps[at].from == source) {
                if (first < 0) first = static_cast<int>(at);
                last = static_cast<int>(at);
            }
        if (finished(maker)) return {true, true, last};
        if (last < 0) return {false, false, last};  // no fetch from there: the copy serves once the task has ended
        const auto next = static_cast<long>(next_step_[maker]);
        return {next >= first + 1, next >= last + 2, last};
    }

    // Step `step` of task `id` has ended: reads that merged with it, and
    // have streamed what had arrived, end once they have moved the last
    // merge unit at their stream's rate (their request for it is long out:
    // no latency).
    void fetch_ended(int id, int step) {
        const auto found = waiting_for_fetch_.find(fetch_key(id, step));
        if (found == waiting_for_fetch_.end()) return;
        for (const int reader : found->second) {
            const Step& read = plans_[reader].steps[next_step_[reader] - 1];
            const double tail_ns =
                routes_.uncontended_ns(read.from, read.to, merge_bytes_) - routes_.uncontended_ns(read.from, read.to, 0);
            simgrid::kernel::timer::Timer::set(sg::Engine::get_clock() + tail_ns, [this, reader] { advance(reader); });
            ++timers_;
        }
        waiting_for_fetch_.erase(found);
    }

    static std::uint64_t fetch_key(int maker, int step) {
        return static_cast<std::uint64_t>(static_cast<std::uint32_t>(maker)) << 32 | static_cast<std::uint32_t>(step);
    }

    void on_completion(const sg::Activity& activity) {
        // Activities retired before this callback have finished theirs: release them.
        retired_.clear();
        const auto id = reinterpret_cast<std::intptr_t>(activity.get_data<void>());
        if (id == poller_tag) return;  // a progress thread stopped polling
        if (!merged_reads_.empty()) {
            const auto merged = merged_reads_.find(static_cast<int>(id));
            if (merged != merged_reads_.end()) {
                const auto [maker, last_step] = merged->second;
                merged_reads_.erase(merged);
                // Read all that had arrived, ahead of the fetch: wait for it.
                if (!finished(maker) && static_cast<long>(next_step_[maker]) < last_step + 2) {
                    waiting_for_fetch_[fetch_key(maker, last_step)].push_back(static_cast<int>(id));
                    return;
                }
            }
        }
        advance(static_cast<int>(id));
    }

    static constexpr std::intptr_t poller_tag = -1;  // the data of a polling Exec

    const TaskPlans& plans_;
    const Successors& successors_;
    const SimgridPlatform& platform_;
    const double core_bytes_per_ns_;
    NodeRoutes routes_;          // merge units' reads
    const double merge_bytes_;   // params llc.merge_bytes, 0: the LLCs do not merge
    // Reads that merged with a fetch in flight, by reader: (maker, its fetch's last step).
    std::unordered_map<int, std::pair<int, int>> merged_reads_;
    // Merged reads that finished streaming before the fetch: by (maker, step).
    std::unordered_map<std::uint64_t, std::vector<int>> waiting_for_fetch_;
    std::vector<int> waiting_on_;
    std::vector<std::uint32_t> next_step_;
    std::vector<sg::ActivityPtr> current_;
    std::vector<sg::ActivityPtr> retired_;
    std::vector<double> busy_until_ns_;  // serial resources (cores, NICs), by platform slot
    std::vector<char> queue_busy_;                // per message queue: a transfer of it runs
    // Per message queue: the tasks whose transfer waits, in order, and when each was ready.
    std::vector<std::deque<std::pair<int, double>>> queue_waiting_;
    sched::Timeline timeline_;
    ProgressReport progress_;
    std::size_t tasks_done_ = 0;
    std::size_t activities_ = 0;
    std::size_t timers_ = 0;
    // The application around the collective (empty when none).
    const ApplicationRoles& application_;
    const bool around_;
    std::vector<int> open_call_;               // per rank: the progress call it is in, -1: computing
    std::vector<std::vector<int>> parked_;     // per rank: tasks whose next step waits for its progress
    std::vector<int> busy_;                    // per rank: steps running that needed its progress
    std::vector<int> calls_waiting_on_;        // per progress call: application tasks before it not done
    std::vector<int> collective_left_;         // per rank: its collective tasks not ended
    std::vector<sg::ExecPtr> pollers_;         // per rank: its polling progress thread (shared-thread)
    std::vector<int> polling_paused_;          // per rank: collective work running on its progress thread
    std::vector<sg::ExecPtr> retired_pollers_;
    HugePageHeap* heap_;  // advised as the simulation's state grows (nullptr: left alone)
};

// The simulating process's heap grows this much at a time, each step in
// huge pages where the kernel gives them (sim/huge_page_heap.hpp).
constexpr std::size_t huge_page_step_bytes = std::size_t{64} << 20;

// What the platform needs from the plans: the (from, to) pairs of their
// transfers, and the cores that run Exec activities (shared work).
struct PlansUse {
    std::set<SimgridPlatform::Pair> routes;
    std::set<Endpoint> exec_hosts;
};

// The distinct (from, to) pairs of many, in order of first appearance: an
// open-addressing table of indices (a power of two, linear probing, grown
// at half full). A million-task plan has 1.5 million transfers and a few
// thousand distinct routes; std::unordered_set spends a division by a prime
// per lookup (a program replaying a million tasks' plans: 15-30 ms with it,
// 10-13 ms this way).
class DistinctPairs {
public:
    void insert(const Endpoint& from, const Endpoint& to) {
        if (2 * (pairs_.size() + 1) > slots_.size()) grow();
        const std::size_t mask = slots_.size() - 1;
        for (std::size_t at = hash(from, to) & mask;; at = (at + 1) & mask) {
            std::uint32_t& slot = slots_[at];
            if (slot == empty) {
                slot = static_cast<std::uint32_t>(pairs_.size());
                pairs_.push_back({from, to});
                return;
            }
            if (pairs_[slot].first == from && pairs_[slot].second == to) return;
        }
    }
    const std::vector<SimgridPlatform::Pair>& pairs() const { return pairs_; }

private:
    static constexpr std::uint32_t empty = 0xFFFFFFFF;
    static std::size_t hash(const Endpoint& from, const Endpoint& to) {
        auto key = [](const Endpoint& end) {
            return (static_cast<std::uint64_t>(end.kind) << 56) ^
                   (static_cast<std::uint64_t>(static_cast<std::uint32_t>(end.node)) << 28) ^
                   static_cast<std::uint64_t>(static_cast<std::uint32_t>(end.index));
        };
        const std::uint64_t mixed = (key(from) * 0x9E3779B97F4A7C15ull ^ key(to)) * 0xBF58476D1CE4E5B9ull;
        return static_cast<std::size_t>(mixed >> 32 ^ mixed);
    }
    void grow() {
        slots_.assign(std::max<std::size_t>(1024, 2 * slots_.size()), empty);
        const std::size_t mask = slots_.size() - 1;
        for (std::uint32_t index = 0; index < pairs_.size(); ++index) {
            std::size_t at = hash(pairs_[index].first, pairs_[index].second) & mask;
            while (slots_[at] != empty) at = (at + 1) & mask;
            slots_[at] = index;
        }
    }

    std::vector<std::uint32_t> slots_;
    std::vector<SimgridPlatform::Pair> pairs_;
};

// One pass over the steps. The result is ordered, as the platform creates
// its routes in that order.
PlansUse plans_use(const TaskPlans& plans) {
    DistinctPairs routes;
    PlansUse use;
    plans.for_each_step([&](const Step& step) {
        if (step.kind == Step::Kind::transfer) {
            routes.insert(step.from, step.to);
            if (step.source_ready_after >= 0) routes.insert(step.fallback_from, step.to);
        } else if (step.kind == Step::Kind::shared_work) {
            use.exec_hosts.insert(step.from);
        }
    });
    use.routes.insert(routes.pairs().begin(), routes.pairs().end());
    return use;
}

// Writes all of it, or exits: the parent then sees a short result.
void write_all(int fd, const void* data, std::size_t size) {
    const char* bytes = static_cast<const char*>(data);
    for (std::size_t written = 0; written < size;) {
        const ssize_t n = ::write(fd, bytes + written, size - written);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) ::_exit(3);
        written += static_cast<std::size_t>(n);
    }
}

// The --cfg and --log arguments every simulation's engine gets.
std::vector<std::string>& simgrid_arguments() {
    static std::vector<std::string> arguments;
    return arguments;
}

[[noreturn]] void send_failure(int fd, const std::string& message) {
    write_all(fd, "E", 1);
    write_all(fd, message.data(), message.size());
    ::close(fd);
    ::_exit(0);
}

// Everything the child does; it writes its result to `fd` and exits. The
// result goes straight from the timeline to the pipe: a copy of a
// million-task timeline would add to the simulation's peak memory.
[[noreturn]] void simulate_in_child(const PlatformModel& model, const TaskPlans& plans,
                                    const Successors& successors, const ApplicationRoles& application, int fd) {
    sched::Timeline timeline;
    SimulationStats stats;
    try {
        const auto started = std::chrono::steady_clock::now();
        // Quiet by default; the user's --log and --cfg come after, so theirs win.
        std::vector<std::string> arguments = {"numacoll-sim", "--log=root.thres:critical", "--log=xbt_cfg.thres:critical"};
        arguments.insert(arguments.end(), simgrid_arguments().begin(), simgrid_arguments().end());
        std::vector<char*> argv;
        for (std::string& argument : arguments) argv.push_back(argument.data());
        argv.push_back(nullptr);
        int argc = static_cast<int>(arguments.size());
        HugePageHeap heap(huge_page_step_bytes);
        // From here SimGrid's small objects are recycled by size (sim/recycling_heap.hpp).
        enable_recycling_heap();
        // Never destroyed: the child ends with _exit, and tearing down 4,096
        // nodes' zones, hosts and links took 6% of such a simulation.
        new sg::Engine(&argc, argv.data());
        SimgridPlatform::configure_engine();
        PlansUse use = plans_use(plans);
        if (application.strategy == ProgressStrategy::shared_thread)
            use.exec_hosts.insert(application.rank_cores.begin(), application.rank_cores.end());
        const SimgridPlatform platform(model, use.routes, use.exec_hosts, [&heap] { heap.advise_growth(); });
        heap.advise_growth();
        timeline = JustInTimeRun(plans, successors, model, platform, application, &heap).run(stats);
        stats.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
        rusage usage{};
        ::getrusage(RUSAGE_SELF, &usage);
        stats.peak_memory_bytes = usage.ru_maxrss * 1024L;
    } catch (const std::exception& error) {
        send_failure(fd, error.what());
    } catch (...) {
        send_failure(fd, "an exception that is not a std::exception left SimGrid");
    }
    const std::uint64_t count = timeline.tasks.size();
    const std::uint64_t created[] = {stats.activities, stats.timers, stats.comms_kept_attached,
                                     recycling_heap_slab_bytes(), PlatformIndex::answered_count()};
    write_all(fd, "O", 1);
    write_all(fd, &count, sizeof count);
    write_all(fd, timeline.tasks.data(), count * sizeof(sched::TaskTime));
    write_all(fd, &timeline.makespan_ns, sizeof(double));
    write_all(fd, &stats.wall_seconds, sizeof(double));
    write_all(fd, &stats.peak_memory_bytes, sizeof(long));
    write_all(fd, created, sizeof created);
    ::close(fd);
    ::_exit(0);
}

// Reads exactly `size` bytes; false at an early end of the pipe.
bool read_exactly(int fd, void* data, std::size_t size) {
    char* bytes = static_cast<char*>(data);
    for (std::size_t done = 0; done < size;) {
        const ssize_t n = ::read(fd, bytes + done, size - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        done += static_cast<std::size_t>(n);
    }
    return true;
}

// A child that has sent its whole result is reaped later: its exit (handing
// a simulation's memory back, 20-50 ms at a million tasks or 4,096 nodes)
// runs on another core while the caller writes its results. At most one is
// pending: the next simulation, or the end of the process, waits for it, so
// that a parent's peak memory as its own parent sees it (/usr/bin/time)
// still includes the child's.
std::vector<pid_t>& children_to_reap() {
    static std::vector<pid_t> pending;
    return pending;
}

// Waits for `child` to end; its status in `status` when given.
void wait_for(pid_t child, int* status = nullptr) {
    while (::waitpid(child, status, 0) < 0 && errno == EINTR) {
    }
}

void reap_children() {
    for (const pid_t child : children_to_reap()) wait_for(child);
    children_to_reap().clear();
}

void reap_later(pid_t child) {
    // The command line ends with quick_exit (cli/main.cpp); anything else with exit.
    static const bool at_exit = std::atexit(reap_children) == 0 && std::at_quick_exit(reap_children) == 0;
    children_to_reap().push_back(child);
    if (!at_exit) reap_children();
}

// The child's answer: a result, a failure message, or nothing usable.
struct ChildAnswer {
    char tag = 0;  // 'O' result, 'E' failure, 0 nothing
    bool complete = false;
    std::string failure;
    Simulation result;
};

ChildAnswer read_answer(int fd) {
    ChildAnswer answer;
    if (!read_exactly(fd, &answer.tag, 1)) return answer;
    if (answer.tag == 'E') {
        char buffer[4096];
        for (ssize_t n; (n = ::read(fd, buffer, sizeof buffer)) != 0;) {
            if (n < 0 && errno == EINTR) continue;
            if (n < 0) break;
            answer.failure.append(buffer, static_cast<std::size_t>(n));
        }
        answer.complete = true;
        return answer;
    }
    if (answer.tag != 'O') return answer;
    Simulation& result = answer.result;
    std::uint64_t count = 0;
    if (!read_exactly(fd, &count, sizeof count) || count > (std::uint64_t{1} << 40)) return answer;
    result.timeline.tasks.resize(count);
    std::uint64_t created[5] = {};
    answer.complete = read_exactly(fd, result.timeline.tasks.data(), count * sizeof(sched::TaskTime)) &&
                      read_exactly(fd, &result.timeline.makespan_ns, sizeof(double)) &&
                      read_exactly(fd, &result.stats.wall_seconds, sizeof(double)) &&
                      read_exactly(fd, &result.stats.peak_memory_bytes, sizeof(long)) &&
                      read_exactly(fd, created, sizeof created);
    result.stats.activities = created[0];
    result.stats.timers = created[1];
    result.stats.comms_kept_attached = created[2];
    result.stats.recycling_heap_bytes = created[3];
    result.stats.platform_lookups_indexed = created[4];
    return answer;
}

}  // namespace

Simulation simulate(const sched::Schedule& schedule, const PlatformModel& platform, ProgressStrategy progress) {
    if (schedule.nodes != platform.nodes())
        throw UsageError(fmt::format("the schedule spans {} node(s) but the platform has {}", schedule.nodes, platform.nodes()));
    return simulate_plans(platform, plan_tasks(schedule, platform, progress), Successors::of(schedule),
                          ApplicationRoles::of(schedule, progress));
}

Simulation simulate_planned(const sched::Schedule& schedule, const PlatformModel& platform, const TaskPlans& plans,
                            ProgressStrategy progress, const std::function<void()>& while_simulating) {
    if (schedule.nodes != platform.nodes())
        throw UsageError(fmt::format("the schedule spans {} node(s) but the platform has {}", schedule.nodes, platform.nodes()));
    if (plans.size() != static_cast<std::size_t>(schedule.task_count()))
        throw Error(fmt::format("simulate_planned: {} task plans for {} tasks", plans.size(), schedule.task_count()));
    return simulate_plans(platform, plans, Successors::of(schedule), ApplicationRoles::of(schedule, progress),
                          while_simulating);
}

ApplicationRoles ApplicationRoles::of(const sched::Schedule& schedule, ProgressStrategy strategy) {
    ApplicationRoles result;
    if (!schedule.has_application_tasks()) return result;
    result.strategy = strategy;
    result.roles.reserve(static_cast<std::size_t>(schedule.task_count()));
    result.ranks.reserve(static_cast<std::size_t>(schedule.task_count()));
    for (int id = 0; id < schedule.task_count(); ++id) {
        const sched::Task& task = schedule.task(id);
        result.roles.push_back(!task.application                     ? Role::collective
                               : task.kind == sched::TaskKind::wait ? Role::progress_call
                                                                    : Role::compute);
        result.ranks.push_back(task.thread);
    }
    for (const sched::RankInfo& rank : schedule.ranks)
        result.rank_cores.push_back({EndpointKind::core, rank.node, rank.core});
    return result;
}

Successors Successors::of(const sched::Schedule& schedule) {
    const sched::TaskRows& rows = schedule.successor_rows();
    Successors result;
    const std::vector<std::pair<int, int>> missing = sched::missing_program_order_edges(schedule);
    if (missing.empty()) {  // every generated schedule
        result.first.assign(rows.first.begin(), rows.first.end());
        result.ids = rows.ids;
        return result;
    }
    // A rank's program order that the file leaves out, after the file's own
    // successors of each task (schedule/program_order.hpp).
    std::vector<std::vector<int>> added(rows.size());
    for (const auto& [from, to] : missing) added[static_cast<std::size_t>(from)].push_back(to);
    result.first.reserve(rows.size() + 1);
    result.ids.reserve(rows.ids.size() + missing.size());
    for (std::size_t task = 0; task < rows.size(); ++task) {
        result.first.push_back(result.ids.size());
        result.ids.insert(result.ids.end(), rows.begin(static_cast<int>(task)), rows.end(static_cast<int>(task)));
        result.ids.insert(result.ids.end(), added[task].begin(), added[task].end());
    }
    result.first.push_back(result.ids.size());
    return result;
}

Successors Successors::from_lists(const std::vector<std::vector<int>>& lists) {
    Successors result;
    for (const auto& list : lists) {
        result.first.push_back(result.ids.size());
        result.ids.insert(result.ids.end(), list.begin(), list.end());
    }
    result.first.push_back(result.ids.size());
    return result;
}

Simulation simulate_plans(const PlatformModel& platform, const std::vector<TaskPlan>& plans,
                          const std::vector<std::vector<int>>& successors) {
    return simulate_plans(platform, TaskPlans(plans), Successors::from_lists(successors));
}

Simulation simulate_plans(const PlatformModel& platform, const TaskPlans& plans, const Successors& successors,
                          const ApplicationRoles& application, const std::function<void()>& while_simulating) {
    if (successors.task_count() != plans.size()) throw Error("simulate_plans: one successor list per task plan, please");
    if (!application.empty() && (application.roles.size() != plans.size() || application.ranks.size() != plans.size()))
        throw Error("simulate_plans: one application role per task plan, please");
    for (int rank : application.ranks)
        if (rank < 0 || static_cast<std::size_t>(rank) >= application.rank_cores.size())
            throw Error(fmt::format("simulate_plans: rank {} has no core", rank));
    plans.for_each_step([&](const Step& step) {
        if (step.progress_of >= 0 && static_cast<std::size_t>(step.progress_of) >= application.rank_cores.size())
            throw Error(fmt::format("simulate_plans: a step needs the progress of rank {}, which has no core", step.progress_of));
    });
    for (int id : successors.ids)
        if (id < 0 || static_cast<std::size_t>(id) >= plans.size())
            throw Error(fmt::format("simulate_plans: successor {} is not a task", id));
    for (std::size_t id = 0; id < plans.size(); ++id)
        if (plans[id].steps.empty()) throw Error(fmt::format("task {} has nothing to simulate (no steps)", id));
    reap_children();
    // The child starts with this process's resident pages: hand freed heap
    // back to the system first so that it does not count twice.
    ::malloc_trim(0);
    int pipe_fds[2];
    if (::pipe(pipe_fds) != 0) throw Error(fmt::format("cannot start a simulation: pipe: {}", std::strerror(errno)));
    // A million tasks' timeline is 16 MB: through the default 64 KiB pipe
    // that was 256 hand-overs between the processes, 20-30 ms. As large a
    // pipe as the system allows (1 MiB by default); any size works.
    if (plans.size() * sizeof(sched::TaskTime) > 65536) ::fcntl(pipe_fds[1], F_SETPIPE_SZ, 1 << 20);
    std::fflush(nullptr);
    const pid_t parent = ::getpid();
    const pid_t child = fork_holding_gate();
    if (child < 0) {
        const int error = errno;
        ::close(pipe_fds[0]);
        ::close(pipe_fds[1]);
        throw Error(fmt::format("cannot start a simulation: fork: {}", std::strerror(error)));
    }
    if (child == 0) {
        // The child dies with its parent, and leaves the parent's files to the parent.
        reset_interrupt_cleanup();
        ::prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (::getppid() != parent) ::_exit(4);
        ::close(pipe_fds[0]);
        simulate_in_child(platform, plans, successors, application, pipe_fds[1]);
    }
    ::close(pipe_fds[1]);
    if (while_simulating) {
        try {
            while_simulating();
        } catch (...) {
            ::kill(child, SIGKILL);
            ::close(pipe_fds[0]);
            wait_for(child);
            throw;
        }
    }
    ChildAnswer answer = read_answer(pipe_fds[0]);
    ::close(pipe_fds[0]);
    if (answer.tag == 'O' && answer.complete) {
        reap_later(child);
        return std::move(answer.result);
    }
    int status = 0;
    wait_for(child, &status);
    if (answer.tag == 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
        throw Error(fmt::format("the SimGrid simulation crashed ({})",
                                WIFSIGNALED(status) ? fmt::format("signal {}", WTERMSIG(status))
                                                    : fmt::format("exit {}", WEXITSTATUS(status))));
    // SimGrid's messages can run to pages (a bad --cfg key lists every key): the first line says what.
    if (answer.tag == 'E') throw Error("simulation failed: " + answer.failure.substr(0, answer.failure.find('\n')));
    if (answer.tag != 'O') throw Error("the simulation sent back something that is not a result");
    throw Error("the simulation sent back a truncated result");
}

std::string simgrid_description() {
    int major = 0, minor = 0, patch = 0;
    sg_version_get(&major, &minor, &patch);
    std::string text = fmt::format("SimGrid {}.{}.{} (library {}.{}.{})", SIMGRID_VERSION_MAJOR, SIMGRID_VERSION_MINOR,
                                   SIMGRID_VERSION_PATCH, major, minor, patch);
    if (comm_attachment_built()) text += ", comms kept out of maestro's activity list";
    if (PlatformIndex::built()) text += ", indexed platform lookups";
    if (recycling_heap_built()) text += "; small objects recycled by size while simulating";
    return text;
}

const std::vector<std::string>& relied_on_simgrid_keys() {
    // The congestion model the cost model is calibrated against (CM02, no
    // cross-traffic, no TCP window), and the timing precision its unit of
    // time needs (both of SimGrid's names for it): docs/simulation.md says why.
    static const std::vector<std::string> keys = {"network/model", "network/crosstraffic", "network/TCP-gamma",
                                                  "precision/timing", "surf/precision"};
    return keys;
}

void set_simgrid_arguments(const std::vector<std::string>& configs, const std::vector<std::string>& logs) {
    std::vector<std::string> arguments;
    for (const std::string& config : configs) {
        const auto colon = config.find(':');
        if (colon == std::string::npos || colon == 0 || config.find_first_of(" \t") != std::string::npos)
            throw UsageError(fmt::format("--cfg '{}' must look like KEY:VALUE (SimGrid's configuration, e.g. "
                                         "maxmin/precision:1e-9)",
                                         config));
        const std::string key = config.substr(0, colon);
        const auto& relied = relied_on_simgrid_keys();
        if (std::find(relied.begin(), relied.end(), key) != relied.end())
            throw UsageError(fmt::format("--cfg {}: numacoll's cost model sets {} itself (it relies on {})", config, key,
                                         fmt::join(relied, ", ")));
        arguments.push_back("--cfg=" + config);
    }
    for (const std::string& log : logs) {
        if (log.empty() || log.find_first_of(" \t") != std::string::npos)
            throw UsageError(fmt::format("--log '{}' must be a SimGrid log setting, e.g. root.thres:info", log));
        arguments.push_back("--log=" + log);
    }
    simgrid_arguments() = std::move(arguments);
}

}  // namespace numacoll::sim
