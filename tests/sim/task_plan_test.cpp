// The data-location model of sim/task_plan.hpp, step by step.
#include "sim/task_plan.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>

#include "../algorithms/schedule_fixtures.hpp"
#include "algorithms/registry.hpp"
#include "common/error.hpp"
#include "schedule/sequence.hpp"
#include "sim/engine.hpp"
#include "sim_fixtures.hpp"

using namespace numacoll;
using sim::Endpoint;
using sim::EndpointKind;
using test::expect_near_relative;

namespace {
sched::Schedule tree(const std::shared_ptr<const topo::Machine>& machine, std::uint64_t bytes, int ranks,
                    std::map<std::string, std::string> options = {}) {
    algo::LayoutOptions layout;
    layout.ranks_per_node = ranks;
    sched::CollectiveSpec spec;
    spec.algorithm = "tree";
    spec.bytes = bytes;
    spec.options = std::move(options);
    return algo::generate_schedule(spec, algo::make_layout(machine, layout));
}
}  // namespace

TEST(TaskPlan, SmallVectorsStayInCaches) {
    const auto machine = test::load("westmere");
    const sim::PlatformModel platform(machine, costs::load_params("westmere"), 1);
    const auto schedule = tree(machine, 64, 2);
    const auto plans = sim::plan_tasks(schedule, platform);
    // Task 1: rank 0 reads rank 1's input from rank 1's cache (shared
    // resources), then its own input, folds and writes its cache: private
    // steps merged into one work step lasting Rl + 64 B folded + Rl.
    ASSERT_EQ(schedule.task(1).kind, sched::TaskKind::reduce);
    const auto& steps = plans[1].steps;
    ASSERT_EQ(steps.size(), 2u);
    EXPECT_EQ(steps[0].kind, sim::Step::Kind::transfer);
    EXPECT_EQ(steps[0].from, (Endpoint{EndpointKind::cache, 0, 1}));
    EXPECT_EQ(steps[0].to, (Endpoint{EndpointKind::core, 0, 0}));
    EXPECT_EQ(steps[1].kind, sim::Step::Kind::work);
    const auto& params = platform.params();
    const double rate = params.reduce_bytes_per_ns.value;
    EXPECT_NEAR(steps[1].amount / rate, 1.2 + 64 / rate + 1.2, 1e-9);
    // The flag before it is one cache line from rank 1's cache to rank 0's core.
    EXPECT_EQ(plans[0].steps.size(), 1u);
    EXPECT_DOUBLE_EQ(plans[0].steps[0].amount, 64);
    EXPECT_EQ(plans[0].steps[0].from, (Endpoint{EndpointKind::cache, 0, 1}));
}

TEST(TaskPlan, LargeVectorsKeepOnlyTheirLastBytesInTheLlc) {
    const auto machine = test::load("westmere");
    const sim::PlatformModel platform(machine, costs::load_params("westmere"), 1);
    const auto schedule = tree(machine, 16u << 20, 12, {{"strip", "off"}});  // 16 MiB > 12 MiB L3
    const auto plans = sim::plan_tasks(schedule, platform);
    for (int id = 0; id < schedule.task_count(); ++id) {
        if (schedule.task(id).kind == sched::TaskKind::flag) continue;
        for (const auto& step : plans[id].steps) {
            if (step.kind != sim::Step::Kind::transfer) continue;
            // Reads come from DRAM into a core (every earlier vector was
            // evicted by a later one), except the last 12 MiB of socket 1's
            // partial result, which the root reads from that socket's L3; a
            // write's first 4 MiB go from the core to DRAM, its last 12 MiB
            // stay in the L3 (private: merged work).
            const bool read = step.from.kind == EndpointKind::memory && step.to.kind == EndpointKind::core;
            const bool remote_read = step.from.kind == EndpointKind::cache && step.to.kind == EndpointKind::core &&
                                     platform.domain_of_core(step.from.index) != platform.domain_of_core(step.to.index);
            const bool write = step.from.kind == EndpointKind::core && step.to.kind == EndpointKind::memory;
            EXPECT_TRUE(read || write || remote_read) << id;
            if (remote_read) EXPECT_EQ(step.amount, 12u << 20) << id;
            if (write) EXPECT_EQ(step.amount, 4u << 20) << id;
        }
    }
    // Rank 6's input lives on NUMA node 1.
    EXPECT_EQ(plans[11].steps[0].from, (Endpoint{EndpointKind::memory, 0, 1}));
}

