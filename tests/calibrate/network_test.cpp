// The network's fit and what it writes into a params file, from synthetic
// ping-pongs made with known figures (a machine with a NIC and several NUMA
// nodes cannot be had here): the fit recovers L and BW; the levels, the
// overheads and, from a slower far side, the DMA windows say where they
// come from.
#include "calibrate/network.hpp"

#include <gtest/gtest.h>

using namespace numacoll;
using calibrate::NetworkPlacement;
using calibrate::NetworkPoint;

namespace {

std::vector<NetworkPoint> pingpong(NetworkPlacement placement, double latency_ns, double bytes_per_ns) {
    std::vector<NetworkPoint> points;
    for (std::uint64_t bytes : {0u, 8u, 64u, 512u, 4096u, 32768u, 262144u, 1u << 20, 4u << 20})
        points.push_back({placement, bytes, latency_ns + static_cast<double>(bytes) / bytes_per_ns, 0, 0, 100});
    return points;
}

calibrate::NetworkMeasurement measured(bool same_host) {
    calibrate::NetworkMeasurement m;
    m.pingpong = pingpong(NetworkPlacement::near, 1500, 5);
    m.send_overhead_ns = 200;
    m.receive_overhead_ns = 250;
    m.gap_ns = 80;
    m.same_host = same_host;
    m.host_pair = same_host ? "a and a" : "a and b";
    return m;
}

}  // namespace

TEST(NetworkFit, RecoversLatencyAndBandwidthFromTheNearPoints) {
    std::vector<NetworkPoint> points = pingpong(NetworkPlacement::near, 1500, 5);
    const std::vector<NetworkPoint> far = pingpong(NetworkPlacement::far_receive, 1700, 2.5);
    points.insert(points.end(), far.begin(), far.end());  // left out of the fit
    const calibrate::NetworkFit fit = calibrate::fit_network(points);
    EXPECT_NEAR(fit.latency_ns, 1500, 1500 * 1e-6);
    EXPECT_NEAR(fit.bandwidth_bytes_per_ns, 5, 5 * 1e-6);
    EXPECT_LT(fit.residual, 1e-9);
    EXPECT_THROW(calibrate::fit_network({points.front()}), CheckError);
}

TEST(NetworkFit, WritesTheLevelsAndOverheadsWithTheirSources) {
    costs::Params params = costs::load_params("generic");
    const costs::Params base = params;
    const calibrate::NetworkMeasurement m = measured(false);
    calibrate::apply_network(params, m, calibrate::fit_network(m.pingpong), "calibrated on a at now by numacoll x");
    const auto& nic = params.at(costs::Level::nic);
    const auto& network = params.at(costs::Level::network);
    // What o_s and o_r leave of L is shared as the base shares it.
    EXPECT_NEAR(2 * nic.latency_ns.value + network.latency_ns.value, 1500 - 200 - 250, 1e-6);
    EXPECT_NEAR(nic.latency_ns.value / network.latency_ns.value,
                base.at(costs::Level::nic).latency_ns.value / base.at(costs::Level::network).latency_ns.value, 1e-9);
    for (const auto* level : {&nic, &network}) {
        EXPECT_NEAR(level->bandwidth_bytes_per_ns.value, 5, 1e-6);
        EXPECT_EQ(level->latency_ns.source.rfind("calibrated on a", 0), 0u) << level->latency_ns.source;
    }
    ASSERT_TRUE(params.messages);
    EXPECT_EQ(params.messages->network_send_overhead_ns.value, 200);
    EXPECT_EQ(params.messages->network_receive_overhead_ns.value, 250);
    EXPECT_EQ(params.messages->network_gap_ns.value, 80);
    // Two hosts: the hand-over between processes of one node was not measured.
    EXPECT_EQ(params.messages->process_send_overhead_ns.value, base.messages->process_send_overhead_ns.value);
    EXPECT_EQ(params.messages->process_send_overhead_ns.source, base.messages->process_send_overhead_ns.source);
}

TEST(NetworkFit, OneHostsProcessesAlsoGiveTheProcessOverheads) {
    costs::Params params = costs::load_params("generic");
    const calibrate::NetworkMeasurement m = measured(true);
    calibrate::apply_network(params, m, calibrate::fit_network(m.pingpong), "calibrated on a");
    EXPECT_EQ(params.messages->process_send_overhead_ns.value, 200);
    EXPECT_EQ(params.messages->process_receive_overhead_ns.value, 250);
    EXPECT_NE(params.at(costs::Level::network).latency_ns.source.find("no NIC"), std::string::npos);
}

TEST(NetworkFit, OverheadsLongerThanTheOneWayTimeAreScaledToSumToIt) {
    // o_s + o_r = 1800 ns measured against L = 1500: they overlap the
    // transit, and a message taken as o_s + o_r would cost more than the
    // ping-pong measured. Scaled by 1500 / 1800, nothing is left for the wire.
    costs::Params params = costs::load_params("generic");
    calibrate::NetworkMeasurement m = measured(false);
    m.send_overhead_ns = 1200;
    m.receive_overhead_ns = 600;
    calibrate::apply_network(params, m, calibrate::fit_network(m.pingpong), "calibrated on a");
    EXPECT_NEAR(params.messages->network_send_overhead_ns.value, 1000, 1e-6);
    EXPECT_NEAR(params.messages->network_receive_overhead_ns.value, 500, 1e-6);
    EXPECT_NE(params.messages->network_send_overhead_ns.source.find("1200 ns measured"), std::string::npos);
    EXPECT_NE(params.messages->network_receive_overhead_ns.source.find("scaled by 0.833"), std::string::npos);
    EXPECT_EQ(params.at(costs::Level::network).latency_ns.value, 0);
    EXPECT_EQ(params.at(costs::Level::nic).latency_ns.value, 0);
    // Within the one-way time they stay as measured (WritesTheLevelsAndOverheadsWithTheirSources).
}

