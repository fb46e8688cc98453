// The two phases of HPDC'13's reduce-broadcast (section 2.2), on one node's
// hierarchy, for any algorithm that needs them: allreduce/reduce/bcast/
// barrier "tree", and the broadcast that ends the tiled allreduce.
//
// Reduction: an n-ary tree per hierarchy level, cache groups first and
// packages last, so that inter-package traffic happens only at the top. A
// group's leader is the rank the caller prefers when the group holds it
// (a reduce's root), else its first rank.
// Broadcast: one stage (every rank reads the leader's copy), two stages
// (one master per top-level group first, then the others read their
// master's copy) or a regular n-ary tree over the node's ranks in
// hierarchy order (each parent has n readers at once: section 2.2,
// Figures 10-11).
//
// Both work on one chunk at a time through a ChunkState (chunk_state.hpp):
// state.partial[r] is where rank r's data of the chunk lives, and
// state.ready[r] the tasks that must end before it may be read.
#pragma once

#include <functional>
#include <vector>

#include "algorithms/hierarchy.hpp"
#include "algorithms/patterns/chunk_state.hpp"

namespace numacoll::algo {

enum class BroadcastStyle { one_stage, two_stage, nary };

BroadcastStyle parse_broadcast_style(const std::string& text);  // 1stage, 2stage, nary
OptionInfo broadcast_option();

class NodeTrees {
public:
    // `inputs[r]`: rank r's input buffer (-1 if none); `preferred_local`:
    // the local rank that leads every group holding it.
    NodeTrees(ScheduleBuilder& builder, const Layout& layout, int arity, BroadcastStyle style,
              std::vector<int> inputs, int preferred_local);

    const NodeHierarchy& hierarchy() const { return hierarchy_; }
    // The global rank that ends up with a node's reduction / starts its broadcast.
    int node_leader(int node) const;

    // Reduces every rank's partial on `node` into the node leader; returns it.
    int reduce(int node, ChunkState& state, const HomeOf& home);
    // Copies the node leader's partial to every other rank of `node`.
    void broadcast(int node, ChunkState& state, const HomeOf& home);

private:
    int leader(const HierarchyGroup& group) const;
    std::vector<int> child_leaders(const HierarchyGroup& group) const;  // local ranks
    int reduce_group(int node, int group_index, ChunkState& state, const HomeOf& home);
    void broadcast_nary(int node, ChunkState& state, const HomeOf& home);
    void fetch(int source, int reader, const std::string& label, ChunkState& state, const HomeOf& home);

    ScheduleBuilder& builder_;
    const Layout& layout_;
    int arity_;
    BroadcastStyle style_;
    int preferred_local_;
    NodeHierarchy hierarchy_;
    ReadySignals ready_;
};

}  // namespace numacoll::algo
