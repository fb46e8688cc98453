// The MPI engine, run under mpirun with one process per node (ctest label
// "mpi": 2, 3 and 4 processes on this one machine, oversubscribed; and 3
// with MPI_THREAD_FUNNELED, where a communication thread calls MPI). Every
// process runs the same tests in the same order, so the collective calls
// inside them match. Every algorithm whose schedule has net tasks runs and
// is verified on 1-3 threads per node; a corrupted result on one node fails
// every process, and names the node, the rank and the element there; a
// schedule made for another node count is refused on every process alike.
// The MPI library's own collectives (the native baseline) are verified the
// same way, every one of them, with a root other than 0 and every operator.
#include "exec/input_pattern.hpp"
#include "exec/mpi_datatypes.hpp"
#include "exec/mpi_executor.hpp"
#include "exec/mpi_native.hpp"
#include "exec/ompi_tuned.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <set>
#include <string>

#include "../algorithms/schedule_fixtures.hpp"
#include "algorithms/registry.hpp"
#include "overlap/compose.hpp"
#include "topologies/machine.hpp"

using namespace numacoll;

namespace {

exec::MpiWorld* world = nullptr;

using test::live;

sched::Schedule generate(sched::Collective collective, const std::string& algorithm, int nodes, int threads,
                         std::uint64_t bytes) {
    sched::CollectiveSpec spec;
    spec.collective = collective;
    spec.algorithm = algorithm;
    spec.bytes = bytes;
    return test::on_live_machine(spec, threads, nodes);
}

int net_tasks(const sched::Schedule& schedule) {
    int count = 0;
    for (int id = 0; id < schedule.task_count(); ++id) count += schedule.task(id).kind == sched::TaskKind::net;
    return count;
}

exec::ExecOptions quick() {
    exec::ExecOptions options;
    options.warmup_iterations = 1;
    options.timed_iterations = 3;
    return options;
}

}  // namespace

TEST(MpiExecutor, EveryAlgorithmWithMessagesRunsAndVerifies) {
    const int nodes = world->size();
    int with_messages = 0, runs = 0;
    for (const algo::AlgorithmInfo& info : algo::algorithm_registry())
        for (int threads : {1, nodes == 4 ? 2 : 3})
            for (std::uint64_t bytes : {8u, 1000u, 65536u}) {
                if (!algo::runs_on(info, nodes * threads)) continue;
                ++runs;
                if (info.collective == sched::Collective::barrier) bytes = 0;  // it moves nothing
                SCOPED_TRACE(testing::Message() << sched::to_string(info.collective) << " " << info.name << ", "
                                                << nodes << " nodes x " << threads << " threads, " << bytes << " B");
                const sched::Schedule schedule = generate(info.collective, info.name, nodes, threads, bytes);
                const exec::MpiExecResult result = exec::run_on_mpi(schedule, *live(), quick(), *world);
                EXPECT_EQ(result.stats.iterations, 3);
                EXPECT_GT(result.stats.min_ns, 0);
                EXPECT_EQ(result.messages, net_tasks(schedule));
                with_messages += result.messages > 0;
            }
    // Every algorithm crossed nodes (a ping-pong of ranks 0 and 1 stays on
    // node 0 when nodes have several threads).
    EXPECT_GE(with_messages, runs - 3);
}

// Between nodes too, every representation of every datatype reduces with
// each operation MPI defines on it (one datatype per representation: the
// others run the same kernel), on 2 threads a node, 37 elements.
TEST(MpiExecutor, EveryDatatypeAndOperationReducesAcrossNodes) {
    for (sched::Datatype datatype : sched::one_datatype_per_representation())
        for (sched::ReduceOp op : sched::operations_on(datatype)) {
            SCOPED_TRACE(testing::Message() << sched::to_string(datatype) << " " << sched::to_string(op));
            sched::CollectiveSpec spec;
            spec.algorithm = "tree";
            spec.datatype = datatype;
            spec.op = op;
            spec.bytes = 37 * sched::element_size(datatype);
            const exec::MpiExecResult result =
                exec::run_on_mpi(test::on_live_machine(spec, 2, world->size()), *live(), quick(), *world);
            EXPECT_EQ(result.stats.iterations, 3);
        }
}

