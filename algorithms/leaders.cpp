#include "algorithms/leaders.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <limits>

#include "common/error.hpp"

namespace numacoll::algo {

LeaderRule parse_leader_rule(const std::string& text) {
    if (text == "default") return LeaderRule::default_rank;
    if (text == "nic") return LeaderRule::nic;
    throw UsageError(fmt::format("leader must be default or nic (got '{}')", text));
}

OptionInfo leader_option() {
    return {"leader", "default",
            "leader election: default (the root's local rank) or nic (a rank on the NUMA node of the NIC)",
            {"default", "nic"}};
}

LeaderRule read_leader_rule(const OptionReader& reader) {
    return parse_leader_rule(reader.choice("leader", {"default", "nic"}));
}

namespace {

bool near_nic(const Layout& layout, const topo::IoDevice& nic, int local) {
    const RankPlace& place = layout.ranks[local];
    if (nic.numa_node >= 0) return place.numa == nic.numa_node;
    return std::find(nic.local_cores.begin(), nic.local_cores.end(), place.core) != nic.local_cores.end();
}

// How far `nic` is from NUMA node `numa`: 0 on it, else the NUMA distance (or 1 without a matrix).
double nic_distance(const topo::Machine& machine, const topo::IoDevice& nic, int numa) {
    if (nic.numa_node < 0 || numa < 0) return std::numeric_limits<double>::max();
    if (nic.numa_node == numa) return 0;
    if (machine.distances && nic.numa_node < machine.distances->count && numa < machine.distances->count)
        return machine.distances->at(numa, nic.numa_node);
    return 1;
}

}  // namespace

int leader_local_rank(const Layout& layout, int root, LeaderRule rule) {
    const int preferred = layout.ranks[root].local_rank;
    if (rule == LeaderRule::default_rank) return preferred;
    const topo::Machine& machine = *layout.machine;
    const topo::IoDevice* chosen = nullptr;
    double best = std::numeric_limits<double>::max();
    for (const topo::IoDevice* nic : machine.nics()) {
        bool reachable = false;
        for (int local = 0; local < layout.ranks_per_node; ++local) reachable = reachable || near_nic(layout, *nic, local);
        if (!reachable) continue;
        const double distance = nic_distance(machine, *nic, layout.ranks[preferred].numa);
        if (chosen == nullptr || distance < best) {
            chosen = nic;
            best = distance;
        }
    }
    if (chosen == nullptr) return preferred;
    if (near_nic(layout, *chosen, preferred)) return preferred;
    for (int local = 0; local < layout.ranks_per_node; ++local)
        if (near_nic(layout, *chosen, local)) return local;
    return preferred;
}

int node_leader(const Layout& layout, int root, LeaderRule rule, int node) {
    if (node == layout.node_of(root)) return root;
    return layout.node_root(node) + leader_local_rank(layout, root, rule);
}

}  // namespace numacoll::algo
