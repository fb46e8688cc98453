// The engine against closed forms, to 1e-9 relative: SimGrid's own sharing
// with the configuration sim/engine.hpp sets, on routes of the platform model.
#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <utility>
#include <stdexcept>

#include "algorithms/registry.hpp"
#include "common/error.hpp"
#include "sim/engine.hpp"
#include "sim_fixtures.hpp"

using namespace numacoll;
using sim::Endpoint;
using sim::EndpointKind;

namespace {

using test::expect_near_relative;

// Two sockets of seven cores, each socket with a 1 GiB L3 (so data stays in caches).
std::shared_ptr<const topo::Machine> two_sockets() {
    static auto machine = test::load("synthetic:Package:2 L3Cache:1(size=1073741824) Core:7 PU:1");
    return machine;
}

sim::Step transfer(Endpoint from, Endpoint to, double bytes) { return {sim::Step::Kind::transfer, from, to, bytes}; }
Endpoint cache(int core) { return {EndpointKind::cache, 0, core}; }
Endpoint core(int index) { return {EndpointKind::core, 0, index}; }
Endpoint memory(int numa) { return {EndpointKind::memory, 0, numa}; }

// Dependencies of `tasks` tasks that wait for nothing.
std::vector<std::vector<int>> independent(std::size_t tasks) { return std::vector<std::vector<int>>(tasks); }

// The costs of the tests across two nodes: a 300 ns NIC at 4 B/ns, a 900 ns
// network at 3 B/ns, DRAM at 80 ns with the given bandwidths.
costs::Params two_node_params(double dram_stream_bytes_per_ns, double dram_aggregate_bytes_per_ns) {
    auto params = test::uniform_params(1, 1000, 1000);
    params.at(costs::Level::nic) = {{300, "test"}, {4, "test"}, {4, "test"}};
    params.at(costs::Level::network) = {{900, "test"}, {3, "test"}, {3, "test"}};
    params.at(costs::Level::dram) = {{80, "test"}, {dram_stream_bytes_per_ns, "test"}, {dram_aggregate_bytes_per_ns, "test"}};
    return params;
}

}  // namespace

TEST(EngineClosedForm, OneTransferTakesLatencyPlusBytesOverBandwidth) {
    auto params = test::uniform_params(1, 1, 1);
    params.at(costs::Level::same_socket) = {{20, "test"}, {4, "test"}, {10, "test"}};
    const sim::PlatformModel platform(two_sockets(), params, 1);
    for (double bytes = 64; bytes <= 16 << 20; bytes *= 4) {
        auto result = sim::simulate_plans(platform, {{{transfer(cache(0), core(1), bytes)}}}, independent(1));
        expect_near_relative(result.timeline.makespan_ns, 20 + bytes / 4);
    }
}

TEST(EngineClosedForm, ConcurrentTransfersShareTheLink) {
    // d readers of core 0's cache in its socket: a + m * max(b, B * d).
    const double a = 20, b = 1.0 / 4, big_b = 1.0 / 10;
    auto params = test::uniform_params(1, 1, 1);
    params.at(costs::Level::same_socket) = {{a, "test"}, {1 / b, "test"}, {1 / big_b, "test"}};
    const sim::PlatformModel platform(two_sockets(), params, 1);
    for (int d : {1, 2, 4, 6})
        for (double bytes = 64; bytes <= 16 << 20; bytes *= 16) {
            std::vector<sim::TaskPlan> plans;
            for (int reader = 1; reader <= d; ++reader) plans.push_back({{transfer(cache(0), core(reader), bytes)}});
            auto result = sim::simulate_plans(platform, plans, independent(d));
            for (int task = 0; task < d; ++task)
                expect_near_relative(result.timeline.tasks[task].end_ns, a + bytes * std::max(b, big_b * d));
        }
}

