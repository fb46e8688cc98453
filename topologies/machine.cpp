// Queries on the Machine model. Nothing here talks to hwloc: the model is a
// plain tree of objects, so these are walks up parent links and scans of the
// per-kind index vectors (machines have at most a few thousand objects).
#include "topologies/machine.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace numacoll::topo {

const char* to_string(ObjectKind kind) {
    switch (kind) {
    case ObjectKind::machine: return "machine";
    case ObjectKind::package: return "package";
    case ObjectKind::group: return "group";
    case ObjectKind::numa_node: return "numa_node";
    case ObjectKind::die: return "die";
    case ObjectKind::cache: return "cache";
    case ObjectKind::core: return "core";
    case ObjectKind::pu: return "pu";
    }
    return "unknown";
}

const char* to_string(IoKind kind) {
    switch (kind) {
    case IoKind::network: return "network";
    case IoKind::openfabrics: return "openfabrics";
    case IoKind::gpu: return "gpu";
    case IoKind::other: return "other";
    }
    return "unknown";
}

namespace {

bool is_data_cache(const Object& object) {
    return object.kind == ObjectKind::cache && object.cache_type != "instruction";
}

// Logical index of the first ancestor of `kind` above (or at) object `index`, -1 if none.
int ancestor_logical(const Machine& machine, int index, ObjectKind kind) {
    for (int at = index; at >= 0; at = machine.objects[at].parent) {
        if (machine.objects[at].kind == kind) return machine.objects[at].logical_index;
    }
    return -1;
}

}  // namespace

std::vector<int> Machine::caches_at_level(int level) const {
    std::vector<int> result;
    for (int index = 0; index < static_cast<int>(objects.size()); ++index) {
        const Object& object = objects[index];
        if (is_data_cache(object) && object.cache_level == level) result.push_back(index);
    }
    // Objects are in DFS order, which is hwloc's logical order within one level;
    // sorting keeps that true even if a level spans two hwloc depths.
    std::stable_sort(result.begin(), result.end(), [this](int a, int b) {
        return objects[a].logical_index < objects[b].logical_index;
    });
    return result;
}

int Machine::last_level_cache() const { return cache_levels.empty() ? 0 : cache_levels.back(); }

int Machine::package_of_core(int core) const {
    return ancestor_logical(*this, cores[core], ObjectKind::package);
}

int Machine::die_of_core(int core) const { return ancestor_logical(*this, cores[core], ObjectKind::die); }

int Machine::numa_of_core(int core) const {
    // NUMA nodes are memory children, not ancestors: look the core up in their locality.
    for (int node = 0; node < static_cast<int>(numa_nodes.size()); ++node) {
        const std::vector<int>& local = objects[numa_nodes[node]].cores;
        if (std::find(local.begin(), local.end(), core) != local.end()) return node;
    }
    return -1;
}

int Machine::cache_of_core(int core, int level) const {
    for (int at = cores[core]; at >= 0; at = objects[at].parent) {
        if (is_data_cache(objects[at]) && objects[at].cache_level == level) return at;
    }
    return -1;
}

int Machine::core_of_pu(int pu) const { return ancestor_logical(*this, pus[pu], ObjectKind::core); }

std::vector<int> Machine::ancestors_of_core(int core) const {
    std::vector<int> chain;
    for (int at = cores[core]; at >= 0; at = objects[at].parent) chain.push_back(at);
    return chain;
}

std::string hardware_difference(const Machine& first, const Machine& second) {
    const auto count = [](const char* what, std::size_t a, std::size_t b) {
        return a == b ? std::string() : fmt::format("{} {} against {}", a, what, b);
    };
    for (const std::string& difference :
         {count("PUs", first.pus.size(), second.pus.size()), count("cores", first.cores.size(), second.cores.size()),
          count("packages", first.packages.size(), second.packages.size()),
          count("NUMA nodes", first.numa_nodes.size(), second.numa_nodes.size())})
        if (!difference.empty()) return difference;
    for (int pu = 0; pu < first.pu_count(); ++pu) {
        if (first.pu(pu).os_index != second.pu(pu).os_index)
            return fmt::format("PU L#{} is P#{} against P#{}", pu, first.pu(pu).os_index, second.pu(pu).os_index);
        if (first.core_of_pu(pu) != second.core_of_pu(pu))
            return fmt::format("PU L#{} is in core L#{} against core L#{}", pu, first.core_of_pu(pu), second.core_of_pu(pu));
    }
    return "";
}

std::vector<const IoDevice*> Machine::nics() const {
    std::vector<const IoDevice*> result;
    for (const IoDevice& device : io_devices) {
        if (device.kind == IoKind::network || device.kind == IoKind::openfabrics) result.push_back(&device);
    }
    return result;
}

}  // namespace numacoll::topo
