// hwloc synthetic descriptions: the shapes numacoll uses for what-if machines.
#include <gtest/gtest.h>

#include "common/error.hpp"
#include "invariants.hpp"
#include "topologies/machine.hpp"

namespace numacoll::topo {
namespace {

using testing::expect_invariants;
using testing::iota_vector;

TEST(SyntheticTopo, ThreePackagesOfFiveCores) {
    const Machine machine = load_synthetic("Package:3 Core:5 PU:1");
    expect_invariants(machine);
    EXPECT_EQ(machine.name, "synthetic");
    EXPECT_EQ(machine.source, "synthetic:Package:3 Core:5 PU:1");
    EXPECT_EQ(machine.packages.size(), 3u);
    EXPECT_EQ(machine.core_count(), 15);
    EXPECT_EQ(machine.pu_count(), 15);
    for (int package = 0; package < 3; ++package) {
        EXPECT_EQ(machine.objects[machine.packages[package]].cores, iota_vector(5 * package, 5));
    }
    for (int core = 0; core < 15; ++core) EXPECT_EQ(machine.package_of_core(core), core / 5);
    // hwloc gives a synthetic machine one NUMA node covering everything.
    ASSERT_EQ(machine.numa_nodes.size(), 1u);
    EXPECT_EQ(machine.objects[machine.numa_nodes[0]].cores, iota_vector(0, 15));
    EXPECT_FALSE(machine.distances.has_value());
    EXPECT_TRUE(machine.io_devices.empty());
}

TEST(SyntheticTopo, ALargeMachineKeepsEveryObjectsCoresAndPus) {
    // 4096 hyper-threaded cores: each package's and each L3's cores and PUs,
    // found from their own cpusets (not every core against every object).
    const Machine machine = load_synthetic("Package:4 L3Cache:2 Core:512 PU:2");
    expect_invariants(machine);
    ASSERT_EQ(machine.core_count(), 4096);
    ASSERT_EQ(machine.pu_count(), 8192);
    for (int package = 0; package < 4; ++package) {
        EXPECT_EQ(machine.objects[machine.packages[package]].cores, iota_vector(1024 * package, 1024));
        EXPECT_EQ(machine.objects[machine.packages[package]].pus, iota_vector(2048 * package, 2048));
    }
    const std::vector<int> l3 = machine.caches_at_level(3);
    ASSERT_EQ(l3.size(), 8u);
    EXPECT_EQ(machine.objects[l3[5]].cores, iota_vector(512 * 5, 512));
    EXPECT_EQ(machine.pus_of_core(4095), (std::vector<int>{8190, 8191}));
}

TEST(SyntheticTopo, AMachineTooLargeToLoadIsRefusedBeforeHwlocTriesIt) {
    // A million PUs took hwloc more than a minute; the count is refused first.
    try {
        load_synthetic("Package:1000 Core:1000");
        ADD_FAILURE() << "a million PUs were loaded";
    } catch (const UsageError& error) {
        EXPECT_NE(std::string(error.what()).find("describes 1000000 PUs"), std::string::npos) << error.what();
        EXPECT_NE(std::string(error.what()).find("NUMACOLL_MAX_PUS"), std::string::npos) << error.what();
    }
    // Memory attached in brackets does not multiply.
    EXPECT_EQ(load_synthetic("[NUMANode(memory=1000000)] Package:2 Core:2 PU:2").pu_count(), 8);
}

TEST(SyntheticTopo, SingleCore) {
    const Machine machine = load_synthetic("Core:1 PU:1");
    expect_invariants(machine);
    EXPECT_TRUE(machine.packages.empty());
    EXPECT_EQ(machine.core_count(), 1);
    EXPECT_EQ(machine.pu_count(), 1);
    EXPECT_EQ(machine.package_of_core(0), -1);
    EXPECT_EQ(machine.numa_of_core(0), 0);
    EXPECT_EQ(machine.pus_of_core(0), (std::vector<int>{0}));
}

TEST(SyntheticTopo, SevenSingleCorePackagesWithoutPuLevel) {
    // hwloc needs PU as the last level; numacoll adds one PU per core.
    for (const std::string spec : {"synthetic:Package:7 Core:1", "synthetic:\"Package:7 Core:1\""}) {
        SCOPED_TRACE(spec);
        const Machine machine = load_machine(spec);
        expect_invariants(machine);
        EXPECT_EQ(machine.packages.size(), 7u);
        EXPECT_EQ(machine.core_count(), 7);
        EXPECT_EQ(machine.pu_count(), 7);
        for (int core = 0; core < 7; ++core) EXPECT_EQ(machine.package_of_core(core), core);
        EXPECT_EQ(machine.source, "synthetic:Package:7 Core:1");
    }
}

TEST(SyntheticTopo, SixtyFourCoresWithSharedL3) {
    const Machine machine = load_machine("synthetic:'Package:4 L3Cache:2 Core:8 PU:1'");
    expect_invariants(machine);
    EXPECT_EQ(machine.packages.size(), 4u);
    EXPECT_EQ(machine.core_count(), 64);
    EXPECT_EQ(machine.pu_count(), 64);
    EXPECT_EQ(machine.cache_levels, (std::vector<int>{3}));
    EXPECT_EQ(machine.last_level_cache(), 3);
    const std::vector<int> l3 = machine.caches_at_level(3);
    ASSERT_EQ(l3.size(), 8u);
    for (int i = 0; i < 8; ++i) EXPECT_EQ(machine.objects[l3[i]].cores, iota_vector(8 * i, 8));
    for (int core = 0; core < 64; ++core) {
        EXPECT_EQ(machine.objects[machine.cache_of_core(core, 3)].logical_index, core / 8);
        EXPECT_EQ(machine.package_of_core(core), core / 16);
    }
    EXPECT_EQ(machine.objects[machine.packages[2]].cores, iota_vector(32, 16));
}

TEST(SyntheticTopo, HyperThreadedCores) {
    const Machine machine = load_synthetic("Package:2 Core:2 PU:2");
    expect_invariants(machine);
    EXPECT_EQ(machine.core_count(), 4);
    EXPECT_EQ(machine.pu_count(), 8);
    EXPECT_EQ(machine.pus_of_core(2), (std::vector<int>{4, 5}));
    EXPECT_EQ(machine.core_of_pu(5), 2);
}

TEST(SyntheticTopo, PusWithoutCoresGetOneSyntheticCoreEach) {
    const Machine machine = load_synthetic("Package:2 L2Cache:2 PU:2");
    expect_invariants(machine);
    EXPECT_EQ(machine.pu_count(), 8);
    ASSERT_EQ(machine.core_count(), 8);
    for (int core = 0; core < 8; ++core) {
        EXPECT_EQ(machine.pus_of_core(core), (std::vector<int>{core}));
        EXPECT_EQ(machine.core(core).subtype, "synthetic");
        EXPECT_EQ(machine.core(core).os_index, -1);
        EXPECT_EQ(machine.package_of_core(core), core / 4);
    }
    // The L2 caches now share two (synthetic) cores each.
    const std::vector<int> l2 = machine.caches_at_level(2);
    ASSERT_EQ(l2.size(), 4u);
    EXPECT_EQ(machine.objects[l2[1]].cores, (std::vector<int>{2, 3}));
}

TEST(SyntheticTopo, DiesAndSizedCaches) {
    const Machine machine = load_synthetic("Package:2 Die:2 L3Cache:1(size=8388608) Core:2 PU:1");
    expect_invariants(machine);
    EXPECT_EQ(machine.dies.size(), 4u);
    EXPECT_EQ(machine.die_of_core(5), 2);
    const std::vector<int> l3 = machine.caches_at_level(3);
    ASSERT_EQ(l3.size(), 4u);
    EXPECT_EQ(machine.objects[l3[0]].cache_bytes, 8u * 1024 * 1024);
}

}  // namespace
}  // namespace numacoll::topo
