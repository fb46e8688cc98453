// The simulator against the HPDC'13 model and the trends it predicts.
#include <gtest/gtest.h>

#include "algorithms/registry.hpp"
#include "sim/engine.hpp"
#include "sim_fixtures.hpp"

using namespace numacoll;

namespace {

double simulate_tree(const sim::PlatformModel& platform, std::uint64_t bytes, int ranks = 0,
                     std::map<std::string, std::string> options = {}) {
    algo::LayoutOptions layout;
    layout.ranks_per_node = ranks;
    layout.nodes = platform.nodes();
    sched::CollectiveSpec spec;
    spec.algorithm = "tree";
    spec.bytes = bytes;
    spec.options = std::move(options);
    auto machine = std::shared_ptr<const topo::Machine>(&platform.machine(), [](const topo::Machine*) {});
    const auto schedule = algo::generate_schedule(spec, algo::make_layout(machine, layout));
    return sim::simulate(schedule, platform).timeline.makespan_ns;
}

const sim::PlatformModel& westmere_platform() {
    static const sim::PlatformModel platform(test::load("westmere"), costs::load_params("westmere"), 1);
    return platform;
}

}  // namespace

TEST(ModelCheck, OneCacheLineMatchesThePaperComposition) {
    // HPDC'13 section 3.4: T(64 B) - T(0 B) = 3(Rs + 2Rl) + (Rr + 2Rl) + (Rr + Rl) = 306.7 ns
    // by the model, 339.8 ns measured. The model's broadcast term (Rr + Rl)
    // lets one reader cross QPI. So does the simulation: Westmere's L3 merges
    // the misses of the other socket's six readers (params llc.merge_bytes),
    // one of them fetches the line and the others take it from the L3 as it
    // arrives, moving it to their cores at their stream's rate (64 B / 13
    // B/ns): 317.6 ns, 4% above the model and 7% below the measurement. (It
    // was 334.7 ns while the six readers crossed QPI together, sharing it.)
    // Both within the 10% reproduce's verdict allows.
    const double rl = 1.2, rs = 28.5, rr = 105.2;
    const double model = 3 * (rs + 2 * rl) + (rr + 2 * rl) + (rr + rl);
    ASSERT_NEAR(model, 306.7, 1e-9);
    const double measured = 339.8;
    const double difference = simulate_tree(westmere_platform(), 64) - simulate_tree(westmere_platform(), 0);
    EXPECT_NEAR(difference, model, 0.10 * model) << "simulated difference " << difference << " ns";
    EXPECT_NEAR(difference, measured, 0.10 * measured) << "simulated difference " << difference << " ns";
}

TEST(ModelCheck, TimeGrowsWithSize) {
    double previous = simulate_tree(westmere_platform(), 0);
    for (std::uint64_t bytes = 8; bytes <= (16u << 20); bytes *= 2) {
        const double time = simulate_tree(westmere_platform(), bytes);
        EXPECT_GT(time, previous) << bytes;
        previous = time;
    }
}

TEST(ModelCheck, StripMiningAvoidsTheDramCliff) {
    // Per byte, 16 MiB costs about what 8 MiB costs when strip-mined into
    // LLC-sized chunks, and far more when the vector spills to DRAM.
    const double per_byte_8m = simulate_tree(westmere_platform(), 8u << 20) / (8u << 20);
    const double strip = simulate_tree(westmere_platform(), 16u << 20) / (16u << 20);
    const double spill = simulate_tree(westmere_platform(), 16u << 20, 0, {{"strip", "off"}}) / (16u << 20);
    EXPECT_LT(strip, 1.25 * per_byte_8m);
    EXPECT_GT(spill, 1.5 * strip);
}

TEST(ModelCheck, HalvedInterSocketBandwidthHurtsOnlyInterSocketTraffic) {
    auto params = costs::load_params("westmere");
    auto& inter = params.at(costs::Level::other_socket);
    inter.bandwidth_bytes_per_ns.value /= 2;
    inter.aggregate_bandwidth_bytes_per_ns.value /= 2;
    const sim::PlatformModel halved(test::load("westmere"), params, 1);

    // One socket (6 ranks): no inter-socket traffic, identical times.
    for (std::uint64_t bytes : {64u, 64u << 10, 4u << 20})
        EXPECT_DOUBLE_EQ(simulate_tree(halved, bytes, 6), simulate_tree(westmere_platform(), bytes, 6)) << bytes;
    // Both sockets: latency-bound small vectors move a little (the 6 release
    // flags and one line still cross), bandwidth-bound large ones slow down a lot.
    const double small_ratio = simulate_tree(halved, 64) / simulate_tree(westmere_platform(), 64);
    const double large_ratio = simulate_tree(halved, 4u << 20) / simulate_tree(westmere_platform(), 4u << 20);
    EXPECT_LT(small_ratio, 1.15);
    EXPECT_GT(large_ratio, 1.3);
    EXPECT_GT(large_ratio - 1, 3 * (small_ratio - 1));
}

TEST(ModelCheck, MoreNodesCostNetworkTime) {
    const sim::PlatformModel two(test::load("westmere"), costs::load_params("westmere"), 2);
    const double one_node = simulate_tree(westmere_platform(), 1024);
    const double two_nodes = simulate_tree(two, 1024);
    const costs::Params params = costs::load_params("westmere");
    EXPECT_GT(two_nodes, one_node + params.at(costs::Level::network).latency_ns.value);
}

TEST(ModelCheck, ARootPaysForEveryMessageItSends) {
    // LogGP: a flat linear broadcast from one root to the 239 other ranks of
    // 10 haswell nodes sends 216 network messages and 23 shared-memory ones,
    // one after the other on the root's core: at least 216 o_s + 23 o_s(process).
    const auto machine = test::load("haswell");
    const costs::Params params = costs::load_params("haswell");
    const sim::PlatformModel platform(machine, params, 10);
    algo::LayoutOptions layout;
    layout.nodes = 10;
    sched::CollectiveSpec spec;
    spec.collective = sched::Collective::bcast;
    spec.algorithm = "linear";
    spec.bytes = 8;
    const auto schedule = algo::generate_schedule(spec, algo::make_layout(machine, layout));
    const double makespan = sim::simulate(schedule, platform).timeline.makespan_ns;
    const double root_busy_ns =
        216 * params.messages->network_send_overhead_ns.value + 23 * params.messages->process_send_overhead_ns.value;
    EXPECT_GT(makespan, root_busy_ns);
    EXPECT_LT(makespan, root_busy_ns + 10000) << "the rest is one message's latency and a copy";
    // The hierarchical version sends one message per node from the root.
    spec.algorithm = "hier-linear";
    const auto hierarchical = algo::generate_schedule(spec, algo::make_layout(machine, layout));
    EXPECT_LT(sim::simulate(hierarchical, platform).timeline.makespan_ns, makespan / 5);
}