TEST(MpiExecutor, EveryProcessTimesTheSameIterations) {
    const sched::Schedule schedule = generate(sched::Collective::allreduce, "tree", world->size(), 1, 4096);
    const exec::MpiExecResult result = exec::run_on_mpi(schedule, *live(), quick(), *world);
    // The maximum over processes: every process holds the same figures.
    EXPECT_TRUE(world->same_everywhere(static_cast<unsigned long long>(result.stats.median_ns * 1000)));
}

TEST(MpiExecutor, ComputationAroundTheCollectiveRunsAndVerifies) {
    // Sends complete in later progress calls, receives are tested without
    // blocking, and several threads of a node share the receives.
    if (!world->thread_multiple()) GTEST_SKIP() << "needs MPI_THREAD_MULTIPLE";
    for (const std::string algorithm : {"tree", "tiled", "dissemination"})
        for (int threads : {1, 2})
            for (std::uint64_t bytes : {std::uint64_t{64}, std::uint64_t{96} << 10}) {
                SCOPED_TRACE(algorithm + " " + std::to_string(threads) + " threads " + std::to_string(bytes) + " B");
                overlap::ComputeSpec compute;
                compute.compute_ns = 20000;
                compute.test_every_ns = 2000;
                const auto schedule =
                    overlap::compose(generate(sched::Collective::allreduce, algorithm, world->size(), threads, bytes),
                                     compute, 1);
                EXPECT_NO_THROW(exec::run_on_mpi(schedule, *live(), quick(), *world));  // verifies every node
                compute.test_every_ns.reset();
                EXPECT_NO_THROW(exec::run_on_mpi(overlap::compose(generate(sched::Collective::allreduce, algorithm,
                                                                           world->size(), threads, bytes),
                                                                  compute, 1),
                                                 *live(), quick(), *world));
            }
}

TEST(MpiExecutor, RunsOnTheThreadLevelAskedFor) {
    EXPECT_EQ(world->thread_multiple(), std::getenv("NUMACOLL_TEST_MPI_THREAD") == nullptr) << world->describe();
}

TEST(MpiExecutor, ATraceHoldsEveryNodesTasks) {
    const sched::Schedule schedule = generate(sched::Collective::allreduce, "tiled", world->size(), 2, 4096);
    exec::ExecOptions options = quick();
    options.trace = true;
    const exec::MpiExecResult result = exec::run_on_mpi(schedule, *live(), options, *world);
    ASSERT_EQ(static_cast<int>(result.timeline.tasks.size()), schedule.task_count());
    for (int id = 0; id < schedule.task_count(); ++id) {
        const sched::TaskTime& time = result.timeline.tasks[id];
        EXPECT_LE(time.start_ns, time.end_ns) << "task " << id;
        EXPECT_GE(time.start_ns, 0) << "task " << id;
    }
    EXPECT_GT(result.timeline.makespan_ns, 0);
}

TEST(MpiExecutor, ACorruptedResultOnOneNodeFailsEveryProcess) {
    const int last = world->size() - 1;
    const sched::Schedule schedule = generate(sched::Collective::allreduce, "tree", world->size(), 2, 1024);
    exec::ExecOptions options = quick();
    options.before_verify = [&](int rank, double* output, std::size_t count) {
        if (schedule.ranks[rank].node == last && count > 5) output[5] += 1.0;
    };
    try {
        exec::run_on_mpi(schedule, *live(), options, *world);
        ADD_FAILURE() << "a corrupted result passed";
    } catch (const exec::VerificationError& error) {
        EXPECT_EQ(world->rank(), last);
        const std::string what = error.what();
        EXPECT_NE(what.find("node " + std::to_string(last)), std::string::npos) << what;
        EXPECT_NE(what.find("rank"), std::string::npos) << what;
        EXPECT_NE(what.find("element 5"), std::string::npos) << what;
    } catch (const exec::PeerFailure& failure) {
        EXPECT_NE(world->rank(), last);
        EXPECT_EQ(failure.exit_code, 1);
    }
}

