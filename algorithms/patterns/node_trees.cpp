#include "algorithms/patterns/node_trees.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "common/error.hpp"

namespace numacoll::algo {

BroadcastStyle parse_broadcast_style(const std::string& text) {
    if (text == "1stage") return BroadcastStyle::one_stage;
    if (text == "2stage") return BroadcastStyle::two_stage;
    if (text == "nary") return BroadcastStyle::nary;
    throw UsageError(fmt::format("option bcast must be one of 1stage, 2stage, nary (got '{}')", text));
}

OptionInfo broadcast_option() {
    return {"bcast", "1stage",
            "1stage: all threads read the root's vector; 2stage: one master per top-level domain (a package, "
            "or an LLC domain on a one-package node) first; nary: a regular tree of fan-out --arity over the "
            "node's threads, domain by domain",
            {"1stage", "2stage", "nary"}};
}

NodeTrees::NodeTrees(ScheduleBuilder& builder, const Layout& layout, int arity, BroadcastStyle style,
                     std::vector<int> inputs, int preferred_local)
    : builder_(builder),
      layout_(layout),
      arity_(arity),
      style_(style),
      preferred_local_(preferred_local),
      hierarchy_(build_node_hierarchy(layout)),
      ready_(std::move(inputs)) {}

int NodeTrees::leader(const HierarchyGroup& group) const {
    const bool holds = std::binary_search(group.ranks.begin(), group.ranks.end(), preferred_local_);
    return holds ? preferred_local_ : group.leader();
}

int NodeTrees::node_leader(int node) const {
    return layout_.global_rank(node, leader(hierarchy_.groups[hierarchy_.root]));
}

// The children's leaders, the group's own leader first: it is the tree's root.
std::vector<int> NodeTrees::child_leaders(const HierarchyGroup& group) const {
    std::vector<int> leaders;
    const int own = leader(group);
    for (int child : group.children) {
        const int local = leader(hierarchy_.groups[child]);
        if (local == own) leaders.insert(leaders.begin(), local);
        else leaders.push_back(local);
    }
    return leaders;
}

int NodeTrees::reduce(int node, ChunkState& state, const HomeOf& home) {
    return reduce_group(node, hierarchy_.root, state, home);
}

int NodeTrees::reduce_group(int node, int group_index, ChunkState& state, const HomeOf& home) {
    const HierarchyGroup& group = hierarchy_.groups[group_index];
    if (group.children.empty()) return layout_.global_rank(node, group.leader());
    for (int child : group.children) reduce_group(node, child, state, home);
    std::vector<int> leaders;
    for (int local : child_leaders(group)) leaders.push_back(layout_.global_rank(node, local));

    const int count = static_cast<int>(leaders.size());
    int round = 0;
    for (int stride = 1; stride < count; stride *= arity_, ++round) {
        for (int i = 0; i < count; i += stride * arity_) {
            const int parent = leaders[i];
            std::vector<int> children;
            for (int j = 1; j < arity_ && i + j * stride < count; ++j) children.push_back(leaders[i + j * stride]);
            if (children.empty()) continue;
            const std::string label = fmt::format("{}:reduce:{}:r{}", state.tag, group.level, round);
            std::vector<int> deps = state.ready[parent];
            std::vector<Range> reads{state.partial[parent]};
            for (int child : children) {
                deps.push_back(ready_.signal(builder_, child, parent, state.partial[child], state.ready[child], label));
                reads.push_back(state.partial[child]);
            }
            if (state.bytes == 0) {  // nothing to fold: only record that they arrived
                state.ready[parent] = deps;
                continue;
            }
            const Range out = home(parent);
            state.ready[parent] = {builder_.reduce(parent, reads, out, deps, label)};
            state.partial[parent] = out;
        }
    }
    return leaders.front();
}

// `reader` copies the chunk from `source` after being told it is ready.
void NodeTrees::fetch(int source, int reader, const std::string& label, ChunkState& state, const HomeOf& home) {
    fetch_partial(builder_, state, source, reader, state.bytes > 0 ? home(reader) : Range{}, label);
}

void NodeTrees::broadcast(int node, ChunkState& state, const HomeOf& home) {
    const int root = node_leader(node);
    const HierarchyGroup& top = hierarchy_.groups[hierarchy_.root];
    if (style_ == BroadcastStyle::nary) {
        broadcast_nary(node, state, home);
        return;
    }
    if (style_ == BroadcastStyle::one_stage || top.children.empty()) {
        for (int local = 0; local < layout_.ranks_per_node; ++local) {
            const int reader = layout_.global_rank(node, local);
            if (reader != root) fetch(root, reader, state.tag + ":bcast1", state, home);
        }
        return;
    }
    // Stage 1: one master per top-level group (a domain) reads the root's copy.
    for (int child : top.children) {
        const int master = layout_.global_rank(node, leader(hierarchy_.groups[child]));
        if (master != root) fetch(root, master, state.tag + ":bcast2:masters", state, home);
    }
    // Stage 2: the others read their master's copy.
    for (int child : top.children) {
        const HierarchyGroup& group = hierarchy_.groups[child];
        const int master = layout_.global_rank(node, leader(group));
        for (int local : group.ranks)
            if (layout_.global_rank(node, local) != master)
                fetch(master, layout_.global_rank(node, local), state.tag + ":bcast2:local", state, home);
    }
}

// HPDC'13 section 2.2's regular n-ary broadcast tree: the node's ranks in
// hierarchy order (domain by domain), the leader first, form a tree in heap
// order, where the k-th reads from the ((k - 1) / n)-th: every parent has n
// readers at once, and the tree is ceil(log_n) deep, not one tree per level.
void NodeTrees::broadcast_nary(int node, ChunkState& state, const HomeOf& home) {
    const int root_local = leader(hierarchy_.groups[hierarchy_.root]);
    std::vector<int> order{layout_.global_rank(node, root_local)};
    for (int local : hierarchy_.groups[hierarchy_.root].ranks)
        if (local != root_local) order.push_back(layout_.global_rank(node, local));
    const int count = static_cast<int>(order.size());
    for (int k = 1; k < count; ++k) {
        int depth = 0;
        for (int at = k; at > 0; at = (at - 1) / arity_) ++depth;
        fetch(order[(k - 1) / arity_], order[k], fmt::format("{}:bcastn:d{}", state.tag, depth), state, home);
    }
}

}  // namespace numacoll::algo
