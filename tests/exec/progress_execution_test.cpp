// Collectives with computation around them, executed for real on this
// machine's threads: under manual progress a rank runs its share of the
// collective only inside its own progress calls (never while it computes),
// with progress threads the helpers run it; either way every output is
// verified. A rank whose collective tasks come after its computation began
// is refused.
#include "exec/threads_executor.hpp"

#include <gtest/gtest.h>

#include "../algorithms/schedule_fixtures.hpp"
#include "algorithms/registry.hpp"
#include "common/error.hpp"
#include "overlap/compose.hpp"

using namespace numacoll;

namespace {

using test::live;

sched::Schedule collective(const std::string& algorithm, int threads, std::uint64_t bytes) {
    sched::CollectiveSpec spec;
    spec.algorithm = algorithm;
    spec.bytes = bytes;
    return test::on_live_machine(spec, threads);
}

exec::ExecOptions traced() {
    exec::ExecOptions options;
    options.warmup_iterations = 1;
    options.timed_iterations = 3;
    options.trace = true;
    return options;
}

// Per rank, the application's tasks in order.
std::vector<std::vector<int>> application_chains(const sched::Schedule& schedule) {
    std::vector<std::vector<int>> chains(static_cast<std::size_t>(schedule.rank_count()));
    for (int id = 0; id < schedule.task_count(); ++id)
        if (schedule.task(id).application) chains[static_cast<std::size_t>(schedule.task(id).thread)].push_back(id);
    return chains;
}

}  // namespace

TEST(ManualProgress, TheCollectiveRunsOnlyInsideProgressCalls) {
    for (const std::string algorithm : {"tree", "tiled"})
        for (int threads : {2, 3}) {
            SCOPED_TRACE(algorithm + " on " + std::to_string(threads) + " threads");
            for (const std::optional<double> test_every : {std::optional<double>{}, std::optional<double>{20000}}) {
                overlap::ComputeSpec compute;
                compute.compute_ns = 100000;
                compute.test_every_ns = test_every;
                const sched::Schedule composed = overlap::compose(collective(algorithm, threads, 64 << 10), compute, 1);
                const auto result = exec::run_on_threads(composed, *live(), traced());  // verifies the outputs
                const auto& times = result.timeline.tasks;
                const auto chains = application_chains(composed);
                for (int id = 0; id < composed.task_count(); ++id) {
                    const sched::Task& task = composed.task(id);
                    if (task.application) continue;
                    // Inside one of its rank's progress calls (issue, tests, wait).
                    bool inside = false;
                    for (int call : chains[static_cast<std::size_t>(task.thread)])
                        if (composed.task(call).kind == sched::TaskKind::wait && times[id].start_ns >= times[call].start_ns &&
                            times[id].end_ns <= times[call].end_ns)
                            inside = true;
                    EXPECT_TRUE(inside) << "task " << id << " of rank " << task.thread << " ran outside its progress calls";
                }
            }
        }
}

TEST(ProgressThreads, RunTheCollectiveBesideTheComputation) {
    const int threads = 2;
    overlap::ComputeSpec compute;
    compute.compute_ns = 100000;
    const sched::Schedule composed = overlap::compose(collective("tree", threads, 64 << 10), compute, 1);
    exec::ExecOptions options = traced();
    // On each rank's own PU: this machine may have no spare one.
    for (int rank = 0; rank < composed.rank_count(); ++rank) options.progress_thread_pus.push_back(composed.ranks[rank].pu);
    const auto result = exec::run_on_threads(composed, *live(), options);  // verifies the outputs
    EXPECT_EQ(result.iteration_ns.size(), 3u);
    options.progress_thread_pus.pop_back();
    EXPECT_THROW(exec::run_on_threads(composed, *live(), options), UsageError);
}

TEST(ManualProgress, ARankMustIssueBeforeItComputes) {
    const sched::Schedule plain = collective("tree", 2, 64);
    overlap::ComputeSpec compute;
    compute.compute_ns = 1000;
    const sched::Schedule composed = overlap::compose(plain, compute, 1);
    // A task of rank 0's collective after its final wait.
    sched::Schedule late = composed;
    const int final_wait = application_chains(composed)[0].back();
    sched::Task extra;
    extra.kind = sched::TaskKind::wait;
    extra.thread = 0;
    late.add_task(extra, {final_wait});
    EXPECT_THROW(exec::run_on_threads(late, *live(), traced()), UsageError);
}