TEST(MpiExecutor, AScheduleForAnotherNodeCountIsRefusedEverywhere) {
    const sched::Schedule schedule = generate(sched::Collective::allreduce, "tree", world->size() + 1, 1, 64);
    // Said once, by process 0; the others end quietly with the same code.
    if (world->rank() == 0)
        EXPECT_THROW(exec::run_on_mpi(schedule, *live(), quick(), *world), UsageError);
    else
        EXPECT_THROW(exec::run_on_mpi(schedule, *live(), quick(), *world), exec::PeerFailure);
    world->barrier();  // and nobody is left waiting
}

TEST(MpiExecutor, ProcessesWithDifferentSchedulesAreRefusedEverywhere) {
    // As when the nodes' machines differ and each generated its own.
    const std::uint64_t bytes = world->rank() == 0 ? 64 : 128;
    const sched::Schedule schedule = generate(sched::Collective::allreduce, "tree", world->size(), 1, bytes);
    if (world->rank() == 0)
        EXPECT_THROW(exec::run_on_mpi(schedule, *live(), quick(), *world), UsageError);
    else
        EXPECT_THROW(exec::run_on_mpi(schedule, *live(), quick(), *world), exec::PeerFailure);
    world->barrier();
}

TEST(MpiNative, EveryCollectiveOfTheLibraryIsVerified) {
    using C = sched::Collective;
    for (C collective : {C::allreduce, C::reduce, C::bcast, C::barrier, C::scatter, C::gather, C::allgather})
        for (std::uint64_t bytes : {0u, 8u, 1000u * 8u, 65536u}) {
            if (collective == C::barrier && bytes != 0) continue;
            for (auto op : {sched::ReduceOp::sum, sched::ReduceOp::max}) {
                SCOPED_TRACE(testing::Message() << sched::to_string(collective) << " " << bytes << " B "
                                                << sched::to_string(op));
                sched::CollectiveSpec spec;
                spec.collective = collective;
                spec.algorithm = "default";
                spec.bytes = bytes;
                spec.op = op;
                spec.root = world->size() - 1;
                const exec::MpiExecResult result = exec::run_native_collective(spec, *live(), quick(), *world);
                EXPECT_EQ(result.stats.iterations, 3);
                EXPECT_GT(result.stats.min_ns, 0);
            }
        }
}

// The MPI library's own MPI_Allreduce agrees with numacoll's reference on
// every datatype and operation MPI defines: numacoll's semantics are MPI's
// (unsigned integers wrap, logical results are 0 or 1, of equal values
// minloc and maxloc keep the smaller index). Where Open MPI 4.1 is known to
// depart from them, the pair is named (docs/execution.md): its op/avx
// component saturates 8- and 16-bit unsigned sums of 64 elements or more,
// and it compares MPI_UNSIGNED_LONG as signed in min and max (not
// MPI_UINT64_T nor MPI_UNSIGNED_LONG_LONG). Every
// other pair must agree, with any library.
TEST(MpiNative, EveryDatatypeAndOperationAgreesWithTheLibrary) {
    char version[MPI_MAX_LIBRARY_VERSION_STRING];
    int length = 0;
    MPI_Get_library_version(version, &length);
    const bool open_mpi_41 = std::string(version, length).find("Open MPI v4.1") != std::string::npos;
    const std::set<std::string> known = {"uint8 sum", "unsigned_char sum", "uint16 sum", "unsigned_short sum",
                                         "unsigned_long min", "unsigned_long max"};
    constexpr std::size_t count = 100;  // past the 64 elements op/avx starts at
    std::set<std::string> disagreements;
    for (sched::Datatype datatype : sched::all_datatypes())
        for (sched::ReduceOp op : sched::operations_on(datatype)) {
            const std::size_t size = sched::element_size(datatype);
            std::vector<std::byte> input(count * size), output(count * size), expected(count * size);
            exec::fill_elements(input.data(), world->rank(), 0, count, 5, datatype, op);
            exec::reduced_elements(expected.data(), world->size(), 0, count, 5, datatype, op);
            ASSERT_EQ(MPI_Allreduce(input.data(), output.data(), static_cast<int>(count), exec::mpi_datatype(datatype),
                                    exec::mpi_op(op), world->comm()),
                      MPI_SUCCESS);
            for (std::size_t i = 0; i < count; ++i)
                if (!exec::same_value(output.data() + i * size, expected.data() + i * size, datatype)) {
                    disagreements.insert(fmt::format("{} {}", sched::to_string(datatype), sched::to_string(op)));
                    break;
                }
        }
    for (const std::string& pair : disagreements)
        EXPECT_TRUE(open_mpi_41 && known.count(pair)) << "the MPI library's " << pair << " differs from MPI's semantics";
    if (world->rank() == 0 && !disagreements.empty()) {
        std::string listed;
        for (const std::string& pair : disagreements) listed += (listed.empty() ? "" : ", ") + pair;
        std::printf("the MPI library departs from MPI's semantics in: %s\n", listed.c_str());
    }
}

