// Checks the invariants documented at the top of topologies/machine.hpp on any
// loaded Machine, so that every test that loads one also checks the model.
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "topologies/machine.hpp"

namespace numacoll::topo::testing {

inline void expect_index_vector(const Machine& machine, const std::vector<int>& indexes, ObjectKind kind,
                                const std::string& what) {
    for (int logical = 0; logical < static_cast<int>(indexes.size()); ++logical) {
        const Object& object = machine.objects.at(indexes[logical]);
        EXPECT_EQ(object.kind, kind) << what << " " << logical;
        EXPECT_EQ(object.logical_index, logical) << what << " " << logical;
    }
}

inline void expect_invariants(const Machine& machine) {
    SCOPED_TRACE("machine " + machine.name);
    ASSERT_FALSE(machine.objects.empty());
    EXPECT_EQ(machine.objects[0].kind, ObjectKind::machine);
    EXPECT_EQ(machine.objects[0].parent, -1);
    for (int index = 1; index < static_cast<int>(machine.objects.size()); ++index) {
        const int parent = machine.objects[index].parent;
        ASSERT_GE(parent, 0) << "object " << index;
        ASSERT_LT(parent, index) << "object " << index << " is not in depth-first order";
        const std::vector<int>& siblings = machine.objects[parent].children;
        EXPECT_NE(std::find(siblings.begin(), siblings.end(), index), siblings.end()) << "object " << index;
    }
    expect_index_vector(machine, machine.cores, ObjectKind::core, "core");
    expect_index_vector(machine, machine.pus, ObjectKind::pu, "pu");
    expect_index_vector(machine, machine.packages, ObjectKind::package, "package");
    expect_index_vector(machine, machine.numa_nodes, ObjectKind::numa_node, "numa node");
    for (int index : machine.groups) EXPECT_EQ(machine.objects[index].kind, ObjectKind::group);
    for (int index : machine.dies) EXPECT_EQ(machine.objects[index].kind, ObjectKind::die);

    std::size_t pus_in_cores = 0;
    for (int core = 0; core < machine.core_count(); ++core) {
        const std::vector<int>& pus = machine.pus_of_core(core);
        EXPECT_FALSE(pus.empty()) << "core " << core << " has no PU";
        for (int pu : pus) EXPECT_EQ(machine.core_of_pu(pu), core) << "pu " << pu;
        pus_in_cores += pus.size();
        const std::vector<int> chain = machine.ancestors_of_core(core);
        ASSERT_FALSE(chain.empty());
        EXPECT_EQ(chain.front(), machine.cores[core]);
        EXPECT_EQ(chain.back(), 0);
    }
    EXPECT_EQ(pus_in_cores, machine.pus.size()) << "every PU belongs to exactly one core";

    EXPECT_TRUE(std::is_sorted(machine.cache_levels.begin(), machine.cache_levels.end()));
    for (int level : machine.cache_levels) {
        const std::vector<int> caches = machine.caches_at_level(level);
        EXPECT_FALSE(caches.empty()) << "level " << level;
        for (int index : caches) {
            EXPECT_EQ(machine.objects[index].kind, ObjectKind::cache);
            EXPECT_EQ(machine.objects[index].cache_level, level);
            EXPECT_NE(machine.objects[index].cache_type, "instruction");
        }
    }
    if (machine.distances) {
        EXPECT_EQ(machine.distances->count, static_cast<int>(machine.numa_nodes.size()));
        EXPECT_EQ(machine.distances->values.size(),
                  static_cast<std::size_t>(machine.distances->count) * machine.distances->count);
    }
    for (const IoDevice& device : machine.io_devices) {
        EXPECT_GE(device.numa_node, -1);
        EXPECT_LT(device.numa_node, static_cast<int>(machine.numa_nodes.size()));
        EXPECT_GE(device.package, -1);
        EXPECT_LT(device.package, static_cast<int>(machine.packages.size()));
        for (int core : device.local_cores) {
            EXPECT_GE(core, 0);
            EXPECT_LT(core, machine.core_count());
        }
    }
}

// Logical indexes 0..count-1, to compare with Object::cores / pus.
inline std::vector<int> iota_vector(int first, int count) {
    std::vector<int> values(count);
    for (int i = 0; i < count; ++i) values[i] = first + i;
    return values;
}

inline const IoDevice* find_device(const Machine& machine, const std::string& name) {
    for (const IoDevice& device : machine.io_devices) {
        if (device.name == name) return &device;
    }
    return nullptr;
}

}  // namespace numacoll::topo::testing
