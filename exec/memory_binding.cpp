#include "exec/memory_binding.hpp"

#include <hwloc.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <numeric>
#include <set>

#include "common/error.hpp"

namespace numacoll::exec {

MemoryBinding::MemoryBinding(const topo::Machine& machine) : machine_(machine) {
    if (hwloc_topology_init(&topology_) != 0 || hwloc_topology_load(topology_) != 0)
        throw Error("hwloc cannot load this machine's topology to pin threads and place memory");
}

MemoryBinding::~MemoryBinding() { hwloc_topology_destroy(topology_); }

bool MemoryBinding::pin_current_thread(int logical_pu) {
    // hwloc told to describe another machine (HWLOC_XMLFILE...) binds to nothing real.
    if (!hwloc_topology_is_thissystem(topology_)) {
        threads_pinned_ = false;
        return false;
    }
    const int os_index = machine_.pu(logical_pu).os_index;
    hwloc_obj_t pu = os_index >= 0 ? hwloc_get_pu_obj_by_os_index(topology_, static_cast<unsigned>(os_index)) : nullptr;
    const bool pinned = pu != nullptr && hwloc_set_cpubind(topology_, pu->cpuset, HWLOC_CPUBIND_THREAD) == 0;
    if (!pinned) threads_pinned_ = false;
    return pinned;
}

void MemoryBinding::place(std::byte* memory, std::size_t bytes, int logical_numa) {
    if (bytes == 0) return;
    bool bound = false;
    if (logical_numa >= 0 && logical_numa < static_cast<int>(machine_.numa_nodes.size()) &&
        hwloc_topology_is_thissystem(topology_)) {
        const int os_index = machine_.objects[machine_.numa_nodes[logical_numa]].os_index;
        hwloc_obj_t node = hwloc_get_numanode_obj_by_os_index(topology_, static_cast<unsigned>(os_index));
        bound = node != nullptr && hwloc_set_area_membind(topology_, memory, bytes, node->nodeset, HWLOC_MEMBIND_BIND,
                                                          HWLOC_MEMBIND_BYNODESET) == 0;
    }
    memory_bound_ = memory_bound_ && (bound || logical_numa < 0);
    std::memset(memory, 0, bytes);
}

std::string MemoryBinding::launcher_binding_excluding(int logical_pu) const {
    if (!hwloc_topology_is_thissystem(topology_)) return {};
    hwloc_bitmap_t bound = hwloc_bitmap_alloc();
    bool excludes = false;
    if (hwloc_get_cpubind(topology_, bound, HWLOC_CPUBIND_PROCESS) == 0 &&
        !hwloc_bitmap_isincluded(hwloc_topology_get_allowed_cpuset(topology_), bound)) {
        const int os_index = machine_.pu(logical_pu).os_index;
        excludes = os_index < 0 || !hwloc_bitmap_isset(bound, static_cast<unsigned>(os_index));
    }
    std::string listed;
    char* text = nullptr;
    if (excludes && hwloc_bitmap_list_asprintf(&text, bound) >= 0 && text != nullptr) listed.append(text);
    std::free(text);
    hwloc_bitmap_free(bound);
    if (excludes && listed.empty()) listed.push_back('?');
    return listed;
}

std::vector<int> MemoryBinding::launcher_bound_pus() const {
    std::vector<int> pus;
    if (!hwloc_topology_is_thissystem(topology_)) return pus;
    hwloc_bitmap_t bound = hwloc_bitmap_alloc();
    if (hwloc_get_cpubind(topology_, bound, HWLOC_CPUBIND_PROCESS) == 0 &&
        !hwloc_bitmap_isincluded(hwloc_topology_get_allowed_cpuset(topology_), bound))
        for (int pu = 0; pu < machine_.pu_count(); ++pu) {
            const int os_index = machine_.pu(pu).os_index;
            if (os_index >= 0 && hwloc_bitmap_isset(bound, static_cast<unsigned>(os_index))) pus.push_back(pu);
        }
    hwloc_bitmap_free(bound);
    return pus;
}

std::shared_ptr<std::byte> MemoryBinding::allocate(std::size_t bytes, int logical_numa) {
    const std::size_t size = bytes == 0 ? 64 : bytes;
    if (logical_numa >= 0 && logical_numa < static_cast<int>(machine_.numa_nodes.size()) &&
        hwloc_topology_is_thissystem(topology_)) {
        const int os_index = machine_.objects[machine_.numa_nodes[logical_numa]].os_index;
        hwloc_obj_t node = hwloc_get_numanode_obj_by_os_index(topology_, static_cast<unsigned>(os_index));
        if (node != nullptr) {
            void* memory = hwloc_alloc_membind(topology_, size, node->nodeset, HWLOC_MEMBIND_BIND,
                                               HWLOC_MEMBIND_BYNODESET | HWLOC_MEMBIND_STRICT);
            if (memory != nullptr) {
                std::memset(memory, 0, size);
                hwloc_topology_t topology = topology_;
                return {static_cast<std::byte*>(memory), [topology, size](std::byte* p) { hwloc_free(topology, p, size); }};
            }
        }
    }
    // Binding refused or not asked for: page-aligned memory, first touched here.
    memory_bound_ = memory_bound_ && logical_numa < 0;
    void* memory = std::aligned_alloc(4096, (size + 4095) / 4096 * 4096);
    if (memory == nullptr) throw Error("out of memory for an executor buffer");
    std::memset(memory, 0, size);
    return {static_cast<std::byte*>(memory), [](std::byte* p) { std::free(p); }};
}

std::vector<int> pus_inside_bindings(std::vector<std::vector<int>> bound_to, const topo::Machine& machine) {
    const int pu_count = machine.pu_count();
    for (std::vector<int>& pus : bound_to)
        if (pus.empty())  // bound to none: any PU
            for (int pu = 0; pu < pu_count; ++pu) pus.push_back(pu);
    const int processes = static_cast<int>(bound_to.size());
    std::vector<int> chosen(static_cast<std::size_t>(processes), -1);
    std::set<int> taken_pus, taken_cores;
    // The bound processes first, narrowest binding first, then the unbound ones.
    std::vector<int> order(static_cast<std::size_t>(processes));
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
        return bound_to[static_cast<std::size_t>(a)].size() < bound_to[static_cast<std::size_t>(b)].size();
    });
    for (int process : order) {
        const std::vector<int>& pus = bound_to[static_cast<std::size_t>(process)];
        int pick = -1;
        for (int pu : pus)
            if (!taken_cores.count(machine.core_of_pu(pu))) { pick = pu; break; }
        if (pick < 0)
            for (int pu : pus)
                if (!taken_pus.count(pu)) { pick = pu; break; }
        if (pick < 0) pick = pus.front();
        chosen[static_cast<std::size_t>(process)] = pick;
        taken_pus.insert(pick);
        taken_cores.insert(machine.core_of_pu(pick));
    }
    return chosen;
}

}  // namespace numacoll::exec
