#include "sim/platform_model.hpp"

#include <gtest/gtest.h>

#include "common/error.hpp"
#include "sim_fixtures.hpp"

using namespace numacoll;
using sim::Endpoint;
using sim::EndpointKind;

namespace {
const sim::PlatformModel& westmere() {
    static const sim::PlatformModel model(test::load("westmere"), costs::load_params("westmere"), 2);
    return model;
}
const sim::PlatformModel& magnycours() {
    static const sim::PlatformModel model(test::load("magnycours"), costs::load_params("magnycours"), 1);
    return model;
}
// Names of a westmere route's links, ":down" after a link used downwards.
std::vector<std::string> link_names(const sim::RouteSpec& route) {
    std::vector<std::string> names;
    for (const auto& use : route.links) names.push_back(westmere().link_name(use) + (use.up ? "" : ":down"));
    return names;
}
}  // namespace

TEST(PlatformModel, WestmereRoutesFollowTheLevels) {
    const auto& p = westmere();
    EXPECT_EQ(p.domain_count(), 2);
    auto local = p.route({EndpointKind::cache, 0, 3}, {EndpointKind::core, 0, 3});
    EXPECT_EQ(local.level, costs::Level::local_cache);
    EXPECT_NEAR(local.latency_ns + 64 / p.params().at(costs::Level::local_cache).bandwidth_bytes_per_ns.value, 1.2, 1e-6);

    auto same_socket = p.route({EndpointKind::cache, 0, 1}, {EndpointKind::core, 0, 0});
    EXPECT_EQ(same_socket.level, costs::Level::same_socket);
    EXPECT_EQ(link_names(same_socket), (std::vector<std::string>{"n0.c0.same_socket", "n0.llc0"}));

    auto remote = p.route({EndpointKind::cache, 0, 6}, {EndpointKind::core, 0, 0});
    EXPECT_EQ(remote.level, costs::Level::other_socket);
    EXPECT_EQ(remote.hops, 1);
    EXPECT_EQ(link_names(remote), (std::vector<std::string>{"n0.c0.other_socket", "n0.link0-1:down"}));
    // The same link, the other direction, with the same bandwidth.
    auto back = p.route({EndpointKind::cache, 0, 0}, {EndpointKind::core, 0, 6});
    EXPECT_EQ(link_names(back).back(), "n0.link0-1");
    EXPECT_TRUE(p.link("n0.link0-1").split_duplex);
    EXPECT_DOUBLE_EQ(p.link("n0.link0-1").bandwidth_bytes_per_ns, 12.8);
}

TEST(PlatformModel, EveryNodeHasTheSameLinksUnderItsOwnName) {
    const auto& p = westmere();
    EXPECT_EQ(p.link_count(), 2u * static_cast<std::size_t>(p.links_per_node()));
    const auto on_node_1 = p.route({EndpointKind::cache, 1, 6}, {EndpointKind::core, 1, 0});
    const auto on_node_0 = p.route({EndpointKind::cache, 0, 6}, {EndpointKind::core, 0, 0});
    ASSERT_EQ(on_node_1.links.size(), on_node_0.links.size());
    for (std::size_t i = 0; i < on_node_1.links.size(); ++i) {
        EXPECT_EQ(on_node_1.links[i].node, 1);
        EXPECT_EQ(on_node_1.links[i].link, on_node_0.links[i].link);
    }
    EXPECT_EQ(p.link_name(on_node_1.links[1]), "n1.link0-1");
    EXPECT_EQ(&p.link("n1.link0-1"), &p.link(on_node_1.links[1]));
    EXPECT_DOUBLE_EQ(on_node_1.latency_ns, on_node_0.latency_ns);
    for (const char* missing : {"n2.link0-1", "n1.link0-2", "link0-1", "nx.mc0", "n1mc0", "n-1.mc0", ""})
        EXPECT_THROW(p.link(missing), Error) << missing;
}

TEST(NodeRoutes, AnInNodeRouteIsTheModelsOnEveryNodeAndComputedOnce) {
    const auto& p = westmere();
    sim::NodeRoutes routes(p);
    const std::vector<std::pair<Endpoint, Endpoint>> pairs = {
        {{EndpointKind::cache, 1, 6}, {EndpointKind::core, 1, 0}},
        {{EndpointKind::memory, 1, 1}, {EndpointKind::core, 1, 2}},
        {{EndpointKind::core, 0, 3}, {EndpointKind::cache, 0, 3}},
        {{EndpointKind::memory, 1, 0}, {EndpointKind::nic, 1, 0}}};
    for (const auto& [from, to] : pairs) {
        const sim::RouteSpec expected = p.route(from, to);
        const sim::RouteSpec moved = routes.route(from, to);
        EXPECT_EQ(link_names(moved), link_names(expected)) << sim::PlatformModel::host_name(from);
        EXPECT_EQ(moved.level, expected.level);
        EXPECT_EQ(moved.hops, expected.hops);
        EXPECT_DOUBLE_EQ(moved.latency_ns, expected.latency_ns);
        // Its cost alone, from the slowest link kept with it: the model's, to the last bit.
        for (const double bytes : {0.0, 64.0, 1e6})
            EXPECT_EQ(routes.uncontended_ns(from, to, bytes), p.uncontended_ns(expected, bytes));
    }
    // Node 1's and node 0's route are one entry.
    const sim::RouteSpec& first = routes.on_node0({EndpointKind::cache, 1, 6}, {EndpointKind::core, 1, 0});
    EXPECT_EQ(&first, &routes.on_node0({EndpointKind::cache, 0, 6}, {EndpointKind::core, 0, 0}));
    EXPECT_EQ(first.links.front().node, 0);
    EXPECT_THROW(routes.route({EndpointKind::dma, 0, 0}, {EndpointKind::dma, 1, 0}), Error);
}