TEST(MpiNative, ACorruptedResultIsCaughtOnItsRank) {
    sched::CollectiveSpec spec;
    spec.collective = sched::Collective::allreduce;
    spec.algorithm = "default";
    spec.bytes = 800;
    exec::ExecOptions options = quick();
    options.before_verify = [](int rank, double* output, std::size_t) {
        if (rank == 0) output[3] = -1.0;
    };
    try {
        exec::run_native_collective(spec, *live(), options, *world);
        ADD_FAILURE() << "a corrupted result passed";
    } catch (const exec::VerificationError& error) {
        EXPECT_EQ(world->rank(), 0);
        EXPECT_NE(std::string(error.what()).find("element 3"), std::string::npos) << error.what();
    } catch (const exec::PeerFailure&) {
        EXPECT_NE(world->rank(), 0);
    }
}

TEST(MpiNative, WhatMpiHasNoCallForIsRefusedEverywhere) {
    sched::CollectiveSpec spec;
    spec.collective = sched::Collective::pingpong;
    spec.bytes = 8;
    EXPECT_THROW(exec::run_native_collective(spec, *live(), quick(), *world), UsageError);
    spec.collective = sched::Collective::allreduce;
    spec.bytes = 12;  // not whole doubles
    EXPECT_THROW(exec::run_native_collective(spec, *live(), quick(), *world), UsageError);
    world->barrier();
}

TEST(OmpiTuned, NamesMapToOpenMpisValues) {
    EXPECT_EQ(exec::find_ompi_tuned_algorithm(sched::Collective::bcast, "split-binary").mca_value, "split_binary_tree");
    EXPECT_EQ(exec::find_ompi_tuned_algorithm(sched::Collective::bcast, "binomial").id, 6);
    EXPECT_EQ(exec::find_ompi_tuned_algorithm(sched::Collective::reduce, "in-order-binary").mca_value, "in-order_binary");
    EXPECT_EQ(exec::find_ompi_tuned_algorithm(sched::Collective::allreduce, "recursive-doubling").id, 3);
    EXPECT_EQ(exec::ompi_algorithm_parameter(sched::Collective::allgather), "coll_tuned_allgather_algorithm");
    EXPECT_THROW(exec::find_ompi_tuned_algorithm(sched::Collective::bcast, "tiled"), UsageError);
    EXPECT_THROW(exec::find_ompi_tuned_algorithm(sched::Collective::pingpong, "linear"), UsageError);
}

int main(int argc, char** argv) {
    // NUMACOLL_TEST_MPI_THREAD=funneled: the same tests through the communication thread.
    const char* level = std::getenv("NUMACOLL_TEST_MPI_THREAD");
    exec::MpiWorld mpi(&argc, &argv,
                       level && std::string(level) == "funneled" ? MPI_THREAD_FUNNELED : MPI_THREAD_MULTIPLE);
    world = &mpi;
    ::testing::InitGoogleTest(&argc, argv);
    // One process's report is enough to read; the others print failures only.
    if (mpi.rank() != 0) ::testing::GTEST_FLAG(brief) = true;
    return RUN_ALL_TESTS();
}
