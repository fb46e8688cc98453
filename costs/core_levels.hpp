// costs::CoreLevels: which level of the cost model joins two cores of one
// node, and how far apart its sockets are. Whatever charges a transfer at a
// level (the simulator's routes, the locality statistics) asks it, so the
// levels mean the same everywhere. Its "sockets" are last-level-cache
// domains, the cost model's; the generators' socket groups (the top of the
// node hierarchy) are the algorithms', and may hold several such domains.
//
// - local_cache: the same core;
// - same_cache: two cores sharing a cache below the last level (the
//   smallest such cache);
// - same_socket: the same last-level-cache domain (a "socket": the cores
//   under one last-level cache, or one package when there is no cache or
//   the last-level cache is private to each core);
// - other_socket: another domain, `hops` inter-socket links away. Hops come
//   from the NUMA distances: the smallest remote distance is one hop, the
//   next two hops, and so on; without distances every other domain is one
//   hop away. An asymmetric matrix takes the nearer direction. Paths follow
//   the one-hop pairs (breadth first), or go direct where none leads.
//
// Invariants: domains are numbered in the order of their first core; every
// core has one domain; hops(a, a) == 0 and hops(a, b) == hops(b, a) >= 1.
#pragma once

#include <cstdint>
#include <vector>

#include "costs/params.hpp"
#include "topologies/machine.hpp"

namespace numacoll::costs {

struct LevelJoin {
    Level level = Level::local_cache;
    int hops = 0;  // inter-socket links crossed (other_socket only)
};

class CoreLevels {
public:
    explicit CoreLevels(const topo::Machine& machine);

    // The level through which `reader` gets data that sits in `owner`'s cache.
    LevelJoin between(int owner_core, int reader_core) const;

    int domain_of_core(int core) const { return core_domain_[core]; }
    int domain_count() const { return static_cast<int>(domain_numa_.size()); }
    // A NUMA node local to the domain, -1 if none.
    int numa_of_domain(int domain) const { return domain_numa_[domain]; }
    // The domain a NUMA node's memory hangs off (a memory-only node: the first).
    int domain_of_numa(int numa) const;
    int hops(int from_domain, int to_domain) const { return hops_[from_domain][to_domain]; }
    // The next domain on a shortest path; `to_domain` itself when adjacent or unreachable.
    int next_hop(int from_domain, int to_domain) const { return next_hop_[from_domain][to_domain]; }
    // Object index of the smallest cache below the last level that the core
    // shares with another core, -1 if none.
    int shared_cache_of_core(int core) const { return core_shared_cache_[core]; }
    // The largest cache below the last level that holds this core alone (its
    // L2 on most x86 cores), 0 if none or if the last level is the core's
    // own: what core.private_cache_bytes means.
    std::uint64_t private_cache_bytes_of_core(int core) const { return core_private_bytes_[core]; }
    // The size of the core's last-level cache, 0 without caches.
    std::uint64_t llc_bytes_of_core(int core) const { return core_llc_bytes_[core]; }
    // What a domain's last-level caches hold together (one shared cache, or
    // the private ones of its cores), 0 without caches.
    std::uint64_t llc_bytes_of_domain(int domain) const { return domain_llc_bytes_[domain]; }

private:
    std::vector<int> core_domain_;
    std::vector<std::uint64_t> core_llc_bytes_;
    std::vector<int> core_shared_cache_;
    std::vector<std::uint64_t> core_private_bytes_;
    std::vector<int> domain_numa_;
    std::vector<std::uint64_t> domain_llc_bytes_;
    std::vector<std::vector<int>> hops_;      // domain x domain
    std::vector<std::vector<int>> next_hop_;  // domain x domain
};

}  // namespace numacoll::costs