TEST(PlatformModel, WestmereMemoryAndNic) {
    const auto& p = westmere();
    auto local_dram = p.route({EndpointKind::memory, 0, 0}, {EndpointKind::core, 0, 2});
    EXPECT_EQ(local_dram.level, costs::Level::dram);
    EXPECT_EQ(local_dram.hops, 0);
    EXPECT_EQ(link_names(local_dram), (std::vector<std::string>{"n0.c2.dram", "n0.mc0"}));
    auto remote_dram = p.route({EndpointKind::memory, 0, 1}, {EndpointKind::core, 0, 2});
    EXPECT_EQ(remote_dram.hops, 1);
    EXPECT_EQ(link_names(remote_dram).back(), "n0.link0-1:down");
    // The InfiniBand NIC hangs off socket 0: memory of socket 1 crosses QPI to reach it.
    EXPECT_FALSE(p.virtual_nic());
    EXPECT_EQ(p.numa_of_nic(0), 0);
    auto to_nic = p.route({EndpointKind::memory, 0, 1}, {EndpointKind::nic, 0, 0});
    EXPECT_EQ(link_names(to_nic), (std::vector<std::string>{"n0.mc1", "n0.link0-1:down", "n0.pcie0"}));
    auto core_to_nic = p.route({EndpointKind::core, 0, 7}, {EndpointKind::nic, 0, 0});
    EXPECT_EQ(link_names(core_to_nic), (std::vector<std::string>{"n0.link0-1:down", "n0.pcie0"}));
    EXPECT_EQ(core_to_nic.hops, 1);
    auto across = p.describe_route({EndpointKind::memory, 0, 1}, {EndpointKind::memory, 1, 0});
    ASSERT_EQ(across.size(), 3u);
    EXPECT_EQ(link_names(across[1]), (std::vector<std::string>{"n0.wire", "n1.wire:down"}));
}

TEST(PlatformModel, MagnyCoursDiagonalsTakeTwoHops) {
    const auto& p = magnycours();
    ASSERT_EQ(p.domain_count(), 8);  // one L3 per die
    // Dies 0 and 1 share package 0; package 0 is diagonal to package 3 (dies 6, 7).
    EXPECT_EQ(p.hops(0, 1), 1);
    EXPECT_EQ(p.hops(0, 2), 1);
    EXPECT_EQ(p.hops(0, 6), 2);
    auto diagonal = p.route({EndpointKind::cache, 0, 24}, {EndpointKind::core, 0, 0});
    EXPECT_EQ(diagonal.level, costs::Level::other_socket);
    EXPECT_EQ(diagonal.hops, 2);
    EXPECT_EQ(diagonal.links.size(), 3u);  // stream, two inter-socket links
    auto neighbour = p.route({EndpointKind::cache, 0, 8}, {EndpointKind::core, 0, 0});
    EXPECT_EQ(neighbour.hops, 1);
    EXPECT_NEAR(diagonal.latency_ns, 2 * neighbour.latency_ns, 1e-9);
}

TEST(PlatformModel, MachinesWithoutNicGetAVirtualOne) {
    const sim::PlatformModel p(test::load("synthetic:Package:2 Core:2"), costs::load_params("generic"), 1);
    EXPECT_TRUE(p.virtual_nic());
    EXPECT_EQ(p.cache_capacity_bytes(0), 0u);
    EXPECT_NO_THROW(p.route({EndpointKind::memory, 0, 0}, {EndpointKind::nic, 0, 0}));
}

TEST(PlatformModel, EndpointsParseAndRefuseNonsense) {
    const auto& p = westmere();
    EXPECT_EQ(p.parse_endpoint("core3"), (Endpoint{EndpointKind::core, 0, 3}));
    EXPECT_EQ(p.parse_endpoint("n1.mem1"), (Endpoint{EndpointKind::memory, 1, 1}));
    EXPECT_THROW(p.parse_endpoint("core12"), UsageError);
    EXPECT_THROW(p.parse_endpoint("n2.core0"), UsageError);
    EXPECT_THROW(p.parse_endpoint("toaster"), UsageError);
}