namespace {
// Core 0 of a one-socket machine with an L3 of `cache_bytes` copies m bytes
// of its own input, or (`with_dram_operand`) reduces them with m bytes that
// are in DRAM. Its own cache: 1 ns + 1000 B/ns; DRAM: 50 ns + 1 B/ns;
// reduction: 100 B/ns.
sim::Simulation copy_of_own_input(std::uint64_t cache_bytes, std::uint64_t m, bool with_dram_operand = false) {
    auto params = test::uniform_params(1, 1000, 1000);
    params.at(costs::Level::dram) = {{50, "test"}, {1, "test"}, {1, "test"}};
    const sim::PlatformModel platform(
        test::load(fmt::format("synthetic:Package:1 NUMANode:1 L3Cache:1(size={}) Core:2 PU:1", cache_bytes)), params, 1);
    sched::Schedule schedule;
    schedule.ranks.push_back({0, 0, 0, 0, 0});
    schedule.add_buffer({"in", 0, m, sched::BufferRole::input});
    const int out = schedule.add_buffer({"out", 0, m, sched::BufferRole::output});
    sched::Task copy;
    copy.reads.push_back({0, 0, m});
    if (with_dram_operand) {
        copy.kind = sched::TaskKind::reduce;
        copy.reads.push_back({schedule.add_buffer({"dram", 0, m, sched::BufferRole::temp}), 0, m});
    }
    copy.write = {out, 0, m};
    schedule.add_task(copy, {});
    return sim::simulate(schedule, platform);
}
}  // namespace

TEST(TaskPlan, ACopyLargerThanItsLlcPaysDramForThePartThatDoesNotFit) {
    const std::uint64_t cache = 64 << 10;
    const double c = static_cast<double>(cache);
    // Twice the L3: the input's last C bytes were in the L3, but the copy's
    // own stream (its reads of the first C from DRAM and its writes) evicts
    // them before it gets there, so it reads all 2C from DRAM (50 + 2C); it
    // writes its first C to DRAM (50 + C) and keeps its last C (1 + C / 1000).
    // Before, the whole copy went to and from DRAM: 100 + 4C.
    expect_near_relative(copy_of_own_input(cache, 2 * cache).timeline.makespan_ns, 50 + 2 * c + 50 + c + 1 + c / 1000);
    // Half the L3: the input and the copy fit together; nothing touches DRAM
    // (2 + C / 1000: read and write in the core's own cache).
    expect_near_relative(copy_of_own_input(cache, cache / 2).timeline.makespan_ns, 2 + c / 1000);
    // The whole L3: the copy's writes evict its input, oldest first, behind
    // its reads (one stream that reads only cached bytes never evicts them):
    // still nothing from DRAM.
    expect_near_relative(copy_of_own_input(cache, cache).timeline.makespan_ns, 2 + 2 * c / 1000);
    // A reduction of 3C/4 cached bytes with 3C/4 from DRAM brings in two
    // bytes per position: from position C/4 on, the evictions overtake its
    // reads of the cached operand, whose last C/2 come from DRAM
    // (50 + C/2, beside 50 + 3C/4 for the other operand); its first C/4, the
    // fold (3C/4 / 100) and the write stay in the core (1 + C/4000, 1 + 3C/4000).
    expect_near_relative(copy_of_own_input(cache, 3 * cache / 4, true).timeline.makespan_ns,
                         50 + c / 2 + 50 + 3 * c / 4 + 1 + c / 4000 + 0.75 * c / 100 + 1 + 0.75 * c / 1000);
}

