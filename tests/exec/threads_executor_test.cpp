// Schedules executed for real on this machine's threads. Tree allreduce on
// 1 to 16 of them (more threads than cores on small machines, on purpose),
// sizes that are empty, one element, not multiples of the thread count or
// of a cache line, and 16 MiB, every operator; every other algorithm on a
// few thread counts; and corrupted results and barriers that do not wait
// must be caught.
#include "exec/element_types.hpp"
#include "exec/input_pattern.hpp"
#include "exec/kernels.hpp"
#include "exec/program_runner.hpp"
#include "exec/thread_transport.hpp"
#include "exec/threads_executor.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <cstring>
#include <map>
#include <thread>

#include "../algorithms/schedule_fixtures.hpp"

#include "algorithms/registry.hpp"
#include "schedule/process_form.hpp"

using namespace numacoll;

namespace {

using test::live;

sched::Schedule tree(int threads, std::uint64_t bytes, sched::ReduceOp op = sched::ReduceOp::sum,
                    std::map<std::string, std::string> options = {}) {
    sched::CollectiveSpec spec;
    spec.algorithm = "tree";
    spec.bytes = bytes;
    spec.op = op;
    spec.options = std::move(options);
    return test::on_live_machine(spec, threads);
}

sched::Schedule any(sched::Collective collective, const std::string& algorithm, int threads, std::uint64_t bytes,
                   int root = 0) {
    sched::CollectiveSpec spec;
    spec.collective = collective;
    spec.algorithm = algorithm;
    spec.bytes = bytes;
    spec.root = root;
    return test::on_live_machine(spec, threads);
}

exec::ExecOptions quick() {
    exec::ExecOptions options;
    options.warmup_iterations = 1;
    options.timed_iterations = 3;
    return options;
}

}  // namespace

class ThreadCounts : public ::testing::TestWithParam<int> {};

TEST_P(ThreadCounts, TreeAllreduceIsCorrect) {
    const int threads = GetParam();
    for (std::uint64_t bytes : {0u, 8u, 24u, 1000u, 8u * 1031u})
        for (auto op : {sched::ReduceOp::sum, sched::ReduceOp::prod, sched::ReduceOp::min, sched::ReduceOp::max}) {
            SCOPED_TRACE(testing::Message() << threads << " threads, " << bytes << " bytes, " << sched::to_string(op));
            const auto result = exec::run_on_threads(tree(threads, bytes, op), *live(), quick());
            EXPECT_EQ(result.stats.iterations, 3);
            EXPECT_LE(result.stats.min_ns, result.stats.median_ns);
            EXPECT_LE(result.stats.median_ns, result.stats.max_ns);
        }
}

INSTANTIATE_TEST_SUITE_P(Executor, ThreadCounts, ::testing::Values(1, 2, 3, 4, 5, 7, 8, 12, 16));

TEST(ThreadsExecutor, EveryTreeOptionIsCorrect) {
    for (int threads : {3, 6, 9})
        for (const char* arity : {"2", "3", "4"})
            for (const char* bcast : {"1stage", "2stage"})
                for (const char* strip : {"off", "64"}) {
                    SCOPED_TRACE(testing::Message() << threads << " threads, arity " << arity << ", " << bcast << ", strip " << strip);
                    EXPECT_NO_THROW(exec::run_on_threads(
                        tree(threads, 200, sched::ReduceOp::sum, {{"arity", arity}, {"bcast", bcast}, {"strip", strip}}),
                        *live(), quick()));
                }
}

TEST(ThreadsExecutor, SixteenMebibytesWithStripMining) {
    auto options = quick();
    options.timed_iterations = 1;
    for (int threads : {2, 16})
        EXPECT_NO_THROW(exec::run_on_threads(tree(threads, 16u << 20, sched::ReduceOp::sum, {{"strip", "1MiB"}}), *live(), options))
            << threads;
    EXPECT_NO_THROW(exec::run_on_threads(tree(3, 16u << 20, sched::ReduceOp::max, {{"strip", "off"}, {"bcast", "2stage"}}),
                                         *live(), options));
}

TEST(ThreadsExecutor, CorruptedOutputIsCaught) {
    auto options = quick();
    options.before_verify = [](int rank, double* output, std::size_t count) {
        if (rank == 2 && count > 5) output[5] += 1;
    };
    try {
        exec::run_on_threads(tree(4, 80), *live(), options);
        FAIL() << "a corrupted buffer passed verification";
    } catch (const exec::VerificationError& error) {
        EXPECT_NE(std::string(error.what()).find("rank 2 element 5"), std::string::npos) << error.what();
    }
}

