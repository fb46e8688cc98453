// The bundled machines (topologies/bundled/*.xml, embedded in the library):
// the figures scripts/gen_bundled_topologies.py puts in them must come back
// through hwloc exactly.
#include <gtest/gtest.h>

#include "invariants.hpp"
#include "topologies/machine.hpp"

namespace numacoll::topo {
namespace {

using testing::expect_invariants;
using testing::find_device;
using testing::iota_vector;

constexpr std::uint64_t kib = 1024;
constexpr std::uint64_t mib = 1024 * kib;
constexpr std::uint64_t gib = 1024 * mib;

TEST(BundledTopo, NamesAreThePapersMachines) {
    EXPECT_EQ(bundled_names(), (std::vector<std::string>{"westmere", "magnycours", "opteron8218", "haswell"}));
}

class WestmereTopo : public ::testing::Test {
protected:
    static void SetUpTestSuite() { machine = new Machine(load_bundled("westmere")); }
    static void TearDownTestSuite() { delete machine; }
    static const Machine* machine;
};
const Machine* WestmereTopo::machine = nullptr;

TEST_F(WestmereTopo, Identity) {
    EXPECT_EQ(machine->name, "westmere");
    EXPECT_EQ(machine->source, "westmere");
    EXPECT_EQ(machine->cpu_model, "Intel(R) Xeon(R) CPU X5650 @ 2.67GHz");
    expect_invariants(*machine);
}

TEST_F(WestmereTopo, Counts) {
    EXPECT_EQ(machine->packages.size(), 2u);
    EXPECT_EQ(machine->numa_nodes.size(), 2u);
    EXPECT_TRUE(machine->dies.empty());
    EXPECT_TRUE(machine->groups.empty());
    EXPECT_EQ(machine->core_count(), 12);
    EXPECT_EQ(machine->pu_count(), 24);
}

TEST_F(WestmereTopo, Caches) {
    EXPECT_EQ(machine->cache_levels, (std::vector<int>{1, 2, 3}));
    EXPECT_EQ(machine->last_level_cache(), 3);
    const std::vector<int> l3 = machine->caches_at_level(3);
    ASSERT_EQ(l3.size(), 2u);
    for (int i = 0; i < 2; ++i) {
        const Object& cache = machine->objects[l3[i]];
        EXPECT_EQ(cache.cache_bytes, 12582912u);
        EXPECT_EQ(cache.cache_type, "unified");
        EXPECT_EQ(cache.cache_line_bytes, 64);
        EXPECT_EQ(cache.cores, iota_vector(6 * i, 6));
        EXPECT_EQ(cache.pus, iota_vector(12 * i, 12));
    }
    const std::vector<int> l2 = machine->caches_at_level(2);
    ASSERT_EQ(l2.size(), 12u);
    for (int index : l2) {
        EXPECT_EQ(machine->objects[index].cache_bytes, 256 * kib);
        EXPECT_EQ(machine->objects[index].cores.size(), 1u);
    }
    const std::vector<int> l1 = machine->caches_at_level(1);
    ASSERT_EQ(l1.size(), 12u) << "instruction caches are not in caches_at_level";
    for (int index : l1) {
        EXPECT_EQ(machine->objects[index].cache_type, "data");
        EXPECT_EQ(machine->objects[index].cache_bytes, 32 * kib);
    }
    int instruction_caches = 0;
    for (const Object& object : machine->objects) {
        if (object.kind == ObjectKind::cache && object.cache_type == "instruction") {
            ++instruction_caches;
            EXPECT_EQ(object.cache_bytes, 32 * kib);
        }
    }
    EXPECT_EQ(instruction_caches, 12);
    // Core 7 (package 1) sits below L3 #1 and its own L2 #7.
    EXPECT_EQ(machine->objects[machine->cache_of_core(7, 3)].logical_index, 1);
    EXPECT_EQ(machine->objects[machine->cache_of_core(7, 2)].logical_index, 7);
    EXPECT_EQ(machine->cache_of_core(7, 4), -1);
}

TEST_F(WestmereTopo, HyperThreadSiblingsHaveLinuxOsNumbering) {
    // hwloc orders PUs by core: logical PU 2c is the first thread of core c,
    // 2c+1 its sibling, numbered 12 higher by Linux.
    for (int core = 0; core < 12; ++core) {
        EXPECT_EQ(machine->pus_of_core(core), (std::vector<int>{2 * core, 2 * core + 1}));
        EXPECT_EQ(machine->pu(2 * core).os_index, core);
        EXPECT_EQ(machine->pu(2 * core + 1).os_index, core + 12);
        EXPECT_EQ(machine->core_of_pu(2 * core + 1), core);
    }
    EXPECT_EQ(machine->pu(1).os_index, 12);
    EXPECT_NE(machine->pu(1).logical_index, machine->pu(1).os_index);
    // Package 1 holds P#6..11 and P#18..23.
    const Object& package1 = machine->objects[machine->packages[1]];
    std::vector<int> os_indexes;
    for (int pu : package1.pus) os_indexes.push_back(machine->pu(pu).os_index);
    std::sort(os_indexes.begin(), os_indexes.end());
    EXPECT_EQ(os_indexes, (std::vector<int>{6, 7, 8, 9, 10, 11, 18, 19, 20, 21, 22, 23}));
}

TEST_F(WestmereTopo, NumaNodesFollowPackages) {
    for (int core = 0; core < 12; ++core) {
        EXPECT_EQ(machine->package_of_core(core), core / 6);
        EXPECT_EQ(machine->numa_of_core(core), core / 6);
        EXPECT_EQ(machine->die_of_core(core), -1);
    }
    for (int node = 0; node < 2; ++node) {
        const Object& object = machine->objects[machine->numa_nodes[node]];
        EXPECT_EQ(object.os_index, node);
        EXPECT_EQ(object.memory_bytes, 12 * gib);
        EXPECT_EQ(object.cores, iota_vector(6 * node, 6));
    }
}

TEST_F(WestmereTopo, Distances) {
    ASSERT_TRUE(machine->distances.has_value());
    EXPECT_EQ(machine->distances->name, "NUMALatency");
    EXPECT_EQ(machine->distances->count, 2);
    EXPECT_EQ(machine->distances->values, (std::vector<double>{10, 20, 20, 10}));
}

TEST_F(WestmereTopo, InfinibandNicOnNumaNodeZero) {
    ASSERT_EQ(machine->nics().size(), 2u);
    const IoDevice* ib0 = find_device(*machine, "ib0");
    ASSERT_NE(ib0, nullptr);
    EXPECT_EQ(ib0->kind, IoKind::network);
    EXPECT_EQ(ib0->pci_busid, "0000:04:00.0");
    EXPECT_EQ(ib0->numa_node, 0);
    EXPECT_EQ(ib0->package, 0);
    EXPECT_EQ(ib0->local_cores, iota_vector(0, 6));
    const IoDevice* hca = find_device(*machine, "mlx4_0");
    ASSERT_NE(hca, nullptr);
    EXPECT_EQ(hca->kind, IoKind::openfabrics);
    EXPECT_EQ(hca->pci_busid, "0000:04:00.0");
    EXPECT_EQ(hca->numa_node, 0);
    EXPECT_EQ(hca->package, 0);
}

class MagnycoursTopo : public ::testing::Test {
protected:
    static void SetUpTestSuite() { machine = new Machine(load_machine("magnycours")); }
    static void TearDownTestSuite() { delete machine; }
    static const Machine* machine;
};
const Machine* MagnycoursTopo::machine = nullptr;

TEST_F(MagnycoursTopo, Identity) {
    EXPECT_EQ(machine->name, "magnycours");
    EXPECT_EQ(machine->cpu_model, "AMD Opteron(tm) Processor 6136");
    expect_invariants(*machine);
}

TEST_F(MagnycoursTopo, Counts) {
    EXPECT_EQ(machine->packages.size(), 4u);
    EXPECT_EQ(machine->dies.size(), 8u);
    EXPECT_EQ(machine->numa_nodes.size(), 8u);
    EXPECT_EQ(machine->core_count(), 32);
    EXPECT_EQ(machine->pu_count(), 32);
}

TEST_F(MagnycoursTopo, DiesAreHwlocDieObjectsTwoPerPackage) {
    for (int die = 0; die < 8; ++die) {
        const Object& object = machine->objects[machine->dies[die]];
        EXPECT_EQ(object.kind, ObjectKind::die);
        EXPECT_EQ(object.logical_index, die);
        const Object& parent = machine->objects[object.parent];
        EXPECT_EQ(parent.kind, ObjectKind::package);
        EXPECT_EQ(parent.logical_index, die / 2);
        EXPECT_EQ(object.cores, iota_vector(4 * die, 4));
    }
    for (int core = 0; core < 32; ++core) {
        EXPECT_EQ(machine->die_of_core(core), core / 4);
        EXPECT_EQ(machine->numa_of_core(core), core / 4);
        EXPECT_EQ(machine->package_of_core(core), core / 8);
    }
}

TEST_F(MagnycoursTopo, Caches) {
    const std::vector<int> l3 = machine->caches_at_level(3);
    ASSERT_EQ(l3.size(), 8u);
    for (int i = 0; i < 8; ++i) {
        EXPECT_EQ(machine->objects[l3[i]].cache_bytes, 5242880u);
        EXPECT_EQ(machine->objects[l3[i]].cores, iota_vector(4 * i, 4));
    }
    for (int index : machine->caches_at_level(2)) EXPECT_EQ(machine->objects[index].cache_bytes, 512 * kib);
    for (int index : machine->caches_at_level(1)) EXPECT_EQ(machine->objects[index].cache_bytes, 64 * kib);
    EXPECT_EQ(machine->caches_at_level(2).size(), 32u);
    EXPECT_EQ(machine->caches_at_level(1).size(), 32u);
    EXPECT_EQ(machine->objects[machine->cache_of_core(13, 3)].logical_index, 3);
}

TEST_F(MagnycoursTopo, DistancesFollowTheFourPackageSquare) {
    ASSERT_TRUE(machine->distances.has_value());
    EXPECT_EQ(machine->distances->name, "NUMALatency");
    ASSERT_EQ(machine->distances->count, 8);
    for (int from = 0; from < 8; ++from) {
        for (int to = 0; to < 8; ++to) {
            const int from_package = from / 2;
            const int to_package = to / 2;
            const double expected = from == to ? 10 : (from_package ^ to_package) == 3 ? 22 : 16;
            EXPECT_EQ(machine->distances->at(from, to), expected) << from << " -> " << to;
        }
    }
    // Spot checks written out: same package, adjacent package, diagonal package.
    EXPECT_EQ(machine->distances->at(0, 1), 16);
    EXPECT_EQ(machine->distances->at(0, 2), 16);
    EXPECT_EQ(machine->distances->at(0, 6), 22);
    EXPECT_EQ(machine->distances->at(3, 4), 22);
    EXPECT_EQ(machine->distances->at(3, 5), 22);
    EXPECT_EQ(machine->distances->at(2, 7), 16);
}

TEST_F(MagnycoursTopo, InfinibandNicOnNumaNodeZero) {
    ASSERT_EQ(machine->nics().size(), 2u);
    const IoDevice* ib0 = find_device(*machine, "ib0");
    ASSERT_NE(ib0, nullptr);
    EXPECT_EQ(ib0->kind, IoKind::network);
    EXPECT_EQ(ib0->numa_node, 0);
    EXPECT_EQ(ib0->package, 0);
    EXPECT_EQ(ib0->local_cores, iota_vector(0, 4));
    const IoDevice* hca = find_device(*machine, "mlx4_0");
    ASSERT_NE(hca, nullptr);
    EXPECT_EQ(hca->kind, IoKind::openfabrics);
    EXPECT_EQ(hca->numa_node, 0);
}

TEST(BundledTopo, Opteron8218IsTheNuioaPapersNodeWithItsNicOnNumaNodeOne) {
    const Machine machine = load_machine("opteron8218");
    expect_invariants(machine);
    EXPECT_EQ(machine.cpu_model, "Dual-Core AMD Opteron(tm) Processor 8218");
    EXPECT_EQ(machine.packages.size(), 4u);
    EXPECT_EQ(machine.numa_nodes.size(), 4u);
    EXPECT_EQ(machine.core_count(), 8);
    EXPECT_EQ(machine.last_level_cache(), 2);
    for (int index : machine.caches_at_level(2)) {
        EXPECT_EQ(machine.objects[index].cache_bytes, 1 * mib);
        EXPECT_EQ(machine.objects[index].cores.size(), 1u);  // private: no L3
    }
    for (int core = 0; core < 8; ++core) EXPECT_EQ(machine.numa_of_core(core), core / 2);
    ASSERT_TRUE(machine.distances.has_value());
    EXPECT_EQ(machine.distances->at(0, 1), 16);
    EXPECT_EQ(machine.distances->at(0, 3), 22);
    EXPECT_EQ(machine.distances->at(1, 2), 22);
    const IoDevice* ib0 = find_device(machine, "ib0");
    ASSERT_NE(ib0, nullptr);
    EXPECT_EQ(ib0->numa_node, 1);
    EXPECT_EQ(ib0->local_cores, iota_vector(2, 2));
}

TEST(BundledTopo, HaswellIsTheNtw10e5NodeWithClusterOnDie) {
    const Machine machine = load_machine("haswell");
    expect_invariants(machine);
    EXPECT_EQ(machine.packages.size(), 2u);
    EXPECT_EQ(machine.numa_nodes.size(), 4u);
    EXPECT_EQ(machine.core_count(), 24);
    EXPECT_EQ(machine.pu_count(), 24);  // no Hyper-Threading
    const std::vector<int> l3 = machine.caches_at_level(3);
    ASSERT_EQ(l3.size(), 4u);
    for (int i = 0; i < 4; ++i) {
        EXPECT_EQ(machine.objects[l3[i]].cache_bytes, 15 * mib);
        EXPECT_EQ(machine.objects[l3[i]].cores, iota_vector(6 * i, 6));
    }
    EXPECT_EQ(machine.distances->at(0, 1), 11);
    EXPECT_EQ(machine.distances->at(1, 2), 21);
    const IoDevice* ib0 = find_device(machine, "ib0");
    ASSERT_NE(ib0, nullptr);
    EXPECT_EQ(ib0->numa_node, 0);
}

TEST(BundledTopo, SameAsTheCheckedInFiles) {
    // The embedded copy and the file in the source tree load to the same model.
    const Machine embedded = load_bundled("westmere");
    const Machine file = load_xml_file(std::string(NUMACOLL_SOURCE_DIR) + "/topologies/bundled/westmere.xml");
    EXPECT_EQ(file.name, "westmere");
    EXPECT_EQ(file.objects.size(), embedded.objects.size());
    EXPECT_EQ(file.core_count(), embedded.core_count());
    EXPECT_EQ(file.io_devices.size(), embedded.io_devices.size());
}

}  // namespace
}  // namespace numacoll::topo