TEST(TaskPlan, OneStageBroadcastCrossesSocketsOncePerSocket) {
    const auto machine = test::load("westmere");
    const sim::PlatformModel platform(machine, costs::load_params("westmere"), 1);
    const auto schedule = tree(machine, 64, 12);
    const auto plans = sim::plan_tasks(schedule, platform);
    int remote_reads = 0;
    for (int id = 0; id < schedule.task_count(); ++id) {
        const auto& task = schedule.task(id);
        if (task.kind != sched::TaskKind::copy) continue;
        const auto& read = plans[id].steps.front();
        if (read.from.kind == EndpointKind::cache && platform.domain_of_core(read.from.index) != platform.domain_of_core(read.to.index))
            ++remote_reads;
    }
    EXPECT_EQ(remote_reads, 1);  // rank 6 fetches from socket 0; ranks 7-11 read rank 6's copy
}

TEST(TaskPlan, NetTransfersGoMemoryToMemoryThroughNics) {
    const auto machine = test::load("westmere");
    const sim::PlatformModel platform(machine, costs::load_params("westmere"), 2);
    algo::LayoutOptions layout;
    layout.nodes = 2;
    layout.ranks_per_node = 1;
    sched::CollectiveSpec spec;
    spec.algorithm = "tree";
    spec.bytes = 1024;
    const auto schedule = algo::generate_schedule(spec, algo::make_layout(machine, layout));
    const auto plans = sim::plan_tasks(schedule, platform);
    bool saw_net = false;
    for (int id = 0; id < schedule.task_count(); ++id)
        if (schedule.task(id).kind == sched::TaskKind::net) {
            saw_net = true;
            // o_s on the sender's core, g holding its NIC, the transfer, o_r on the receiver's core.
            const auto& steps = plans[id].steps;
            ASSERT_EQ(steps.size(), 4u);
            EXPECT_EQ(steps[0].kind, sim::Step::Kind::serial);
            EXPECT_EQ(steps[0].from.kind, EndpointKind::core);
            EXPECT_EQ(steps[1].kind, sim::Step::Kind::gap);
            EXPECT_EQ(steps[1].from.kind, EndpointKind::nic);
            EXPECT_EQ(steps[2].from.kind, EndpointKind::dma);
            EXPECT_EQ(steps[2].to.kind, EndpointKind::dma);
            EXPECT_NE(steps[2].from.node, steps[2].to.node);
            EXPECT_DOUBLE_EQ(steps[2].amount, 1024);
            EXPECT_EQ(steps[3].kind, sim::Step::Kind::serial);
            EXPECT_EQ(steps[3].from, (Endpoint{EndpointKind::core, steps[2].to.node, schedule.ranks[schedule.task(id).peer].core}));
        }
    EXPECT_TRUE(saw_net);
}

TEST(TaskPlan, MessagesFromOneRankToAnotherLeaveInOrder) {
    // A pipelined broadcast between two nodes sends its segments from the root
    // to one leader: one message queue, so the segments arrive one by one and
    // the other node's broadcast of the first overlaps the network's of the
    // rest (they all arrived together at the end before).
    const auto machine = test::load("westmere");
    const sim::PlatformModel platform(machine, costs::load_params("westmere"), 2);
    algo::LayoutOptions layout;
    layout.nodes = 2;
    sched::CollectiveSpec spec;
    spec.collective = sched::Collective::bcast;
    spec.algorithm = "leader";
    spec.bytes = 4 << 20;
    const auto schedule = algo::generate_schedule(spec, algo::make_layout(machine, layout));
    const auto plans = sim::plan_tasks(schedule, platform);
    std::map<std::pair<int, int>, int> queue_of_pair;
    std::vector<int> segments;  // the net tasks, in id order
    for (int id = 0; id < schedule.task_count(); ++id) {
        const sched::Task& task = schedule.task(id);
        if (task.kind != sched::TaskKind::net) {
            EXPECT_EQ(plans[id].queue, -1);
            continue;
        }
        segments.push_back(id);
        const auto [known, added] = queue_of_pair.try_emplace({task.thread, task.peer}, plans[id].queue);
        EXPECT_EQ(known->second, plans[id].queue);
        EXPECT_GE(plans[id].queue, 0);
    }
    ASSERT_GE(segments.size(), 4u);
    EXPECT_EQ(queue_of_pair.size(), 1u);
    EXPECT_EQ(plans.queue_count(), 1);
    const auto timeline = sim::simulate(schedule, platform).timeline;
    const double first_ns = timeline.tasks[segments.front()].end_ns, last_ns = timeline.tasks[segments.back()].end_ns;
    EXPECT_LT(first_ns, 1.5 * last_ns / static_cast<double>(segments.size()));
    for (std::size_t k = 1; k < segments.size(); ++k)
        EXPECT_GT(timeline.tasks[segments[k]].end_ns, timeline.tasks[segments[k - 1]].end_ns);
}

