// algo::LayoutLevels: the hierarchy of levels of a whole layout, as the
// hierarchical-communicators paper defines it (section 3.2): the network on
// top when there are several nodes, then in each node every hwloc level
// where the set of ranks sharing it changes (NodeHierarchy), redundant
// levels removed. The paper makes no difference between network and memory
// hierarchy, and neither does this: a level is a level.
//
// Each group has a leader, and the leaders of a group's children form the
// group's "roots group" (section 3.2.3, MPI_Comm_hsplit_with_roots): the
// ranks that talk for their subgroups at that level. A hierarchical
// collective runs a flat algorithm on each roots group in turn.
#pragma once

#include <string>
#include <vector>

#include "algorithms/hierarchy.hpp"

namespace numacoll::algo {

struct LevelGroup {
    std::string level;          // "network", "Machine", "package+L3", "L2+L1+core", "rank"...
    int depth = 0;              // 0 for the top
    std::vector<int> ranks;     // global ranks, ascending
    std::vector<int> children;  // group indexes, ordered by their first rank
};

class LayoutLevels {
public:
    // `root`: the rank every group containing it is led by (a rooted
    // collective's root). Elsewhere the leader is the rank with the root's
    // local rank, if the group holds it (the same leader on every node, as
    // Open MPI's hierarchical collectives elect them), else the group's
    // first rank. Holds what it needs of `layout` by value: a temporary
    // layout is fine.
    LayoutLevels(const Layout& layout, int root);

    const std::vector<LevelGroup>& groups() const { return groups_; }
    const LevelGroup& group(int index) const { return groups_[index]; }
    int top() const { return 0; }
    int leader(int group) const;
    // The leaders of the group's children, the group's own leader first.
    std::vector<int> roots_group(int group) const;
    int depth_count() const;

private:
    std::vector<int> local_rank_of_;  // per global rank
    int root_;
    std::vector<LevelGroup> groups_;
};

// What `numacoll topo --hierarchy` prints: one line per group, indented by
// depth, with its ranks and its roots group.
std::string describe_levels(const LayoutLevels& levels);

// "0-3,8,10-11"
std::string rank_list_text(const std::vector<int>& ranks);

}  // namespace numacoll::algo