TEST(EngineClosedForm, DifferentLatenciesShareMaxMinFairly) {
    // Both flows read socket 0's memory (one memory controller, 10 B/ns); the
    // remote one pays an inter-socket hop first (100 ns more latency).
    // Local flow alone from 10 to 110 ns (1000 B), then both at 5 B/ns: the
    // local one ends at 310; the remote one then runs alone: 1000 B more at
    // 10 B/ns, ending at 410. (Proportional to 1/latency it would not.)
    auto params = test::uniform_params(1, 1000, 1000);
    params.at(costs::Level::dram) = {{10, "test"}, {10, "test"}, {10, "test"}};
    params.at(costs::Level::other_socket) = {{100, "test"}, {1000, "test"}, {1000, "test"}};
    const auto machine = test::load("synthetic:Package:2 Core:7 PU:1");  // no caches: data lives in DRAM
    const sim::PlatformModel platform(machine, params, 1);
    auto result = sim::simulate_plans(platform, {{{transfer(memory(0), core(1), 2000)}}, {{transfer(memory(0), core(7), 2000)}}},
                                      independent(2));
    expect_near_relative(result.timeline.tasks[0].end_ns, 310);
    expect_near_relative(result.timeline.tasks[1].end_ns, 410);
}

TEST(EngineClosedForm, DependentStepsAddUp) {
    auto params = test::uniform_params(1, 1, 1);
    params.at(costs::Level::same_socket) = {{20, "test"}, {4, "test"}, {10, "test"}};
    params.at(costs::Level::local_cache) = {{2, "test"}, {50, "test"}, {50, "test"}};
    params.reduce_bytes_per_ns = {25, "test"};
    const sim::PlatformModel platform(two_sockets(), params, 1);
    const double m = 4096;
    for (int k : {1, 2, 5, 17}) {
        // A chain of k tasks, each: read from core 0's cache, fold, write locally.
        std::vector<sim::TaskPlan> plans;
        std::vector<std::vector<int>> successors(k);
        for (int i = 0; i < k; ++i) {
            plans.push_back({{transfer(cache(0), core(1), m), {sim::Step::Kind::work, core(1), core(1), m},
                              transfer(core(1), cache(1), m)}});
            if (i + 1 < k) successors[i] = {i + 1};
        }
        auto result = sim::simulate_plans(platform, plans, successors);
        const double one = (20 + m / 4) + m / 25 + (2 + m / 50);
        expect_near_relative(result.timeline.makespan_ns, k * one);
        for (int i = 0; i < k; ++i) expect_near_relative(result.timeline.tasks[i].start_ns + 1, i * one + 1);
        // Transfers are SimGrid Comms; work on a core is a SimGrid timer.
        EXPECT_EQ(result.stats.activities, static_cast<std::size_t>(2 * k));
        EXPECT_EQ(result.stats.timers, static_cast<std::size_t>(k));
    }
}

TEST(EngineClosedForm, WorkOnDifferentCoresDoesNotShare) {
    // Work contends with nothing: cores that work at once each take amount / speed.
    auto params = test::uniform_params(1, 1, 1);
    params.reduce_bytes_per_ns = {25, "test"};
    const sim::PlatformModel platform(two_sockets(), params, 1);
    std::vector<sim::TaskPlan> plans;
    for (int index = 0; index < 6; ++index) plans.push_back({{{sim::Step::Kind::work, core(index), core(index), 1000.0 * (index + 1)}}});
    auto result = sim::simulate_plans(platform, plans, independent(plans.size()));
    for (int index = 0; index < 6; ++index) expect_near_relative(result.timeline.tasks[index].end_ns, 40.0 * (index + 1));
}

TEST(EngineClosedForm, RanksOnOneCoreShareItsSpeed) {
    // shared_work (hyper-threads on one core): 1000 and 2000 bytes at
    // 25 B/ns shared by two: the first ends at 1000 / 12.5 = 80 ns, the second
    // then runs alone, 1000 more bytes at 25 B/ns: 120 ns.
    auto params = test::uniform_params(1, 1, 1);
    params.reduce_bytes_per_ns = {25, "test"};
    const sim::PlatformModel platform(two_sockets(), params, 1);
    const sim::Step::Kind shared = sim::Step::Kind::shared_work;
    auto result = sim::simulate_plans(platform, {{{{shared, core(3), core(3), 1000}}}, {{{shared, core(3), core(3), 2000}}}},
                                      independent(2));
    expect_near_relative(result.timeline.tasks[0].end_ns, 80);
    expect_near_relative(result.timeline.tasks[1].end_ns, 120);
    EXPECT_EQ(result.stats.timers, 0u);
}

