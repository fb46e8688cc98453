#include "algorithms/allreduce/tree.hpp"

#include <fmt/format.h>

#include <optional>

#include "algorithms/patterns/strips.hpp"

namespace numacoll::algo {

namespace {

// Reduce to one rank per node (rank 0 of the node), allreduce among those
// over the network, broadcast inside each node; chunk by chunk.
class TreeAllreduce {
public:
    TreeAllreduce(const CollectiveSpec& spec, const Layout& layout, int arity, BroadcastStyle style,
                  std::uint64_t strip, InternodeAlgorithm internode)
        : builder_(layout, spec), layout_(layout), strip_(strip), internode_(internode), scratch_(builder_) {
        // A barrier is this pattern on no data, and owns no buffers.
        const bool buffers = spec.collective != Collective::barrier;
        for (int rank = 0; rank < layout.size(); ++rank) {
            inputs_.push_back(buffers ? builder_.add_input(rank, spec.bytes) : -1);
            outputs_.push_back(buffers ? builder_.add_output(rank, spec.bytes) : -1);
        }
        trees_.emplace(builder_, layout, arity, style, inputs_, 0);
    }

    Schedule generate() { return build_in_chunks(builder_, strip_, std::bind_front(&TreeAllreduce::run_chunk, this)); }

private:
    void run_chunk(std::uint64_t offset, std::uint64_t bytes, const std::string& tag) {
        ChunkState state = start_chunk(offset, bytes, tag, inputs_, layout_.size());
        const HomeOf output = [&](int rank) { return Range{outputs_[rank], offset, bytes}; };
        std::vector<int> roots;
        for (int node = 0; node < layout_.nodes; ++node) roots.push_back(trees_->reduce(node, state, output));
        internode_allreduce(internode_, builder_, roots, state, outputs_, scratch_);
        for (int node = 0; node < layout_.nodes; ++node) {
            place_partial(builder_, state, roots[node], output(roots[node]));
            trees_->broadcast(node, state, output);
        }
        settle(builder_, state);
    }

    ScheduleBuilder builder_;
    const Layout& layout_;
    std::uint64_t strip_;
    InternodeAlgorithm internode_;
    std::vector<int> inputs_;
    std::vector<int> outputs_;
    TempPool scratch_;
    std::optional<NodeTrees> trees_;
};

Schedule generate_allreduce_tree(const CollectiveSpec& spec, const Layout& layout, const OptionReader& options) {
    return tree_allreduce_schedule(spec, layout, options.integer("arity", 2),
                                   parse_broadcast_style(options.text("bcast")), strip_bytes(options, *layout.machine, element_bytes(spec)),
                                   parse_internode_algorithm(options.text("internode")));
}

}  // namespace

Schedule tree_allreduce_schedule(const CollectiveSpec& spec, const Layout& layout, int arity, BroadcastStyle style,
                                 std::uint64_t strip, InternodeAlgorithm internode) {
    return TreeAllreduce(spec, layout, arity, style, strip, internode).generate();
}

AlgorithmInfo allreduce_tree_info() {
    return {Collective::allreduce, "tree",
            "n-ary reduction tree over the cache/package hierarchy, then a broadcast; "
            "best for small and medium vectors (below ~16 KiB on the paper's machines)",
            "Li, Hoefler, Snir, HPDC'13, section 2.2",
            {{"arity", "2", "fan-in n of the reduction tree (>= 2)", {"2", "3"}}, broadcast_option(), strip_option(),
             internode_option()},
            generate_allreduce_tree};
}

}  // namespace numacoll::algo
