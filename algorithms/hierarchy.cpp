#include "algorithms/hierarchy.hpp"

#include <algorithm>
#include <map>

namespace numacoll::algo {

namespace {

std::string level_name(const topo::Object& object) {
    if (object.kind == topo::ObjectKind::cache) return "L" + std::to_string(object.cache_level);
    return topo::to_string(object.kind);
}

struct Builder {
    const topo::Machine& machine;
    std::map<int, std::vector<int>> ranks_below;  // object index -> local ranks
    std::map<int, std::vector<int>> used_children;  // object index -> children holding ranks
    NodeHierarchy result;

    int build(int object, int depth) {
        std::string level = level_name(machine.objects[object]);
        // Merge levels that do not split the set of ranks.
        while (used_children[object].size() == 1 &&
               ranks_below[used_children[object].front()] == ranks_below[object]) {
            object = used_children[object].front();
            if (ranks_below[object].size() > 1) level += "+" + level_name(machine.objects[object]);
        }
        HierarchyGroup group;
        group.level = level;
        group.depth = depth;
        group.ranks = ranks_below[object];
        const int index = static_cast<int>(result.groups.size());
        result.groups.push_back(group);
        if (group.ranks.size() > 1) {
            std::vector<int> children;
            for (int child : used_children[object]) children.push_back(build(child, depth + 1));
            if (used_children[object].empty())  // ranks sharing one PU (oversubscribed): one leaf each
                for (int rank : group.ranks) {
                    children.push_back(static_cast<int>(result.groups.size()));
                    result.groups.push_back({"rank", depth + 1, {rank}, {}});
                }
            std::sort(children.begin(), children.end(), [&](int a, int b) {
                return result.groups[a].leader() < result.groups[b].leader();
            });
            result.groups[index].children = children;
        }
        return index;
    }
};

}  // namespace

NodeHierarchy build_node_hierarchy(const Layout& layout) {
    const topo::Machine& machine = *layout.machine;
    Builder builder{machine, {}, {}, {}};
    for (int local = 0; local < layout.ranks_per_node; ++local) {
        int object = machine.pus[layout.ranks[local].pu];
        int previous = -1;
        while (object >= 0) {
            auto& ranks = builder.ranks_below[object];
            ranks.push_back(local);
            if (previous >= 0) {
                auto& children = builder.used_children[object];
                if (std::find(children.begin(), children.end(), previous) == children.end())
                    children.push_back(previous);
            }
            previous = object;
            object = machine.objects[object].parent;
        }
    }
    for (auto& [object, ranks] : builder.ranks_below) std::sort(ranks.begin(), ranks.end());
    builder.result.root = builder.build(0, 0);
    return builder.result;
}

std::vector<std::vector<int>> top_level_domains(const NodeHierarchy& hierarchy) {
    const HierarchyGroup& top = hierarchy.groups[hierarchy.root];
    bool flat = true;
    for (int child : top.children) flat = flat && hierarchy.groups[child].children.empty();
    if (flat) return {top.ranks};
    std::vector<std::vector<int>> domains;
    for (int child : top.children) domains.push_back(hierarchy.groups[child].ranks);
    return domains;
}

}  // namespace numacoll::algo