// Every registered algorithm runs and verifies: reductions element by
// element, copies byte by byte (203 bytes: not whole doubles), barriers by
// their arrival and departure times; roots other than 0.
TEST(ThreadsExecutor, EveryAlgorithmIsCorrect) {
    for (const auto& info : algo::algorithm_registry())
        for (int threads : {1, 2, 3, 5}) {
            if (info.collective == sched::Collective::pingpong && threads < 2) continue;  // two ranks at least
            if (!algo::runs_on(info, threads)) continue;
            const bool barrier = info.collective == sched::Collective::barrier;
            const bool copies = !sched::is_reduction(info.collective) && !barrier;
            for (std::uint64_t bytes : barrier ? std::vector<std::uint64_t>{0}
                                     : copies  ? std::vector<std::uint64_t>{203, 70000}
                                               : std::vector<std::uint64_t>{200, 70000}) {
                SCOPED_TRACE(testing::Message() << sched::to_string(info.collective) << " " << info.name << ", "
                                                << threads << " threads, " << bytes << " bytes");
                const auto result =
                    exec::run_on_threads(any(info.collective, info.name, threads, bytes, threads - 1), *live(), quick());
                EXPECT_EQ(result.stats.iterations, 3);
            }
        }
}

// Every reduction algorithm on every element representation (one datatype
// each: the others of a representation run the same kernel), verified
// exactly: the allreduce tree with every operation MPI defines on it, the
// other algorithms each with one of them, in turn, so that every pair of
// representation and operation runs on several algorithms. 1,001 elements,
// an odd count that no cut divides evenly, on 2 to 5 threads in turn.
TEST(ThreadsExecutor, EveryReductionRunsOnEveryDatatypeAndOperation) {
    int turn = 0;
    for (const auto& info : algo::algorithm_registry()) {
        if (!sched::is_reduction(info.collective)) continue;
        const bool every_op = info.collective == sched::Collective::allreduce && info.name == "tree";
        for (sched::Datatype datatype : sched::one_datatype_per_representation()) {
            std::vector<sched::ReduceOp> ops = sched::operations_on(datatype);
            if (!every_op) ops = {ops[turn % ops.size()]};
            for (sched::ReduceOp op : ops) {
                const int threads = 2 + turn++ % 4;
                sched::CollectiveSpec spec;
                spec.collective = info.collective;
                spec.algorithm = info.name;
                spec.datatype = datatype;
                spec.op = op;
                spec.bytes = 1001 * sched::element_size(datatype);
                spec.root = threads - 1;
                SCOPED_TRACE(testing::Message() << sched::to_string(info.collective) << " " << info.name << ", "
                                                << sched::to_string(datatype) << " " << sched::to_string(op) << ", "
                                                << threads << " threads");
                auto options = quick();
                options.timed_iterations = 1;
                EXPECT_NO_THROW(exec::run_on_threads(test::on_live_machine(spec, threads), *live(), options));
            }
        }
    }
}

// The process form of every algorithm whose ranks are threads runs on
// threads too (threads share all memory): its copies in and out of the
// segment and its flags deliver the same verified results.
TEST(ThreadsExecutor, TheProcessFormOfEveryAlgorithmIsCorrect) {
    for (const auto& info : algo::algorithm_registry()) {
        for (int threads : {2, 3, 5}) {
            if (!algo::runs_on(info, threads)) continue;
            const bool barrier = info.collective == sched::Collective::barrier;
            const std::uint64_t bytes = barrier ? 0 : sched::is_reduction(info.collective) ? 8000 : 8003;
            SCOPED_TRACE(testing::Message() << sched::to_string(info.collective) << " " << info.name << ", "
                                            << threads << " threads");
            const sched::Schedule processes =
                sched::process_form(any(info.collective, info.name, threads, bytes, threads - 1));
            auto options = quick();
            options.timed_iterations = 2;
            EXPECT_NO_THROW(exec::run_on_threads(processes, *live(), options));
        }
    }
}

TEST(ThreadsExecutor, AWrongIndexOfAPairIsCaught) {
    sched::CollectiveSpec spec;
    spec.algorithm = "tree";
    spec.datatype = sched::Datatype::short_int;
    spec.op = sched::ReduceOp::minloc;
    spec.bytes = 40 * 8;
    auto options = quick();
    options.before_verify = [](int rank, double* output, std::size_t) {
        if (rank == 2) reinterpret_cast<exec::ValueIndex<short>*>(output)[17].index += 1;
    };
    try {
        exec::run_on_threads(test::on_live_machine(spec, 3), *live(), options);
        FAIL() << "a wrong index passed verification";
    } catch (const exec::VerificationError& error) {
        EXPECT_NE(std::string(error.what()).find("rank 2 element 17 is ("), std::string::npos) << error.what();
        EXPECT_NE(std::string(error.what()).find("the minloc of the inputs is ("), std::string::npos) << error.what();
        EXPECT_NE(std::string(error.what()).find("bytes of short_int"), std::string::npos) << error.what();
    }
}

