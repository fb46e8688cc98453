// Machines made from others: shapes, synthetic descriptions, the NIC's
// place, params figures by path, and the crossover of a variant.
#include "tune/whatif.hpp"

#include <gtest/gtest.h>

#include "common/error.hpp"

using namespace numacoll;

TEST(Whatif, ARegularMachineHasAShapeAndADescription) {
    const tune::NodeShape shape = tune::shape_of(topo::load_machine("synthetic:Package:2 NUMANode:2 L3Cache:2 Core:4"));
    EXPECT_EQ(shape.packages, 2);
    EXPECT_EQ(shape.numa_per_package, 2);
    EXPECT_EQ(shape.llc_per_package, 4);
    EXPECT_EQ(shape.cores_per_llc, 4);
    EXPECT_EQ(tune::synthetic_description(shape), "Package:2 NUMANode:2 L3Cache:2 Core:4");
    // The bundled Westmere: 2 sockets, a NUMA node and an L3 each, 6 cores; its NIC on NUMA node 0.
    const tune::NodeShape westmere = tune::shape_of(topo::load_machine("westmere"));
    EXPECT_EQ(tune::synthetic_description(westmere), "Package:2 NUMANode:1 L3Cache:1 Core:6");
    EXPECT_EQ(westmere.nic_numa, 0);
    // One NUMA node for several packages cannot be written per package.
    EXPECT_THROW(tune::shape_of(topo::load_machine("synthetic:Package:2 L3Cache:1 Core:4")), UsageError);
}

TEST(Whatif, TheNicSitsWhereTheShapeSays) {
    tune::NodeShape shape;
    shape.packages = 2;
    shape.numa_per_package = 2;
    shape.llc_per_package = 2;
    shape.cores_per_llc = 4;
    shape.nic_numa = 3;
    const topo::Machine machine = tune::machine_of(shape);
    EXPECT_EQ(machine.core_count(), 16);
    ASSERT_EQ(machine.nics().size(), 1u);
    EXPECT_EQ(machine.nics().front()->numa_node, 3);
    EXPECT_EQ(machine.nics().front()->package, 1);
    shape.nic_numa = 4;  // NUMA nodes 0..3
    EXPECT_THROW(tune::machine_of(shape), UsageError);
    shape.nic_numa = 0;
    shape.llc_per_package = 3;  // not whole caches per NUMA node
    EXPECT_THROW(tune::machine_of(shape), UsageError);
}

TEST(Whatif, VaryTakesMachineKeysAndParamsPaths) {
    const tune::VaryKey cores = tune::parse_vary("cores_per_llc=4,8,8,16");
    EXPECT_TRUE(cores.machine_key());
    EXPECT_EQ(cores.values, (std::vector<std::string>{"4", "8", "16"}));
    EXPECT_FALSE(tune::parse_vary("levels.other_socket.bandwidth_bytes_per_ns=6,12").machine_key());
    for (const char* bad : {"cores_per_llc", "=4", "cores_per_llc=", "cores_per_llc=0", "cores_per_llc=4,,8",
                            "sockets=2", "packages=two", "levels.dram.latency_ns=-1", "levels.dram.latency_ns=abc"})
        EXPECT_THROW(tune::parse_vary(bad), UsageError) << bad;
}

TEST(Whatif, AParamsFigureIsReplacedAndSaysSo) {
    const costs::Params generic = costs::load_params("generic");
    const costs::Params varied = tune::with_figure(generic, "levels.other_socket.bandwidth_bytes_per_ns", "6");
    EXPECT_DOUBLE_EQ(varied.at(costs::Level::other_socket).bandwidth_bytes_per_ns.value, 6.0);
    EXPECT_NE(varied.at(costs::Level::other_socket).bandwidth_bytes_per_ns.source.find("whatif"), std::string::npos);
    EXPECT_DOUBLE_EQ(varied.at(costs::Level::dram).latency_ns.value, generic.at(costs::Level::dram).latency_ns.value);
    EXPECT_NE(varied.origin.find("levels.other_socket.bandwidth_bytes_per_ns=6"), std::string::npos);
    EXPECT_THROW(tune::with_figure(generic, "levels.nosuch.latency_ns", "1"), UsageError);
    EXPECT_THROW(tune::with_figure(generic, "levels.dram", "1"), UsageError);  // a level, not a figure
    EXPECT_THROW(tune::with_figure(generic, "levels.dram.latency_ns", "0"), UsageError);
}

TEST(Whatif, TheCrossoverIsWhereTheFirstWinnerStopsWinning) {
    EXPECT_EQ(tune::first_crossover({"dissemination", "dissemination", "tree", "tiled"}), 2u);
    EXPECT_FALSE(tune::first_crossover({"tree", "tree"}));
    EXPECT_FALSE(tune::first_crossover({}));
}