TEST(TaskPlan, WorkIsSharedOnlyWhereRanksShareACore) {
    // Two cores of two hyper-threads; ranks on one core's two PUs share it.
    const auto machine = test::load("synthetic:Package:1 L3Cache:1 Core:2 PU:2");
    const sim::PlatformModel platform(machine, costs::load_params("generic"), 1);
    sched::CollectiveSpec spec;
    spec.algorithm = "tree";
    spec.bytes = 4096;
    auto kinds_of_work = [&](const algo::LayoutOptions& layout) {
        const auto schedule = algo::generate_schedule(spec, algo::make_layout(machine, layout));
        const auto plans = sim::plan_tasks(schedule, platform);
        std::set<sim::Step::Kind> kinds;
        for (std::size_t id = 0; id < plans.size(); ++id)
            for (const auto& step : plans[id].steps)
                if (step.kind != sim::Step::Kind::transfer) kinds.insert(step.kind);
        return kinds;
    };
    algo::LayoutOptions one_per_core;  // the default: PUs 0 and 2
    EXPECT_EQ(kinds_of_work(one_per_core), std::set<sim::Step::Kind>{sim::Step::Kind::work});
    algo::LayoutOptions siblings;
    siblings.placement = algo::Placement::list;
    siblings.pu_list = {0, 1};
    EXPECT_EQ(kinds_of_work(siblings), std::set<sim::Step::Kind>{sim::Step::Kind::shared_work});
}

TEST(TaskPlan, ComputeCostsItsFlopsAtTheComputeRateAndWaitingIsFree) {
    const auto machine = test::load("westmere");
    const costs::Params params = costs::load_params("westmere");
    const sim::PlatformModel platform(machine, params, 1);
    sched::CollectiveSpec spec;
    spec.collective = sched::Collective::barrier;
    spec.algorithm = "tree";
    algo::LayoutOptions layout;
    layout.ranks_per_node = 2;
    sched::Schedule schedule = algo::generate_schedule(spec, algo::make_layout(machine, layout));
    const double alone_ns = sim::simulate(schedule, platform).timeline.makespan_ns;
    const int id = test::add_compute_after_last(schedule, 1e6);

    const auto plans = sim::plan_tasks(schedule, platform);
    ASSERT_EQ(plans[id].steps.size(), 1u);
    EXPECT_EQ(plans[id].steps[0].kind, sim::Step::Kind::work);
    for (int task = 0; task < id; ++task) {
        if (schedule.task(task).kind == sched::TaskKind::wait) {
            EXPECT_EQ(plans[task].steps[0].amount, 0.0);
        }
    }
    // The compute task adds its flops at 10.67 flops/ns to the end of the barrier.
    const double with_work_ns = sim::simulate(schedule, platform).timeline.makespan_ns;
    EXPECT_NEAR(with_work_ns - alone_ns, 1e6 / params.compute_flops_per_ns->value, 1e-6);

    costs::Params without_rate = params;
    without_rate.compute_flops_per_ns.reset();
    const sim::PlatformModel old_platform(machine, without_rate, 1);
    EXPECT_THROW(sim::plan_tasks(schedule, old_platform), UsageError);
}

