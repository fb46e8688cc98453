// algo::NodeHierarchy: the hwloc tree of one node, restricted to the PUs that
// run ranks, with every level removed that does not change the set of ranks
// sharing it (a package whose only child is its L3 becomes one level
// "package+L3"; a core with one rank becomes a leaf).
//
// Algorithms map their trees onto it: groups that share a cache first,
// packages at the top. Local ranks (0..ranks_per_node-1) are the leaves.
//
// Invariants: groups[root] holds every local rank; children of a group are
// disjoint, ordered by their first rank, and their ranks partition the
// group's ranks; a group's leader is its first (smallest) local rank.
#pragma once

#include <string>
#include <vector>

#include "algorithms/layout.hpp"

namespace numacoll::algo {

struct HierarchyGroup {
    std::string level;       // hwloc kinds merged into this level, e.g. "package+L3"
    int depth = 0;           // 0 for the root
    std::vector<int> ranks;  // local ranks, ascending
    std::vector<int> children;  // group indexes; empty for a leaf (one rank)
    int leader() const { return ranks.front(); }
};

struct NodeHierarchy {
    std::vector<HierarchyGroup> groups;
    int root = 0;
};

NodeHierarchy build_node_hierarchy(const Layout& layout);

// The "sockets" of HPDC'13's algorithms, called top-level domains here (users
// of hwloc read "socket" as package, which it is not always): the local ranks
// of each child of the root group (packages; LLC domains or dies on a
// one-package node), or one group of every rank when the root's children are
// single ranks (one domain).
std::vector<std::vector<int>> top_level_domains(const NodeHierarchy& hierarchy);

}  // namespace numacoll::algo