TEST(NetworkFit, ASlowerFarSideGivesTheDmaWindowTheNuioaRuleSays) {
    costs::Params params = costs::load_params("generic");
    const costs::Params base = params;
    calibrate::NetworkMeasurement m = measured(false);
    m.hops_far = 2;
    const auto far_receive = pingpong(NetworkPlacement::far_receive, 1600, 2.5);  // half the bandwidth
    const auto far_send = pingpong(NetworkPlacement::far_send, 1500, 5);         // as fast as near
    m.pingpong.insert(m.pingpong.end(), far_receive.begin(), far_receive.end());
    m.pingpong.insert(m.pingpong.end(), far_send.begin(), far_send.end());
    calibrate::apply_network(params, m, calibrate::fit_network(m.pingpong), "calibrated on a");
    ASSERT_TRUE(params.nic_dma);
    const double a_o = params.at(costs::Level::other_socket).latency_ns.value;
    const double a_d = params.at(costs::Level::dram).latency_ns.value;
    EXPECT_NEAR(params.nic_dma->write_window_bytes.value, 2.5 * (2 * 2 * a_o + a_d), 1e-6);
    EXPECT_EQ(params.nic_dma->read_window_bytes.value, base.nic_dma->read_window_bytes.value);
    EXPECT_NE(params.nic_dma->read_window_bytes.source.find("does not bind"), std::string::npos);
}

TEST(NetworkFit, GivenTheBandwidthFitsTheLatencyAlone) {
    const calibrate::NetworkFit fit = calibrate::fit_latency_at(pingpong(NetworkPlacement::near, 1500, 5), 5);
    EXPECT_NEAR(fit.latency_ns, 1500, 1e-6);
    EXPECT_EQ(fit.bandwidth_bytes_per_ns, 5);
    EXPECT_TRUE(fit.bandwidth_streamed);
    EXPECT_LT(fit.residual, 1e-9);
    EXPECT_THROW(calibrate::fit_latency_at(pingpong(NetworkPlacement::near, 1500, 5), 0), CheckError);
}

// Behind a token bucket of 64 KiB (a tc shaper), a ping-pong's messages up
// to the bucket pass at the wire's 2 B/ns, larger ones at the link's
// 0.125 B/ns: fitting both L and BW misses the link's rate; between hosts
// the stream's rate is taken and only L is fitted.
TEST(NetworkFit, BetweenHostsTheStreamGivesTheBandwidth) {
    calibrate::NetworkMeasurement m = measured(false);
    m.pingpong.clear();
    for (std::uint64_t bytes : {0u, 8u, 64u, 512u, 4096u, 32768u, 262144u, 1u << 20, 4u << 20}) {
        const double wire = static_cast<double>(std::min<std::uint64_t>(bytes, 65536)) / 2;
        const double shaped = static_cast<double>(bytes > 65536 ? bytes - 65536 : 0) / 0.125;
        m.pingpong.push_back({NetworkPlacement::near, bytes, 10000 + wire + shaped, 0, 0, 100});
    }
    const calibrate::NetworkFit both = calibrate::fit_network(m.pingpong);
    EXPECT_GT(both.bandwidth_bytes_per_ns, 1.5 * 0.125) << "the bucket no longer misleads the two-parameter fit";
    m.stream_bytes_per_ns = 0.125;
    m.stream_window = 16;
    m.stream_message_bytes = 1u << 20;
    const calibrate::NetworkFit fit = calibrate::fit_measured_network(m);
    EXPECT_TRUE(fit.bandwidth_streamed);
    EXPECT_EQ(fit.bandwidth_bytes_per_ns, 0.125);
    // The sizes up to 512 B; 512 B passed faster than the link would carry it, and pulls L down by a tenth.
    EXPECT_NEAR(fit.latency_ns, 10000, 0.15 * 10000);
    costs::Params params = costs::load_params("generic");
    calibrate::apply_network(params, m, fit, "calibrated on a");
    EXPECT_EQ(params.at(costs::Level::network).bandwidth_bytes_per_ns.value, 0.125);
    EXPECT_NE(params.at(costs::Level::network).bandwidth_bytes_per_ns.source.find("stream of 16 messages of 1MiB"),
              std::string::npos)
        << params.at(costs::Level::network).bandwidth_bytes_per_ns.source;
    // Within one host both are fitted, as before.
    m.same_host = true;
    const calibrate::NetworkFit one_host = calibrate::fit_measured_network(m);
    EXPECT_FALSE(one_host.bandwidth_streamed);
    EXPECT_EQ(one_host.bandwidth_bytes_per_ns, both.bandwidth_bytes_per_ns);
}
