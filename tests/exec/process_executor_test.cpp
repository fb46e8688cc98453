// Ranks as MPI processes sharing their node's memory (exec/process_executor.hpp),
// under mpirun with 10 processes on this one machine, oversubscribed (ctest
// label "mpi"). The first k processes form a world of their own for every k
// from 1 to 10, so one job runs every process count; the others sleep
// meanwhile. Every process runs the same tests in the same order, so the
// collective calls inside them match, and a failure is agreed on, never
// left to one process.
//
// - Every algorithm's process form runs and is verified on 1 to 10
//   processes as 1, 2 or 3 nodes (whichever divide them).
// - Every datatype and operation reduces, on one node and across nodes.
// - A corrupted result on one rank fails every process and names the rank;
//   a schedule of threads, a schedule for another process count, and different
//   schedules on different processes are refused on every process alike.
#include "exec/process_executor.hpp"
#include "exec/process_transport.hpp"

#include <gtest/gtest.h>
#include <sched.h>
#include <sys/uio.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <cstdio>
#include <memory>
#include <string>
#include <thread>

#include "../algorithms/schedule_fixtures.hpp"
#include "algorithms/registry.hpp"
#include "schedule/process_form.hpp"
#include "topologies/machine.hpp"

using namespace numacoll;

namespace {

exec::MpiWorld* world = nullptr;

using test::live;

sched::Schedule processes(sched::CollectiveSpec spec, int ranks, int nodes) {
    return sched::process_form(test::on_live_machine(spec, ranks / nodes, nodes));
}

exec::ExecOptions quick() {
    exec::ExecOptions options;
    options.warmup_iterations = 1;
    options.timed_iterations = 3;
    return options;
}

int net_tasks(const sched::Schedule& schedule) {
    int count = 0;
    for (int id = 0; id < schedule.task_count(); ++id) count += schedule.task(id).kind == sched::TaskKind::net;
    return count;
}

// The processes outside a part wait here, asleep, for it to finish.
void meet_asleep() {
    MPI_Request request;
    MPI_Ibarrier(world->comm(), &request);
    for (int done = 0; !done; MPI_Test(&request, &done, MPI_STATUS_IGNORE))
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
}

// `body(part)` on the first `count` processes, as a world of their own. An
// exception that escapes it on one process ends the job: the others may be
// waiting for that one in a collective call.
template <typename Body>
void on_first(int count, Body&& body) {
    const std::unique_ptr<exec::MpiWorld> part = world->first_processes(count);
    if (part) {
        try {
            body(*part);
        } catch (const std::exception& error) {
            std::fprintf(stderr, "process %d of %d: %s\n", part->rank(), count, error.what());
            MPI_Abort(world->comm(), 1);
        }
    }
    meet_asleep();
}

}  // namespace

TEST(ProcessExecutor, EveryAlgorithmRunsAndVerifiesOnEveryProcessCount) {
    for (int count = 1; count <= world->size(); ++count)
        on_first(count, [&](const exec::MpiWorld& part) {
            for (int nodes = 1; nodes <= 3; ++nodes) {
                if (count % nodes != 0) continue;
                for (const algo::AlgorithmInfo& info : algo::algorithm_registry()) {
                    if (info.collective == sched::Collective::pingpong && count < 2) continue;
                    if (!algo::runs_on(info, count)) continue;
                    sched::CollectiveSpec spec;
                    spec.collective = info.collective;
                    spec.algorithm = info.name;
                    spec.root = count - 1;
                    if (info.collective == sched::Collective::pingpong) spec.options["peer"] = "0";
                    // Not a multiple of a line nor of most rank counts; copies move odd byte counts.
                    spec.bytes = info.collective == sched::Collective::barrier ? 0
                                 : sched::is_reduction(info.collective)        ? 1000
                                                                               : 1003;
                    SCOPED_TRACE(testing::Message() << sched::to_string(info.collective) << " " << info.name << ", "
                                                    << count << " processes as " << nodes << " nodes");
                    const sched::Schedule schedule = processes(spec, count, nodes);
                    const exec::MpiExecResult result = exec::run_on_processes(schedule, *live(), quick(), part);
                    EXPECT_EQ(result.stats.iterations, 3);
                    EXPECT_EQ(result.messages, net_tasks(schedule));
                }
            }
        });
}

