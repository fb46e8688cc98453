#include "algorithms/allreduce/tree.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "algorithms/hierarchy.hpp"
#include "algorithms/internode.hpp"
#include "topologies/error.hpp"

namespace numacoll::algo {

namespace {

struct TreeOptions {
    int arity = 2;
    bool two_stage = false;
    std::uint64_t chunk_bytes = 0;  // 0: no strip mining
};

// Strip-mining chunk. "auto": half the largest cache private to one core
// (L2 on the bundled machines and on this project's machines), so that one
// strip's inputs and result stay in the cache of the core that folds them,
// and the tree pipelines: while a parent folds strip k+1 its children copy
// strip k. Measured on a 2-core EPYC (L2 1 MiB): 4 MiB took 200-290 us with
// 512 KiB strips against 440-530 us unmined (docs/execution.md). A machine
// without private caches uses the smallest last-level cache; none: no
// strip mining. "off" disables it.
std::uint64_t automatic_chunk_bytes(const topo::Machine& machine) {
    std::uint64_t private_bytes = 0, shared_bytes = 0;
    for (int level : machine.cache_levels)
        for (int cache : machine.caches_at_level(level)) {
            const auto& object = machine.objects[cache];
            if (object.cache_bytes == 0) continue;
            if (object.cores.size() == 1) private_bytes = std::max(private_bytes, object.cache_bytes / 2);
            else if (level == machine.last_level_cache() && (shared_bytes == 0 || object.cache_bytes < shared_bytes))
                shared_bytes = object.cache_bytes;
        }
    const std::uint64_t bytes = private_bytes > 0 ? private_bytes : shared_bytes;
    return bytes - bytes % cache_line_bytes;
}

std::uint64_t chunk_size(const std::string& strip, const OptionReader& reader, const topo::Machine& machine) {
    std::uint64_t bytes = 0;
    if (strip == "off") return 0;
    if (strip == "auto") {
        bytes = automatic_chunk_bytes(machine);
    } else {
        bytes = reader.bytes("strip");
        bytes -= bytes % element_bytes;
        if (bytes == 0)
            throw UsageError(fmt::format("option strip must be auto, off or at least {} bytes (got '{}')",
                                         element_bytes, strip));
    }
    return bytes;
}

class TreeAllreduce {
public:
    TreeAllreduce(const CollectiveSpec& spec, const Layout& layout, TreeOptions options)
        : builder_(layout, spec), layout_(layout), options_(options), hierarchy_(build_node_hierarchy(layout)) {
        for (int rank = 0; rank < layout.size(); ++rank) {
            inputs_.push_back(builder_.add_input(rank, spec.bytes));
            outputs_.push_back(builder_.add_output(rank, spec.bytes));
        }
        scratch_.resize(layout.size());
        input_announced_.assign(layout.size(), -1);
    }

    Schedule generate() {
        const std::uint64_t total = builder_.spec().bytes;
        const std::uint64_t chunk = options_.chunk_bytes == 0 ? std::max<std::uint64_t>(total, 1) : options_.chunk_bytes;
        int index = 0;
        for (std::uint64_t offset = 0; offset < total || (total == 0 && offset == 0); offset += chunk, ++index) {
            run_chunk(offset, std::min(chunk, total - offset), fmt::format("c{}", index));
            if (total == 0) break;
        }
        return builder_.finish();
    }

private:
    int global(int node, int local) const { return node * layout_.ranks_per_node + local; }

    void run_chunk(std::uint64_t offset, std::uint64_t bytes, const std::string& tag) {
        ChunkState state;
        state.offset = offset;
        state.bytes = bytes;
        state.tag = tag;
        state.ready.resize(layout_.size());
        for (int rank = 0; rank < layout_.size(); ++rank)
            state.partial.push_back(bytes > 0 ? Range{inputs_[rank], offset, bytes} : Range{});

        std::vector<int> roots;
        for (int node = 0; node < layout_.nodes; ++node) {
            reduce_group(node, hierarchy_.root, state);
            roots.push_back(global(node, 0));
        }
        internode_recursive_doubling(builder_, roots, state, outputs_, scratch_);
        for (int node = 0; node < layout_.nodes; ++node) {
            const int root = global(node, 0);
            // A root that never reduced (one rank, one node) still owes its output.
            if (bytes > 0 && state.partial[root].buffer != outputs_[root]) {
                const Range out{outputs_[root], offset, bytes};
                state.ready[root] = {builder_.copy(root, state.partial[root], out, state.ready[root], tag + ":self")};
                state.partial[root] = out;
            }
            broadcast(node, state);
        }
        settle(builder_, state);
    }