TEST(ThreadsExecutor, CorruptedBroadcastByteIsCaught) {
    auto options = quick();
    options.before_verify = [](int rank, double* output, std::size_t) {
        if (rank == 1) reinterpret_cast<unsigned char*>(output)[201] ^= 0x10;
    };
    try {
        exec::run_on_threads(any(sched::Collective::bcast, "tree", 3, 203, 2), *live(), options);
        FAIL() << "a corrupted byte passed verification";
    } catch (const exec::VerificationError& error) {
        EXPECT_NE(std::string(error.what()).find("rank 1 byte 201"), std::string::npos) << error.what();
    }
}

// Rank 1 arrives 2 ms late: the barrier holds rank 0 back, and the same
// barrier without rank 1's arrival signal is caught letting it go.
TEST(ThreadsExecutor, BarrierThatDoesNotWaitIsCaught) {
    auto options = quick();
    options.before_arrival = [](int rank) {
        if (rank == 1) std::this_thread::sleep_for(std::chrono::milliseconds(2));
    };
    const auto barrier = any(sched::Collective::barrier, "tree", 2, 0);
    EXPECT_NO_THROW(exec::run_on_threads(barrier, *live(), options));
    int dropped = 0;
    const auto broken = test::rebuild(barrier, [&](int, const sched::Task& task, std::vector<int>&) {
        const bool arrival = task.kind == sched::TaskKind::flag && task.peer == 0;
        dropped += arrival;
        return !arrival;
    });
    ASSERT_EQ(dropped, 1);
    try {
        exec::run_on_threads(broken, *live(), options);
        FAIL() << "a barrier that lets rank 0 go early passed verification";
    } catch (const exec::VerificationError& error) {
        EXPECT_NE(std::string(error.what()).find("rank 0 left the barrier before rank 1 arrived"), std::string::npos)
            << error.what();
    }
}

TEST(ThreadsExecutor, BrokenScheduleIsCaught) {
    // Without its broadcast copy, rank 3 keeps a partial result: the check says so.
    const auto schedule = tree(4, 64);
    sched::Schedule broken;
    broken.spec = schedule.spec;
    broken.nodes = schedule.nodes;
    broken.ranks = schedule.ranks;
    for (const auto& buffer : schedule.buffers()) broken.add_buffer(buffer);
    std::vector<int> new_id(schedule.task_count(), -1);
    for (int id = 0; id < schedule.task_count(); ++id) {
        const auto& task = schedule.task(id);
        if (task.kind == sched::TaskKind::copy && task.thread == 3) continue;
        std::vector<int> deps;
        for (int dep : schedule.predecessors(id))
            if (new_id[dep] >= 0) deps.push_back(new_id[dep]);
        new_id[id] = broken.add_task(task, deps);
    }
    EXPECT_THROW(exec::run_on_threads(broken, *live(), quick()), exec::VerificationError);
}

TEST(ThreadsExecutor, TraceFollowsTheDependencies) {
    auto options = quick();
    options.trace = true;
    const auto schedule = tree(4, 4096);
    const auto result = exec::run_on_threads(schedule, *live(), options);
    ASSERT_EQ(result.timeline.tasks.size(), static_cast<std::size_t>(schedule.task_count()));
    for (int id = 0; id < schedule.task_count(); ++id) {
        const auto& time = result.timeline.tasks[id];
        EXPECT_LE(time.start_ns, time.end_ns);
        EXPECT_GE(time.start_ns, 0);
        for (int dep : schedule.predecessors(id)) {
            const auto& before = result.timeline.tasks[dep];
            // Same thread: strictly after. Another thread's flag: after it began (its
            // end stamp is taken just after the store that releases this task).
            if (schedule.task(dep).thread == schedule.task(id).thread)
                EXPECT_GE(time.start_ns, before.end_ns) << id;
            else
                EXPECT_GE(time.start_ns, before.start_ns) << id;
        }
    }
}

