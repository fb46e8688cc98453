#include "costs/core_levels.hpp"

#include <algorithm>
#include <deque>
#include <iterator>
#include <map>
#include <set>

namespace numacoll::costs {

CoreLevels::CoreLevels(const topo::Machine& machine) {
    const int llc_level = machine.last_level_cache();
    std::map<int, int> domain_of_object;  // LLC (or package) object index -> domain
    std::set<int> counted_llcs;
    for (int core = 0; core < machine.core_count(); ++core) {
        const int llc = llc_level > 0 ? machine.cache_of_core(core, llc_level) : -1;
        // A last-level cache private to one core makes no domain of its own:
        // its cores meet in the package (Opteron 8218: 1 MB L2 per core, no L3).
        int object = llc >= 0 && machine.objects[llc].cores.size() > 1 ? llc : -1;
        if (object < 0 && machine.package_of_core(core) >= 0) object = machine.packages[machine.package_of_core(core)];
        if (object < 0) object = 0;
        auto [it, inserted] = domain_of_object.emplace(object, static_cast<int>(domain_of_object.size()));
        if (inserted) {
            domain_numa_.push_back(machine.numa_of_core(core));
            domain_llc_bytes_.push_back(0);
        }
        core_domain_.push_back(it->second);
        core_llc_bytes_.push_back(llc >= 0 ? machine.objects[llc].cache_bytes : 0);
        if (llc >= 0 && counted_llcs.insert(llc).second) domain_llc_bytes_[it->second] += machine.objects[llc].cache_bytes;
        int shared = -1;
        std::uint64_t private_bytes = 0;
        for (int level : machine.cache_levels) {
            if (level >= llc_level) break;
            const int candidate = machine.cache_of_core(core, level);
            if (candidate >= 0 && machine.objects[candidate].cores.size() > 1) {
                shared = candidate;
                break;
            }
            if (candidate >= 0) private_bytes = std::max(private_bytes, machine.objects[candidate].cache_bytes);
        }
        core_shared_cache_.push_back(shared);
        // A last-level cache of its own is where its data goes beyond the L1: no shared LLC to spill into.
        const bool own_llc = llc >= 0 && machine.objects[llc].cores.size() <= 1;
        core_private_bytes_.push_back(own_llc ? 0 : private_bytes);
    }

    const int domains = domain_count();
    std::set<double> remote;
    const auto& distances = machine.distances;
    auto distance = [&](int a, int b) -> double {
        const int na = domain_numa_[a], nb = domain_numa_[b];
        if (!distances || na < 0 || nb < 0 || na >= distances->count || nb >= distances->count || na == nb) return -1;
        return distances->at(na, nb);
    };
    for (int a = 0; a < domains; ++a)
        for (int b = 0; b < domains; ++b)
            if (a != b && distance(a, b) > 0) remote.insert(distance(a, b));
    hops_.assign(domains, std::vector<int>(domains, 0));
    for (int a = 0; a < domains; ++a)
        for (int b = 0; b < domains; ++b) {
            if (a == b) continue;
            const double d = distance(a, b);
            hops_[a][b] = d > 0 ? 1 + static_cast<int>(std::distance(remote.begin(), remote.find(d))) : 1;
        }
    for (int a = 0; a < domains; ++a)
        for (int b = a + 1; b < domains; ++b) hops_[a][b] = hops_[b][a] = std::min(hops_[a][b], hops_[b][a]);

    next_hop_.assign(domains, std::vector<int>(domains, -1));
    for (int source = 0; source < domains; ++source) {
        std::vector<int> first_step(domains, -1);
        std::deque<int> queue{source};
        std::vector<bool> seen(domains, false);
        seen[source] = true;
        while (!queue.empty()) {
            const int at = queue.front();
            queue.pop_front();
            for (int next = 0; next < domains; ++next) {
                if (seen[next] || hops_[at][next] != 1) continue;
                seen[next] = true;
                first_step[next] = at == source ? next : first_step[at];
                queue.push_back(next);
            }
        }
        for (int target = 0; target < domains; ++target)
            next_hop_[source][target] = first_step[target] >= 0 ? first_step[target] : target;
    }
}

int CoreLevels::domain_of_numa(int numa) const {
    for (int domain = 0; domain < domain_count(); ++domain)
        if (domain_numa_[domain] == numa) return domain;
    return 0;
}

LevelJoin CoreLevels::between(int owner_core, int reader_core) const {
    if (owner_core == reader_core) return {Level::local_cache, 0};
    const int shared = core_shared_cache_[reader_core];
    if (shared >= 0 && shared == core_shared_cache_[owner_core]) return {Level::same_cache, 0};
    const int a = core_domain_[owner_core], b = core_domain_[reader_core];
    if (a == b) return {Level::same_socket, 0};
    return {Level::other_socket, hops_[a][b]};
}

}  // namespace numacoll::costs