// Single copy: every algorithm whose process form exposes an input (one
// that other ranks only copy from) runs with those copies made through the
// kernel, on one node and on two, and verifies.
TEST(ProcessExecutor, SingleCopyRunsAndVerifiesEveryAlgorithmThatExposesAnInput) {
    if (world->size() < 6) GTEST_SKIP() << "needs 6 processes";
    std::byte from{1}, to{};
    iovec local{&to, 1}, remote{&from, 1};
    if (process_vm_readv(getpid(), &local, 1, &remote, 1, 0) != 1) GTEST_SKIP() << "this system refuses process_vm_readv";
    int exposing = 0;
    for (const auto& [count, nodes] : {std::pair{3, 1}, std::pair{6, 2}})
        on_first(count, [&](const exec::MpiWorld& part) {
            for (const algo::AlgorithmInfo& info : algo::algorithm_registry()) {
                if (sched::is_reduction(info.collective) || info.collective == sched::Collective::barrier) continue;
                if (!algo::runs_on(info, count)) continue;
                sched::CollectiveSpec spec;
                spec.collective = info.collective;
                spec.algorithm = info.name;
                spec.root = count - 1;
                if (info.collective == sched::Collective::pingpong) spec.options["peer"] = "0";
                spec.bytes = 70000;  // more than a page, not a whole number of them
                const sched::Schedule schedule = sched::process_form(
                    test::on_live_machine(spec, count / nodes, nodes), {.single_copy = true});
                if (std::none_of(schedule.buffers().begin(), schedule.buffers().end(),
                                 [](const sched::Buffer& buffer) { return buffer.exposed; }))
                    continue;
                SCOPED_TRACE(testing::Message() << sched::to_string(info.collective) << " " << info.name << ", "
                                                << count << " processes as " << nodes << " nodes, single copy");
                const exec::MpiExecResult result = exec::run_on_processes(schedule, *live(), quick(), part);
                EXPECT_EQ(result.stats.iterations, 3);
                ++exposing;
            }
        });
    if (world->rank() == 0) {
        EXPECT_GT(exposing, 10);
    }
}

// The PUs the launcher bound each process to decide where its rank runs:
// here each process binds itself as a launcher would, then restores.
TEST(ProcessExecutor, EachProcessTakesAPuInsideItsLaunchersBinding) {
    if (world->size() < 4 || live()->pu_count() < 2) GTEST_SKIP() << "needs 4 processes and 2 PUs";
    // Every thread of the process, as a launcher's binding holds for all
    // (MPI's own threads included).
    const auto bind_all_threads = [](const cpu_set_t& set) {
        for (const auto& task : std::filesystem::directory_iterator("/proc/self/task"))
            (void)sched_setaffinity(static_cast<pid_t>(std::stol(task.path().filename().string())), sizeof set, &set);
    };
    const auto bind_to = [&](const std::vector<int>& logical_pus) {
        cpu_set_t set;
        CPU_ZERO(&set);
        for (int pu : logical_pus) CPU_SET(static_cast<unsigned>(live()->pu(pu).os_index), &set);
        bind_all_threads(set);
    };
    cpu_set_t original;
    ASSERT_EQ(sched_getaffinity(0, sizeof original, &original), 0);
    std::vector<int> all_pus;
    for (int pu = 0; pu < live()->pu_count(); ++pu) all_pus.push_back(pu);
    on_first(2, [&](const exec::MpiWorld& part) {
        // Bound to nothing narrower than the machine: nothing to follow.
        EXPECT_TRUE(exec::pus_from_launcher_bindings(part, *live()).empty());
        // Process 0 on PU 1 alone, process 1 anywhere: 1 chooses first's leftovers.
        bind_to(part.rank() == 0 ? std::vector<int>{1} : all_pus);
        EXPECT_EQ(exec::pus_from_launcher_bindings(part, *live()), (std::vector<int>{1, 0}));
        bind_all_threads(original);
    });
    on_first(4, [&](const exec::MpiWorld& part) {
        // Four processes bound to PU 0 share it.
        bind_to({0});
        EXPECT_EQ(exec::pus_from_launcher_bindings(part, *live()), (std::vector<int>{0, 0, 0, 0}));
        bind_all_threads(original);
    });
}

TEST(ProcessExecutor, EveryDatatypeAndOperationReducesOnOneNodeAndAcrossNodes) {
    if (world->size() < 4) GTEST_SKIP() << "needs 4 processes";
    for (const auto& [count, nodes] : {std::pair{3, 1}, std::pair{4, 2}})
        on_first(count, [&](const exec::MpiWorld& part) {
            for (sched::Datatype datatype : sched::one_datatype_per_representation())
                for (sched::ReduceOp op : sched::operations_on(datatype))
                    for (const char* algorithm : {"tiled", "dissemination"}) {
                        sched::CollectiveSpec spec;
                        spec.collective = sched::Collective::allreduce;
                        spec.algorithm = algorithm;
                        spec.datatype = datatype;
                        spec.op = op;
                        spec.bytes = 37 * sched::element_size(datatype);
                        SCOPED_TRACE(testing::Message() << sched::to_string(datatype) << " " << sched::to_string(op)
                                                        << " " << algorithm << " on " << count << " processes");
                        (void)exec::run_on_processes(processes(spec, count, nodes), *live(), quick(), part);
                    }
        });
}