TEST(EngineClosedForm, NetworkTransfersCrossBothNics) {
    // memory -> NIC -> switch -> NIC -> memory: latencies add, the slowest link rules.
    auto params = two_node_params(10, 30);
    const sim::PlatformModel platform(test::load("westmere"), params, 2);
    const double m = 1 << 20;
    auto result = sim::simulate_plans(platform, {{{transfer(platform.dma(0, 0, 0), platform.dma(1, 1, 0), m)}}}, independent(1));
    // Node 1's NUMA node 1 is one hop from its NIC (on socket 0): 2 * 300 + 1 * 1 (hop) + 900.
    expect_near_relative(result.timeline.makespan_ns, 300 + 900 + 300 + 1 + m / 3);
}

TEST(EngineClosedForm, OppositeTransfersAtOnceEachGetTheirOwnWires) {
    // Two nodes exchange at once (recursive doubling's step): each direction has
    // its own wire halves and PCIe halves, and they share only the memory
    // controllers (30 B/ns here), so each takes what it takes alone. On SimGrid
    // 3.32 with TCP-gamma 0 one of the two ran at about 27 B/ns, past its 3 B/ns wires.
    auto params = two_node_params(30, 30);
    const sim::PlatformModel platform(test::load("westmere"), params, 2);
    const double m = 1 << 20;
    const auto result = sim::simulate_plans(platform,
                                            {{{transfer(platform.dma(0, 0, 0), platform.dma(1, 0, 0), m)}},
                                             {{transfer(platform.dma(1, 0, 0), platform.dma(0, 0, 0), m)}}},
                                            independent(2));
    expect_near_relative(result.timeline.tasks[0].end_ns, 300 + 900 + 300 + m / 3);
    expect_near_relative(result.timeline.tasks[1].end_ns, 300 + 900 + 300 + m / 3);
}

TEST(EngineClosedForm, SerialStepsOfOneResourceRunOneAfterTheOther) {
    // A root that sends p messages spends p * o on its core (LogGP's o): the
    // overheads of one core queue, those of two cores do not.
    const sim::PlatformModel platform(two_sockets(), test::uniform_params(1, 1, 1), 1);
    const sim::Step overhead{sim::Step::Kind::serial, core(0), core(0), 250};
    std::vector<sim::TaskPlan> plans(5, sim::TaskPlan{{overhead}});
    auto result = sim::simulate_plans(platform, plans, independent(5));
    expect_near_relative(result.timeline.makespan_ns, 5 * 250);
    for (int task = 0; task < 5; ++task) expect_near_relative(result.timeline.tasks[task].end_ns, 250 * (task + 1));
    plans[1].steps[0].from = plans[1].steps[0].to = core(1);
    result = sim::simulate_plans(platform, plans, independent(5));
    expect_near_relative(result.timeline.makespan_ns, 4 * 250);
    expect_near_relative(result.timeline.tasks[1].end_ns, 250);
}

TEST(EngineClosedForm, AGapSpacesANicsMessagesAndDelaysNoneAlone) {
    // LogGP's g: a NIC takes a message at most every g, and a lone message
    // does not wait for its own gap. Five tasks of one NIC's gap (1000 ns)
    // then an overhead on a core of their own (250 ns) end at 1000 k + 250;
    // one alone ends at 250, as if it had no gap.
    const sim::PlatformModel platform(test::load("westmere"), two_node_params(30, 30), 2);
    const Endpoint nic{EndpointKind::nic, 0, 0};
    const sim::Step gap{sim::Step::Kind::gap, nic, nic, 1000};
    std::vector<sim::TaskPlan> plans;
    for (int k = 0; k < 5; ++k) plans.push_back({{gap, {sim::Step::Kind::serial, core(k), core(k), 250}}});
    auto result = sim::simulate_plans(platform, plans, independent(5));
    for (int k = 0; k < 5; ++k) expect_near_relative(result.timeline.tasks[k].end_ns, 1000 * k + 250);
    plans.resize(1);
    result = sim::simulate_plans(platform, plans, independent(1));
    expect_near_relative(result.timeline.tasks[0].end_ns, 250);
}

