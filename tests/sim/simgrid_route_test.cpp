// SimGrid's own view of the routes (Host::route_to) matches the platform
// model. One test per process: SimGrid allows a single engine.
#include <gtest/gtest.h>

#include <algorithm>
#include <simgrid/s4u.hpp>

#include "sim/simgrid_platform.hpp"
#include "sim_fixtures.hpp"

using namespace numacoll;
using sim::Endpoint;
using sim::EndpointKind;

TEST(SimgridRoutes, MatchTheModel) {
    int argc = 2;
    char name[] = "test";
    char quiet[] = "--log=root.thres:critical";
    char* argv[] = {name, quiet, nullptr};
    simgrid::s4u::Engine engine(&argc, argv);
    sim::SimgridPlatform::configure_engine();
    const sim::PlatformModel model(test::load("westmere"), costs::load_params("westmere"), 2);
    const Endpoint remote_cache{EndpointKind::cache, 0, 6}, reader{EndpointKind::core, 0, 0};
    const Endpoint memory_a{EndpointKind::memory, 0, 1}, memory_b{EndpointKind::memory, 1, 0};
    const Endpoint dma_a = model.dma(0, 1, 0), dma_b = model.dma(1, 0, 0);
    const sim::SimgridPlatform platform(model, {{remote_cache, reader}, {dma_a, dma_b}});

    auto simgrid_route = [&](const Endpoint& from, const Endpoint& to, double& latency) {
        std::vector<simgrid::s4u::Link*> links;
        latency = 0;
        platform.host(from)->route_to(platform.host(to), links, &latency);
        std::vector<std::string> names;
        for (auto* link : links) names.push_back(link->get_name());
        return names;
    };
    double latency = 0;
    const auto inside = simgrid_route(remote_cache, reader, latency);
    const auto expected = model.route(remote_cache, reader);
    ASSERT_EQ(inside.size(), expected.links.size());
    EXPECT_EQ(inside[0], "n0.c0.other_socket");
    EXPECT_EQ(inside[1].rfind("n0.link0-1", 0), 0u);  // the split-duplex link's DOWN half
    // SimGrid sees the raw latency; the latency-factor callback scales it to the model's.
    EXPECT_NEAR(latency, sim::SimgridPlatform::raw_route_latency_ns, 1e-12);

    // Across nodes: memory -> NIC, network, NIC -> memory, each link once.
    const auto across = simgrid_route(dma_a, dma_b, latency);
    std::size_t expected_links = 0;
    for (const auto& part : model.describe_route(memory_a, memory_b)) expected_links += part.links.size();
    // The scaled latency (the model's, through the latency-factor callback) is
    // checked where SimGrid applies it: EngineClosedForm.NetworkTransfersCrossBothNics.
    EXPECT_EQ(across.size(), expected_links);
    EXPECT_NEAR(latency, sim::SimgridPlatform::raw_route_latency_ns, 1e-12);
    // PCIe is full duplex: the sender's NIC reads memory up its link, the receiver's writes down its own.
    const auto crosses = [&](const std::string& prefix) {
        return std::any_of(across.begin(), across.end(), [&](const std::string& name) { return name.rfind(prefix, 0) == 0; });
    };
    EXPECT_TRUE(crosses("n0.pcie0_UP"));
    EXPECT_TRUE(crosses("n1.pcie0_DOWN"));
}