// A slot of at most 48 bytes lies in the line of the flag that says it is
// filled, after the flag; a larger one has lines of its own.
TEST(ProcessExecutor, ASmallSlotSharesTheLineOfItsReadyFlag) {
    for (const std::uint64_t bytes : {8, 48, 64}) {
        SCOPED_TRACE(testing::Message() << bytes << " bytes");
        const sched::Schedule schedule = sched::process_form(
            test::schedule("westmere", sched::Collective::allreduce, "dissemination", bytes, 2, 1, 0));
        const exec::SegmentPlan plan = exec::plan_node_segment(schedule, 0);
        int slots = 0;
        for (int id = 0; id < schedule.task_count(); ++id) {
            if (schedule.task(id).label.text() != "copy-in-ready") continue;
            const int slot = schedule.task(schedule.predecessors(id).front()).write.buffer;
            const exec::SegmentPlan::Place flag = plan.flags[static_cast<std::size_t>(id)];
            const exec::SegmentPlan::Place data = plan.buffers[static_cast<std::size_t>(slot)];
            ASSERT_GE(flag.member, 0);
            EXPECT_EQ(data.member, flag.member);
            if (bytes <= exec::flag_payload_bytes)
                EXPECT_EQ(data.offset, flag.offset + exec::flag_payload_offset);
            else
                EXPECT_TRUE(data.offset + bytes <= flag.offset || data.offset >= flag.offset + sizeof(exec::SharedFlag));
            ++slots;
        }
        EXPECT_EQ(slots, 2);
    }
}

TEST(ProcessExecutor, ACorruptedResultOnOneRankFailsEveryProcess) {
    if (world->size() < 3) GTEST_SKIP() << "needs 3 processes";
    on_first(3, [&](const exec::MpiWorld& part) {
        sched::CollectiveSpec spec;
        spec.algorithm = "tree";
        spec.bytes = 1024;
        exec::ExecOptions options = quick();
        options.before_verify = [&](int rank, double* output, std::size_t) {
            if (rank == 1) output[5] += 1;
        };
        try {
            (void)exec::run_on_processes(processes(spec, 3, 1), *live(), options, part);
            ADD_FAILURE() << "a corrupted result passed";
        } catch (const exec::VerificationError& error) {
            EXPECT_EQ(part.rank(), 1);
            EXPECT_NE(std::string(error.what()).find("verification failed: rank 1 element 5"), std::string::npos)
                << error.what();
        } catch (const exec::PeerFailure& failure) {
            EXPECT_NE(part.rank(), 1);
            EXPECT_EQ(failure.exit_code, 1);
        }
    });
}

TEST(ProcessExecutor, WhatEveryProcessFindsAlikeIsRefusedByProcessZero) {
    if (world->size() < 2) GTEST_SKIP() << "needs 2 processes";
    sched::CollectiveSpec spec;
    spec.algorithm = "tree";
    spec.bytes = 64;
    const auto refused = [](const exec::MpiWorld& part, const sched::Schedule& schedule, const std::string& says) {
        try {
            (void)exec::run_on_processes(schedule, *live(), quick(), part);
            ADD_FAILURE() << "ran: " << says;
        } catch (const UsageError& error) {
            EXPECT_EQ(part.rank(), 0);
            EXPECT_NE(std::string(error.what()).find(says), std::string::npos) << error.what();
        } catch (const exec::PeerFailure& failure) {
            EXPECT_NE(part.rank(), 0);
            EXPECT_EQ(failure.exit_code, 2);
        }
    };
    on_first(2, [&](const exec::MpiWorld& part) {
        refused(part, test::on_live_machine(spec, 2, 1), "make it with --ranks-as processes");
        refused(part, processes(spec, 3, 1), "the schedule has 3 ranks and 2 MPI processes run it");
        // As when the processes' machines differ and each generated its own.
        sched::CollectiveSpec mine = spec;
        mine.bytes = part.rank() == 0 ? 64 : 128;
        refused(part, processes(mine, 2, 1), "the MPI processes made different schedules");
    });
}

int main(int argc, char** argv) {
    exec::MpiWorld mpi(&argc, &argv, MPI_THREAD_SINGLE);
    world = &mpi;
    ::testing::InitGoogleTest(&argc, argv);
    // One process's report is enough to read; the others print failures only.
    if (mpi.rank() != 0) ::testing::GTEST_FLAG(brief) = true;
    return RUN_ALL_TESTS();
}