    // Reduces a hierarchy group into its leader; returns the leader's global rank.
    int reduce_group(int node, int group_index, ChunkState& state) {
        const HierarchyGroup& group = hierarchy_.groups[group_index];
        if (group.children.empty()) return global(node, group.leader());
        std::vector<int> leaders;
        for (int child : group.children) leaders.push_back(reduce_group(node, child, state));

        const int count = static_cast<int>(leaders.size());
        int round = 0;
        for (int stride = 1; stride < count; stride *= options_.arity, ++round) {
            for (int i = 0; i < count; i += stride * options_.arity) {
                const int parent = leaders[i];
                std::vector<int> children;
                for (int j = 1; j < options_.arity && i + j * stride < count; ++j)
                    children.push_back(leaders[i + j * stride]);
                if (children.empty()) continue;
                const std::string label = fmt::format("{}:reduce:{}:r{}", state.tag, group.level, round);
                std::vector<int> arrived;
                std::vector<Range> reads{state.partial[parent]};
                for (int child : children) {
                    arrived.push_back(announce(child, parent, label, state));
                    reads.push_back(state.partial[child]);
                }
                absorb(parent, reads, arrived, label, state);
            }
        }
        return leaders.front();
    }

    // The flag that tells `parent` that `child`'s partial of this strip is
    // ready. A child that contributes its untouched input announces it once,
    // in the first strip: the input is ready for every strip from the start,
    // and a flag per strip would sit in the child's program behind its
    // broadcast of the previous strip, so the parent could not reduce strip
    // k+1 while the child still copies strip k (no pipelining).
    int announce(int child, int parent, const std::string& label, ChunkState& state) {
        const bool untouched_input = state.bytes > 0 && state.partial[child].buffer == inputs_[child] &&
                                     state.ready[child].empty();
        if (untouched_input && input_announced_[child] >= 0) return input_announced_[child];
        const int flag = builder_.flag(child, parent, state.ready[child], label + ":ready");
        if (untouched_input) input_announced_[child] = flag;
        return flag;
    }

    // The parent folds its children's partials into its output (or, for an
    // empty vector, only records that they arrived).
    void absorb(int parent, const std::vector<Range>& reads, const std::vector<int>& arrived,
                const std::string& label, ChunkState& state) {
        if (state.bytes == 0) {
            state.ready[parent].insert(state.ready[parent].end(), arrived.begin(), arrived.end());
            return;
        }
        const Range out{outputs_[parent], state.offset, state.bytes};
        std::vector<int> deps = arrived;
        deps.insert(deps.end(), state.ready[parent].begin(), state.ready[parent].end());
        state.ready[parent] = {builder_.reduce(parent, reads, out, deps, label)};
        state.partial[parent] = out;
    }

    // `reader` fetches the vector from `source` after being told it is ready.
    void fetch(int source, int reader, const std::string& label, ChunkState& state) {
        const int told = builder_.flag(source, reader, state.ready[source], label + ":go");
        if (state.bytes == 0) {
            state.ready[reader] = {told};
            return;
        }
        const Range out{outputs_[reader], state.offset, state.bytes};
        state.ready[reader] = {builder_.copy(reader, state.partial[source], out, {told}, label)};
        state.partial[reader] = out;
    }

    void broadcast(int node, ChunkState& state) {
        const int root = global(node, 0);
        const HierarchyGroup& top = hierarchy_.groups[hierarchy_.root];
        if (!options_.two_stage || top.children.empty()) {
            for (int local = 1; local < layout_.ranks_per_node; ++local)
                fetch(root, global(node, local), state.tag + ":bcast1", state);
            return;
        }
        // Stage 1: one master per top-level group (a socket) reads the root's copy.
        for (int child : top.children) {
            const int master = global(node, hierarchy_.groups[child].leader());
            if (master != root) fetch(root, master, state.tag + ":bcast2:masters", state);
        }
        // Stage 2: the others read their master's copy.
        for (int child : top.children) {
            const HierarchyGroup& group = hierarchy_.groups[child];
            const int master = global(node, group.leader());
            for (int local : group.ranks)
                if (global(node, local) != master) fetch(master, global(node, local), state.tag + ":bcast2:local", state);
        }
    }

    ScheduleBuilder builder_;
    const Layout& layout_;
    TreeOptions options_;
    NodeHierarchy hierarchy_;
    std::vector<int> inputs_;
    std::vector<int> outputs_;
    std::vector<std::vector<int>> scratch_;
    std::vector<int> input_announced_;  // per rank: the flag announcing its input, -1 before the first strip
};

}  // namespace

AlgorithmInfo allreduce_tree_info() {
    AlgorithmInfo info;
    info.collective = Collective::allreduce;
    info.name = "tree";
    info.summary = "n-ary reduction tree over the cache/socket hierarchy, then a 1- or 2-stage broadcast; "
                   "best for small and medium vectors";
    info.source = "Li, Hoefler, Snir, HPDC'13, section 2.2";
    info.options = {
        {"arity", "2", "fan-in n of the reduction tree (>= 2)"},
        {"bcast", "1stage", "1stage: all threads read the root's vector; 2stage: socket masters first"},
        {"strip", "auto", "strip-mining chunk: auto (half the largest per-core cache), off, or a size such as 4KiB"},
    };
    info.generate = [](const CollectiveSpec& spec, const Layout& layout) {
        const OptionReader reader(spec, find_algorithm(spec.collective, "tree"));
        TreeOptions options;
        options.arity = reader.integer("arity", 2);
        options.two_stage = reader.choice("bcast", {"1stage", "2stage"}) == "2stage";
        options.chunk_bytes = chunk_size(reader.text("strip"), reader, *layout.machine);
        return TreeAllreduce(spec, layout, options).generate();
    };
    return info;
}

}  // namespace numacoll::algo