TEST(EngineClosedForm, MessagesOfOneQueueMoveOneAfterTheOther) {
    // Three messages of m bytes from one rank to another (one queue), ready
    // at once: their bytes follow each other on the wire and each arrives a
    // latency after its last byte left, L + (k + 1) m / 3; in queues of their
    // own they share the wires and all end at L + 3 m / 3. A latency is paid
    // once however small the messages (8 B: L + (k + 1) 8 / 3).
    auto params = two_node_params(30, 30);
    const sim::PlatformModel platform(test::load("westmere"), params, 2);
    const double latency = 300 + 900 + 300;
    for (const double m : {double(1 << 20), 8.0}) {
        const sim::Step message = transfer(platform.dma(0, 0, 0), platform.dma(1, 0, 0), m);
        std::vector<sim::TaskPlan> plans(3, sim::TaskPlan{{message}, 0});
        auto result = sim::simulate_plans(platform, plans, independent(3));
        for (int k = 0; k < 3; ++k) expect_near_relative(result.timeline.tasks[k].end_ns, latency + (k + 1) * m / 3);
        for (int k = 0; k < 3; ++k) plans[k].queue = k;
        result = sim::simulate_plans(platform, plans, independent(3));
        for (int k = 0; k < 3; ++k) expect_near_relative(result.timeline.tasks[k].end_ns, latency + 3 * m / 3);
    }
    // A second message, ready at r (after a serial step): its bytes leave
    // when the first's have left, or at r, and it arrives a latency later:
    // max(r, m / 3) + L + m / 3, whether it waited in the queue (8 B, ready
    // while the first is in flight) or not (1 MiB, ready after the first ended).
    for (const auto& [m, ready_ns] : {std::pair{8.0, 1000.0}, std::pair{double(1 << 20), 400000.0}}) {
        const sim::Step message = transfer(platform.dma(0, 0, 0), platform.dma(1, 0, 0), m);
        const sim::Step before{sim::Step::Kind::serial, core(0), core(0), ready_ns};
        const std::vector<sim::TaskPlan> plans = {{{message}, 0}, {{before, message}, 0}};
        const auto result = sim::simulate_plans(platform, plans, independent(2));
        expect_near_relative(result.timeline.tasks[0].end_ns, latency + m / 3);
        expect_near_relative(result.timeline.tasks[1].end_ns, std::max(ready_ns, m / 3) + latency + m / 3);
    }
}

TEST(EngineClosedForm, NicDmaIsLimitedByItsWindowOverTheRoundTrip) {
    // A NIC writing into a NUMA node one hop away keeps write_window bytes in
    // flight over a longer round trip: 2 a_hop + a_dram (posted: PCIe is not
    // in it); a read holds its tag across PCIe too: 2 (a_nic + a_hop) + a_dram.
    auto params = two_node_params(10, 30);
    params.at(costs::Level::other_socket) = {{100, "test"}, {1000, "test"}, {1000, "test"}};
    params.nic_dma = costs::NicDmaParams{{16384, "test"}, {1024, "test"}};
    const sim::PlatformModel platform(test::load("westmere"), params, 2);
    const double m = 1 << 20;
    const double local_trip = 80, remote_trip = 2 * 100 + 80;
    EXPECT_DOUBLE_EQ(platform.dma_round_trip_ns(0, 0, false), local_trip);
    EXPECT_DOUBLE_EQ(platform.dma_round_trip_ns(1, 0, false), remote_trip);
    EXPECT_DOUBLE_EQ(platform.dma_round_trip_ns(1, 0, true), 2 * (300 + 100) + 80);
    params.nic_dma->write_window_bytes.value = 256;
    const sim::PlatformModel narrow(test::load("westmere"), params, 2);
    // Into NUMA node 0, next to the NIC: 256 / 80 B/ns, more than the network's
    // 3; into NUMA node 1: 256 / 280 B/ns, less.
    auto near = sim::simulate_plans(narrow, {{{transfer(narrow.dma(0, 0, 0), narrow.dma(1, 0, 0), m)}}}, independent(1));
    expect_near_relative(near.timeline.makespan_ns, 300 + 900 + 300 + m / 3.0);
    auto far = sim::simulate_plans(narrow, {{{transfer(narrow.dma(0, 0, 0), narrow.dma(1, 1, 0), m)}}}, independent(1));
    expect_near_relative(far.timeline.makespan_ns, 300 + 900 + 300 + 100 + m / (256 / remote_trip));
    // Reads (the send side) keep 16 KiB in flight: the network, not the window, limits them.
    auto sent_far = sim::simulate_plans(narrow, {{{transfer(narrow.dma(0, 1, 0), narrow.dma(1, 0, 0), m)}}}, independent(1));
    expect_near_relative(sent_far.timeline.makespan_ns, 300 + 900 + 300 + 100 + m / 3.0);
}

