// The live machine, the spec grammar of load_machine, and the queries of the
// Machine model (to_string, ancestors, lookups) on a small synthetic machine.
#include <thread>

#include <gtest/gtest.h>

#include "invariants.hpp"
#include "topologies/machine.hpp"

namespace numacoll::topo {
namespace {

using testing::expect_invariants;

TEST(LiveTopo, LoadsThisMachine) {
    const Machine machine = load_live();
    EXPECT_EQ(machine.name, "live");
    EXPECT_EQ(machine.source, "live");
    EXPECT_GE(machine.core_count(), 1);
    EXPECT_GE(machine.pu_count(), machine.core_count());
    // hwloc lists the PUs this process may use (cgroups can hide some of the
    // online ones), so never more than the OS reports online.
    const unsigned online = std::thread::hardware_concurrency();
    if (online > 0) {
        EXPECT_LE(machine.pu_count(), static_cast<int>(online));
    }
    for (int core = 0; core < machine.core_count(); ++core) {
        EXPECT_FALSE(machine.pus_of_core(core).empty()) << "core " << core;
    }
    EXPECT_GE(machine.numa_nodes.size(), 1u);
    expect_invariants(machine);
}

TEST(LiveTopo, ThroughTheSpecGrammar) {
    const Machine machine = load_machine("live");
    EXPECT_EQ(machine.name, "live");
    EXPECT_GE(machine.core_count(), 1);
}

TEST(MachineTopo, KindNames) {
    EXPECT_STREQ(to_string(ObjectKind::machine), "machine");
    EXPECT_STREQ(to_string(ObjectKind::package), "package");
    EXPECT_STREQ(to_string(ObjectKind::group), "group");
    EXPECT_STREQ(to_string(ObjectKind::numa_node), "numa_node");
    EXPECT_STREQ(to_string(ObjectKind::die), "die");
    EXPECT_STREQ(to_string(ObjectKind::cache), "cache");
    EXPECT_STREQ(to_string(ObjectKind::core), "core");
    EXPECT_STREQ(to_string(ObjectKind::pu), "pu");
    EXPECT_STREQ(to_string(IoKind::network), "network");
    EXPECT_STREQ(to_string(IoKind::openfabrics), "openfabrics");
    EXPECT_STREQ(to_string(IoKind::gpu), "gpu");
    EXPECT_STREQ(to_string(IoKind::other), "other");
}

TEST(MachineTopo, AncestorsOfCoreGoFromCoreToMachine) {
    const Machine machine = load_synthetic("Package:2 L3Cache:1 L2Cache:2 Core:1 PU:2");
    expect_invariants(machine);
    // Core 3: PU parents excluded, core < L2 < L3 < package < machine.
    const std::vector<int> chain = machine.ancestors_of_core(3);
    std::vector<ObjectKind> kinds;
    for (int index : chain) kinds.push_back(machine.objects[index].kind);
    EXPECT_EQ(kinds, (std::vector<ObjectKind>{ObjectKind::core, ObjectKind::cache, ObjectKind::cache,
                                              ObjectKind::package, ObjectKind::machine}));
    EXPECT_EQ(machine.objects[chain[1]].cache_level, 2);
    EXPECT_EQ(machine.objects[chain[1]].logical_index, 3);
    EXPECT_EQ(machine.objects[chain[2]].cache_level, 3);
    EXPECT_EQ(machine.objects[chain[2]].logical_index, 1);
    EXPECT_EQ(machine.objects[chain[3]].logical_index, 1);
    EXPECT_EQ(machine.package_of_core(3), 1);
    EXPECT_EQ(machine.cache_of_core(3, 3), chain[2]);
    EXPECT_EQ(machine.cache_of_core(3, 1), -1);
    EXPECT_EQ(machine.pus_of_core(3), (std::vector<int>{6, 7}));
    EXPECT_EQ(machine.core_of_pu(7), 3);
    EXPECT_EQ(machine.core(3).pus, (std::vector<int>{6, 7}));
    EXPECT_EQ(machine.pu(7).cores, (std::vector<int>{3}));
}

TEST(MachineTopo, ChildrenListNumaNodesAndNormalChildren) {
    const Machine machine = load_synthetic("Package:2 NUMANode:1 Core:2 PU:1");
    const Object& package = machine.objects[machine.packages[0]];
    ASSERT_EQ(package.children.size(), 3u);
    EXPECT_EQ(machine.objects[package.children[0]].kind, ObjectKind::numa_node);
    EXPECT_EQ(machine.objects[package.children[1]].kind, ObjectKind::core);
    EXPECT_EQ(machine.objects[machine.numa_nodes[1]].cores, (std::vector<int>{2, 3}));
    EXPECT_EQ(machine.numa_of_core(3), 1);
    EXPECT_EQ(machine.die_of_core(3), -1);
}

TEST(MachineTopo, NicsAreNetworkAndOpenFabricsDevicesOnly) {
    Machine machine;
    for (auto [kind, name] : {std::pair{IoKind::network, "eth0"}, std::pair{IoKind::other, "sda"},
                              std::pair{IoKind::openfabrics, "mlx5_0"}, std::pair{IoKind::gpu, "cuda0"}}) {
        IoDevice device;
        device.kind = kind;
        device.name = name;
        machine.io_devices.push_back(device);
    }
    const std::vector<const IoDevice*> nics = machine.nics();
    ASSERT_EQ(nics.size(), 2u);
    EXPECT_EQ(nics[0]->name, "eth0");
    EXPECT_EQ(nics[1]->name, "mlx5_0");
}

TEST(MachineTopo, LastLevelCacheIsZeroWithoutCaches) {
    const Machine machine = load_synthetic("Package:2 Core:2 PU:1");
    EXPECT_TRUE(machine.cache_levels.empty());
    EXPECT_EQ(machine.last_level_cache(), 0);
    EXPECT_TRUE(machine.caches_at_level(1).empty());
}

}  // namespace
}  // namespace numacoll::topo