TEST(ThreadsExecutor, RefusesWhatItCannotRun) {
    algo::LayoutOptions layout;
    layout.nodes = 2;
    layout.ranks_per_node = 1;
    sched::CollectiveSpec spec;
    spec.algorithm = "tree";
    spec.bytes = 64;
    const auto two_nodes = algo::generate_schedule(spec, algo::make_layout(live(), layout));
    EXPECT_THROW(exec::run_on_threads(two_nodes, *live(), quick()), UsageError);
    auto options = quick();
    options.timed_iterations = -3;
    EXPECT_THROW(exec::run_on_threads(tree(2, 64), *live(), options), UsageError);
}

TEST(ThreadsExecutor, IterationsBySizeAreOsusCounts) {
    exec::HarnessOptions options;
    options.timed_iterations = exec::iterations_by_size;
    options.warmup_iterations = exec::iterations_by_size_warmup;
    exec::HarnessOptions small = options, large = options, chosen = options;
    exec::resolve_iterations(small, 8192);
    exec::resolve_iterations(large, 8193);
    EXPECT_EQ(small.timed_iterations, 1000);
    EXPECT_EQ(small.warmup_iterations, 200);
    EXPECT_EQ(large.timed_iterations, 100);
    EXPECT_EQ(large.warmup_iterations, 10);
    chosen.timed_iterations = 7;
    exec::resolve_iterations(chosen, 64);  // counts given stay as given
    EXPECT_EQ(chosen.timed_iterations, 7);
    EXPECT_EQ(chosen.warmup_iterations, 200);
}

TEST(ThreadsExecutor, ComputeTasksDoTheirWork) {
    // A barrier, then 20 Mflop on one rank: the iteration takes at least as
    // long as that work, which a core does at a few Gflop/s at the most
    // (64 flops per ns would be 16 doubles x 2 flops x 2 GHz).
    auto schedule = any(sched::Collective::barrier, "tree", 2, 0);
    test::add_compute_after_last(schedule, 20e6);
    const auto result = exec::run_on_threads(schedule, *live(), quick());
    EXPECT_GT(result.stats.min_ns, 20e6 / 64);
    EXPECT_GT(exec::compute_flops(1e6), 0);  // the kernel leaves a result that depends on its work
}

// Before each iteration a thread rewrites its input and clears its outputs:
// every buffer starts Modified in its owner's cache, as the cost model
// assumes, and no result of an earlier iteration survives into this one.
TEST(ThreadsExecutor, EachIterationStartsFromWrittenInputsAndClearedOutputs) {
    const auto schedule = any(sched::Collective::allreduce, "tree", 2, 256);
    exec::MemoryBinding binding(*live());
    const exec::Buffers buffers(schedule, binding, 0);
    const auto programs = exec::build_programs(schedule, 0);
    exec::ThreadTransport transport(schedule);
    exec::ProgramRunner<exec::ThreadTransport> work(schedule, programs, buffers, transport);
    for (int thread = 0; thread < static_cast<int>(programs.size()); ++thread) {
        const int rank = programs[thread].rank;
        const int output = schedule.output_of(rank);
        ASSERT_GE(output, 0);
        std::memset(buffers.bytes(output), 0x11, schedule.buffer(output).bytes);
        work.prepare(thread, 7);
        for (std::uint64_t i = 0; i < schedule.buffer(output).bytes; ++i)
            ASSERT_EQ(static_cast<std::uint8_t>(buffers.bytes(output)[i]), 0xff) << "rank " << rank << " byte " << i;
        const int input = schedule.input_of(rank);
        ASSERT_GE(input, 0);
        EXPECT_EQ(static_cast<std::uint8_t>(buffers.bytes(input)[3]), exec::input_byte(rank, 3, 7, schedule.spec.op));
    }
}

TEST(ThreadsExecutor, RefusesMoreThreadsOrMemoryThanTheMachineCanTake) {
    EXPECT_THROW(exec::check_thread_count(exec::max_threads_per_pu * live()->pu_count() + 1, *live()), UsageError);
    EXPECT_NO_THROW(exec::check_thread_count(exec::max_threads_per_pu * live()->pu_count(), *live()));
    // A rank with two buffers of 1 TiB: refused before anything is allocated.
    sched::Schedule huge;
    huge.ranks.push_back({});
    huge.add_buffer({"in0", 0, std::uint64_t{1} << 40, sched::BufferRole::input, -1});
    huge.add_buffer({"out0", 0, std::uint64_t{1} << 40, sched::BufferRole::output, -1});
    EXPECT_THROW(exec::check_buffer_memory(huge, 0, *live()), UsageError);
    EXPECT_NO_THROW(exec::check_buffer_memory(tree(2, 1 << 20), 0, *live()));
}
