#include "algorithms/levels.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <functional>

namespace numacoll::algo {

LayoutLevels::LayoutLevels(const Layout& layout, int root) : root_(root) {
    for (const RankPlace& place : layout.ranks) local_rank_of_.push_back(place.local_rank);
    const NodeHierarchy node = build_node_hierarchy(layout);
    const bool network = layout.nodes > 1;
    if (network) {
        LevelGroup top{"network", 0, {}, {}};
        for (int rank = 0; rank < layout.size(); ++rank) top.ranks.push_back(rank);
        groups_.push_back(top);
    }
    // Each node's copy of the node hierarchy, local ranks made global.
    const std::function<int(int, int, int)> copy = [&](int node_index, int group, int depth) {
        const HierarchyGroup& source = node.groups[group];
        LevelGroup out{source.level, depth, {}, {}};
        for (int local : source.ranks) out.ranks.push_back(node_index * layout.ranks_per_node + local);
        const int index = static_cast<int>(groups_.size());
        groups_.push_back(out);
        std::vector<int> children;
        for (int child : source.children) children.push_back(copy(node_index, child, depth + 1));
        groups_[index].children = children;
        return index;
    };
    for (int n = 0; n < layout.nodes; ++n) {
        const int index = copy(n, node.root, network ? 1 : 0);
        if (network) groups_[0].children.push_back(index);
    }
}

int LayoutLevels::leader(int group) const {
    const std::vector<int>& ranks = groups_[group].ranks;
    const auto holds = [&](int rank) { return std::binary_search(ranks.begin(), ranks.end(), rank); };
    if (holds(root_)) return root_;
    for (int rank : ranks)
        if (local_rank_of_[rank] == local_rank_of_[root_]) return rank;
    return ranks.front();
}

std::vector<int> LayoutLevels::roots_group(int group) const {
    const int own = leader(group);
    std::vector<int> roots = {own};
    for (int child : groups_[group].children)
        if (leader(child) != own) roots.push_back(leader(child));
    return roots;
}

int LayoutLevels::depth_count() const {
    int deepest = 0;
    for (const auto& group : groups_) deepest = std::max(deepest, group.depth);
    return deepest + 1;
}

std::string rank_list_text(const std::vector<int>& ranks) {
    std::string out;
    for (std::size_t i = 0; i < ranks.size();) {
        std::size_t j = i;
        while (j + 1 < ranks.size() && ranks[j + 1] == ranks[j] + 1) ++j;
        out += (out.empty() ? "" : ",") +
               (j == i ? fmt::format("{}", ranks[i]) : fmt::format("{}-{}", ranks[i], ranks[j]));
        i = j + 1;
    }
    return out;
}

std::string describe_levels(const LayoutLevels& levels) {
    std::string out;
    for (std::size_t index = 0; index < levels.groups().size(); ++index) {
        const LevelGroup& group = levels.group(static_cast<int>(index));
        if (group.children.empty()) continue;  // single ranks add nothing
        out += fmt::format("{:{}}{} [{} ranks: {}] leader {}, roots group {}\n", "", 2 * group.depth, group.level,
                           group.ranks.size(), rank_list_text(group.ranks), levels.leader(static_cast<int>(index)),
                           rank_list_text(levels.roots_group(static_cast<int>(index))));
    }
    return out;
}

}  // namespace numacoll::algo