TEST(TaskPlan, ASharedCopyServesReadersOnlyOnceItExists) {
    // A one-stage broadcast of 64 KiB on magnycours: the four ranks of each
    // other socket read the root's data at once. The first of them leaves a
    // copy in its socket's L3, but the others cannot read that copy before
    // it is there: none of them may finish before its maker.
    const auto machine = test::load("magnycours");
    const sim::PlatformModel platform(machine, costs::load_params("magnycours"), 1);
    sched::CollectiveSpec spec;
    spec.collective = sched::Collective::bcast;
    spec.algorithm = "tree";
    spec.bytes = 64 << 10;
    const auto schedule = algo::generate_schedule(spec, algo::make_layout(machine, {}));
    const auto timeline = sim::simulate(schedule, platform).timeline;
    std::map<int, double> copy_end_ns;  // rank -> end of its copy
    for (int id = 0; id < schedule.task_count(); ++id)
        if (schedule.task(id).kind == sched::TaskKind::copy) copy_end_ns[schedule.task(id).thread] = timeline.tasks[id].end_ns;
    ASSERT_EQ(copy_end_ns.size(), 31u);
    std::map<int, int> copy_maker;  // socket -> its first reader
    for (const auto& [rank, end_ns] : copy_end_ns) {
        const int socket = platform.domain_of_core(schedule.ranks[rank].core);
        if (socket == platform.domain_of_core(schedule.ranks[0].core)) continue;
        const auto [maker, first] = copy_maker.emplace(socket, rank);
        if (!first) {
            EXPECT_GE(end_ns, copy_end_ns[maker->second] - 1e-6) << "rank " << rank;
        }
    }
    EXPECT_EQ(copy_maker.size(), 7u);
}

namespace {


// q readers on socket 1 copy one vector of m bytes that core 0 (socket 0)
// wrote, all at once (a one-stage broadcast's fan-out, built by hand).
// Other socket: a = 100 ns, 2 B/ns per stream, 3 B/ns on the link; same
// socket: a = 20 ns, `llc_stream` B/ns per stream, `llc_aggregate` in all.
sim::Simulation merged_fan_out(int q, double m, double llc_stream, double llc_aggregate, bool merges) {
    auto params = test::uniform_params(1, 1000, 1000);
    params.at(costs::Level::other_socket) = {{100, "test"}, {2, "test"}, {3, "test"}};
    params.at(costs::Level::same_socket) = {{20, "test"}, {llc_stream, "test"}, {llc_aggregate, "test"}};
    if (merges) params.llc_merge_bytes = costs::Figure{64, "test"};
    const sim::PlatformModel platform(test::load("synthetic:Package:2 L3Cache:1(size=1073741824) Core:4 PU:1"), params, 1);
    sched::Schedule schedule;
    schedule.ranks.push_back({0, 0, 0, 0, 0});
    for (int reader = 0; reader < q; ++reader) schedule.ranks.push_back({0, 4 + reader, 4 + reader, 0, 1});
    const auto bytes = static_cast<std::uint64_t>(m);
    schedule.add_buffer({"in", 0, bytes, sched::BufferRole::input});
    for (int reader = 1; reader <= q; ++reader) {
        const int out = schedule.add_buffer({"out", reader, bytes, sched::BufferRole::output});
        sched::Task copy;
        copy.thread = reader;
        copy.reads.push_back({0, 0, bytes});
        copy.write = {out, 0, bytes};
        schedule.add_task(copy, {});
    }
    return sim::simulate(schedule, platform);
}

}  // namespace

TEST(TaskPlan, ReadersOfOneDomainMergeTheirMissesInTheLlc) {
    // Where the LLC merges misses, the first reader fetches the vector over
    // the link alone (100 + m / 2), the others stream it from the L3 as it
    // arrives and end once they have moved its last line (+ 64 / llc_stream:
    // their request for it went out long before), each then
    // writing its copy (1 + m / 1000): one crossing plus q LLC streams.
    // Without merging the q readers cross together: 100 + q m / 3.
    const int q = 4;
    const double m = 1 << 20, write_ns = 1 + m / 1000;
    auto merged = merged_fan_out(q, m, 4, 10, true).timeline;
    expect_near_relative(merged.tasks[0].end_ns, 100 + m / 2 + write_ns);
    for (int reader = 1; reader < q; ++reader)
        expect_near_relative(merged.tasks[reader].end_ns, 100 + m / 2 + 64.0 / 4 + write_ns);
    const auto apart = merged_fan_out(q, m, 4, 10, false).timeline;
    for (int reader = 0; reader < q; ++reader) expect_near_relative(apart.tasks[reader].end_ns, 100 + q * m / 3 + write_ns);
    // An L3 slower than the link: the later readers pay their own streams,
    // the three sharing 1.5 B/ns: 20 + 3 m / 1.5.
    merged = merged_fan_out(q, m, 1, 1.5, true).timeline;
    expect_near_relative(merged.tasks[0].end_ns, 100 + m / 2 + write_ns);
    for (int reader = 1; reader < q; ++reader) expect_near_relative(merged.tasks[reader].end_ns, 20 + 3 * m / 1.5 + write_ns);
}