TEST(EngineSuccessors, CompressedRowsKeepEachTasksSuccessorsInOrder) {
    const auto rows = sim::Successors::from_lists({{2, 1}, {}, {3}, {}});
    EXPECT_EQ(rows.task_count(), 4u);
    EXPECT_EQ(rows.first, (std::vector<std::size_t>{0, 2, 2, 3, 3}));
    EXPECT_EQ(rows.ids, (std::vector<int>{2, 1, 3}));
}

TEST(EngineSuccessors, ASuccessorThatIsNoTaskIsAnError) {
    const sim::PlatformModel platform(two_sockets(), test::uniform_params(1, 1, 1), 1);
    EXPECT_THROW(sim::simulate_plans(platform, {{{transfer(cache(0), core(1), 64)}}}, std::vector<std::vector<int>>{{7}}),
                 Error);
}

// The caller's callback runs once the simulating process has all it needs:
// freeing the schedule and the plans there changes nothing in the result.
TEST(EngineWhileSimulating, TheScheduleAndItsPlansMayBeFreedWhileTheSimulationRuns) {
    const auto machine = test::load("westmere");
    const sim::PlatformModel platform(machine, costs::params_for(*machine, ""), 2);
    algo::LayoutOptions options;
    options.nodes = 2;
    sched::CollectiveSpec spec;
    spec.algorithm = "tree";
    spec.bytes = 65536;
    const sched::Schedule reference = algo::generate_schedule(spec, algo::make_layout(machine, options));
    const sim::Simulation expected = sim::simulate(reference, platform);
    std::optional<sched::Schedule> schedule = reference;
    std::optional<sim::TaskPlans> plans = sim::plan_tasks(*schedule, platform);
    int calls = 0;
    const sim::Simulation result =
        sim::simulate_planned(*schedule, platform, *plans, sim::ProgressStrategy::manual, [&] {
            ++calls;
            plans.reset();
            schedule.reset();
        });
    EXPECT_EQ(calls, 1);
    EXPECT_EQ(result.timeline.makespan_ns, expected.timeline.makespan_ns);
    ASSERT_EQ(result.timeline.tasks.size(), expected.timeline.tasks.size());
    for (std::size_t task = 0; task < expected.timeline.tasks.size(); ++task) {
        EXPECT_EQ(result.timeline.tasks[task].start_ns, expected.timeline.tasks[task].start_ns) << task;
        EXPECT_EQ(result.timeline.tasks[task].end_ns, expected.timeline.tasks[task].end_ns) << task;
    }
    // A callback that throws: the simulation is stopped and the error is the caller's.
    const sim::TaskPlans again = sim::plan_tasks(reference, platform);
    EXPECT_THROW(sim::simulate_planned(reference, platform, again, sim::ProgressStrategy::manual,
                                       [] { throw std::runtime_error("the caller's error"); }),
                 std::runtime_error);
}