TEST(TaskPlan, TrafficGoesThroughTheNicNearestEachEnd) {
    // opteron8218 with a second NIC on NUMA node 3 (tests/sim/data): NUMA
    // nodes 0 and 1 are nearest NIC 0 (on node 1), 2 and 3 nearest NIC 1.
    const std::string path = std::string(NUMACOLL_SOURCE_DIR) + "/tests/sim/data/opteron8218-two-nics.xml";
    const auto machine = test::machine(path);
    const sim::PlatformModel platform(machine, costs::load_params("generic"), 2);
    ASSERT_EQ(platform.nic_count(), 2);
    EXPECT_EQ(platform.numa_of_nic(0), 1);
    EXPECT_EQ(platform.numa_of_nic(1), 3);
    EXPECT_EQ(platform.nearest_nic(0), 0);
    EXPECT_EQ(platform.nearest_nic(2), 1);
    const sched::Schedule schedule = test::schedule(path, sched::Collective::gather, "linear", 64, 0, 2, 0);
    const auto plans = sim::plan_tasks(schedule, platform);
    std::set<int> used;
    for (int id = 0; id < schedule.task_count(); ++id) {
        const sched::Task& task = schedule.task(id);
        if (task.kind != sched::TaskKind::net) continue;
        const int sender_numa = schedule.ranks[task.thread].numa;
        const int receiver_numa = schedule.ranks[task.peer].numa;
        for (const auto& step : plans[id].steps) {
            if (step.kind != sim::Step::Kind::transfer) continue;
            EXPECT_EQ(platform.nic_of_dma(step.from), platform.nearest_nic(sender_numa)) << "task " << id;
            EXPECT_EQ(platform.nic_of_dma(step.to), platform.nearest_nic(receiver_numa)) << "task " << id;
            used.insert(platform.nic_of_dma(step.from));
        }
    }
    EXPECT_EQ(used, (std::set<int>{0, 1}));
    // And SimGrid routes them: the whole gather simulates.
    EXPECT_GT(sim::simulate(schedule, platform).timeline.makespan_ns, 0);
}

TEST(TaskPlan, ACacheThatHoldsMoreThanItCanKeepEvictsItsOldestBytes) {
    // One socket of 4 cores with a 64 KiB L3; a linear broadcast of 32 KiB:
    // rank 0's input and rank 1's copy fill the L3, rank 2's copy evicts the
    // input, so rank 3 reads the root's bytes from DRAM, not from its cache.
    const std::string machine = "synthetic:Package:1 NUMANode:1 L3Cache:1(size=65536) Core:4";
    const sim::PlatformModel platform(test::load(machine), costs::load_params("generic"), 1);
    const sched::Schedule schedule = test::schedule(machine, sched::Collective::bcast, "linear", 32 << 10, 0, 1, 0);
    const auto plans = sim::plan_tasks(schedule, platform);
    std::map<int, Endpoint> source_of;  // reader rank -> where its copy reads from
    for (int id = 0; id < schedule.task_count(); ++id) {
        if (schedule.task(id).kind != sched::TaskKind::copy) continue;
        for (const auto& step : plans[id].steps)
            if (step.kind == sim::Step::Kind::transfer && step.to.kind == EndpointKind::core) source_of[schedule.task(id).thread] = step.from;
    }
    ASSERT_EQ(source_of.size(), 3u);
    EXPECT_EQ(source_of[1].kind, EndpointKind::cache);
    EXPECT_EQ(source_of[2].kind, EndpointKind::cache);
    EXPECT_EQ(source_of[3], (Endpoint{EndpointKind::memory, 0, 0}));
}

TEST(TaskPlan, RoundsThatRewriteTheSameBuffersPlanAlikeOnceTheCachesAreFull) {
    // The eviction case above, forty times back to back: every round writes
    // over the last one's bytes, so the caches' entries die and their ids
    // are used again. From the third round on, each round starts from the
    // same cache contents, so its plan must be the previous round's: a
    // reused id that still named old bytes would move them to DRAM or drop a
    // shared copy in one round and not the next.
    // On two sockets, the readers of the other socket leave shared copies there too.
    for (const std::string machine : {"synthetic:Package:1 NUMANode:1 L3Cache:1(size=65536) Core:4",
                                      "synthetic:Package:2 NUMANode:1 L3Cache:1(size=65536) Core:2"}) {
    SCOPED_TRACE(machine);
    const sim::PlatformModel platform(test::load(machine), costs::load_params("generic"), 1);
    const sched::Schedule one = test::schedule(machine, sched::Collective::bcast, "linear", 32 << 10, 0, 1, 0);
    const int rounds = 40;
    const sched::Schedule repeated = sched::back_to_back(one, rounds);
    ASSERT_EQ(repeated.task_count(), rounds * one.task_count());
    const auto plans = sim::plan_tasks(repeated, platform);
    auto same_steps = [](const sim::TaskPlanView& a, const sim::TaskPlanView& b) {
        return std::equal(a.steps.begin(), a.steps.end(), b.steps.begin(), b.steps.end(), [](const auto& x, const auto& y) {
            return x.kind == y.kind && x.from == y.from && x.to == y.to && x.amount == y.amount &&
                   (x.source_ready_after < 0) == (y.source_ready_after < 0);
        });
    };
    const int per_round = one.task_count();
    for (int round = 3; round < rounds; ++round)
        for (int task = 0; task < per_round; ++task)
            ASSERT_TRUE(same_steps(plans[static_cast<std::size_t>(round * per_round + task)],
                                   plans[static_cast<std::size_t>((round - 1) * per_round + task)]))
                << "round " << round << ", task " << task;
    // What the last round's readers read from: some evicted bytes (from DRAM)
    // on one socket, the copy the first reader of socket 1 left there on two.
    std::set<std::pair<int, EndpointKind>> sources;  // (reader, kind)
    for (int id = (rounds - 1) * per_round; id < repeated.task_count(); ++id)
        if (repeated.task(id).kind == sched::TaskKind::copy)
            for (const auto& step : plans[static_cast<std::size_t>(id)].steps)
                if (step.kind == sim::Step::Kind::transfer && step.to.kind == EndpointKind::core)
                    sources.insert({repeated.task(id).thread, step.from.kind});
    if (platform.domain_count() == 1)
        EXPECT_TRUE(sources.count({3, EndpointKind::memory}));
    else
        EXPECT_TRUE(sources.count({3, EndpointKind::cache}));
    }
}

TEST(TaskPlan, BeyondThePrivateCacheACoresOwnDataStreamsThroughItsLlc) {
    const auto machine = test::load("westmere");
    costs::Params params = costs::load_params("westmere");
    params.private_cache_bytes = costs::Figure{256 * 1024, "Westmere: 256 KiB L2 per core"};
    const sim::PlatformModel platform(machine, params, 1);
    // Task 1: rank 0 folds rank 1's input into its own. 64 KiB: 192 KiB touched, private;
    // 128 KiB: 384 KiB touched, so its own input and its result go through the LLC.
    for (std::uint64_t bytes : {64u * 1024, 128u * 1024}) {
        const auto schedule = tree(machine, bytes, 2, {{"strip", "off"}});
        const auto plans = sim::plan_tasks(schedule, platform);
        ASSERT_EQ(schedule.task(1).kind, sched::TaskKind::reduce);
        std::multiset<std::pair<Endpoint, Endpoint>> transfers;
        for (const auto& step : plans[1].steps)
            if (step.kind == sim::Step::Kind::transfer) transfers.insert({step.from, step.to});
        const Endpoint core0{EndpointKind::core, 0, 0}, llc0{EndpointKind::llc, 0, 0};
        EXPECT_EQ(transfers.count({Endpoint{EndpointKind::cache, 0, 1}, core0}), 1u) << bytes;  // rank 1's input
        EXPECT_EQ(transfers.count({llc0, core0}), bytes > 64 * 1024 ? 1u : 0u) << bytes;  // its own input
        EXPECT_EQ(transfers.count({core0, llc0}), bytes > 64 * 1024 ? 1u : 0u) << bytes;  // its result
        // Another core reads the result from rank 0's cache either way.
        ASSERT_EQ(schedule.task(3).kind, sched::TaskKind::copy);
        EXPECT_EQ(plans[3].steps.front().from, (Endpoint{EndpointKind::cache, 0, 0})) << bytes;
    }
    // The route to the LLC is the same_socket level's: its a, its stream, the LLC's shared link.
    const sim::RouteSpec route = platform.route({EndpointKind::llc, 0, 0}, {EndpointKind::core, 0, 0});
    EXPECT_EQ(route.level, costs::Level::same_socket);
    EXPECT_DOUBLE_EQ(route.latency_ns, params.at(costs::Level::same_socket).latency_ns.value);
    ASSERT_EQ(route.links.size(), 2u);
    EXPECT_EQ(platform.link(route.links[1]).bandwidth_bytes_per_ns,
              params.at(costs::Level::same_socket).aggregate_bandwidth_bytes_per_ns.value);
    // Without the figure (the bundled sets), nothing spills.
    const sim::PlatformModel plain(machine, costs::load_params("westmere"), 1);
    const auto plans = sim::plan_tasks(tree(machine, 4u << 20, 2, {{"strip", "off"}}), plain);
    for (std::size_t task = 0; task < plans.size(); ++task)
        for (const auto& step : plans[task].steps)
            EXPECT_TRUE(step.from.kind != EndpointKind::llc && step.to.kind != EndpointKind::llc);
}

// Steps live in chunks that never move: tasks that cross a chunk's end, and
// one larger than a chunk, keep their steps in order, each task's together,
// and a move keeps them where they are.
TEST(TaskPlans, StepsStayWhereTheyWereAddedAcrossChunks) {
    auto step_of = [](std::size_t task, std::size_t at) {
        return sim::Step{sim::Step::Kind::transfer, {EndpointKind::core, 0, static_cast<int>(task % 7)},
                         {EndpointKind::cache, 0, static_cast<int>(at % 5)}, static_cast<double>(task * 1000 + at)};
    };
    std::vector<std::size_t> sizes;
    for (std::size_t task = 0; task < 40000; ++task) sizes.push_back(1 + task % 4);  // 100,000 steps: two chunks
    sizes.push_back(sim::TaskPlans::chunk_steps + 3);  // a chunk of its own
    sizes.push_back(0);
    sizes.push_back(2);
    sim::TaskPlans plans;
    std::vector<sim::Step> steps;
    for (std::size_t task = 0; task < sizes.size(); ++task) {
        steps.clear();
        for (std::size_t at = 0; at < sizes[task]; ++at) steps.push_back(step_of(task, at));
        plans.add(steps);
    }
    const sim::Step* first = plans[0].steps.data();
    const sim::TaskPlans moved = std::move(plans);
    EXPECT_EQ(moved[0].steps.data(), first);
    ASSERT_EQ(moved.size(), sizes.size());
    std::size_t total = 0;
    for (std::size_t task = 0; task < sizes.size(); ++task) {
        const auto view = moved[task].steps;
        ASSERT_EQ(view.size(), sizes[task]) << task;
        for (std::size_t at = 0; at < view.size(); ++at) {
            EXPECT_EQ(view[at].amount, step_of(task, at).amount) << task << " " << at;
            EXPECT_EQ(view[at].to, step_of(task, at).to) << task << " " << at;
        }
        total += sizes[task];
    }
    EXPECT_EQ(moved.step_count(), total);
    std::size_t visited = 0;
    double sum = 0;
    moved.for_each_step([&](const sim::Step& step) {
        ++visited;
        sum += step.amount;
    });
    EXPECT_EQ(visited, total);
    double expected_sum = 0;
    for (std::size_t task = 0; task < sizes.size(); ++task)
        for (std::size_t at = 0; at < sizes[task]; ++at) expected_sum += step_of(task, at).amount;
    EXPECT_EQ(sum, expected_sum);
}
