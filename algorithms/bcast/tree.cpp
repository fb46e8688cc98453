// bcast "tree": the broadcast phase of HPDC'13's reduce-broadcast (section
// 2.2) on its own. The root's vector goes to one leader per node (the rank
// with the root's local rank) over the network in a binomial tree; inside
// each node the leader's copy is read in one stage, two stages (domain
// masters first) or down an n-ary tree.
#include <optional>

#include "algorithms/patterns/internode.hpp"
#include "algorithms/patterns/node_trees.hpp"
#include "algorithms/patterns/strips.hpp"
#include "algorithms/registry.hpp"

namespace numacoll::algo {

namespace {

class TreeBcast {
public:
    TreeBcast(const CollectiveSpec& spec, const Layout& layout, int arity, BroadcastStyle style, std::uint64_t strip)
        : builder_(layout, spec), layout_(layout), strip_(strip), root_(spec.root) {
        inputs_.assign(layout.size(), -1);
        outputs_.assign(layout.size(), -1);
        inputs_[root_] = builder_.add_input(root_, spec.bytes);
        for (int rank = 0; rank < layout.size(); ++rank)
            if (rank != root_) outputs_[rank] = builder_.add_output(rank, spec.bytes);
        trees_.emplace(builder_, layout, arity, style, inputs_, layout.ranks[root_].local_rank);
    }

    Schedule generate() { return build_in_chunks(builder_, strip_, std::bind_front(&TreeBcast::run_chunk, this)); }

private:
    void run_chunk(std::uint64_t offset, std::uint64_t bytes, const std::string& tag) {
        ChunkState state = start_chunk(offset, bytes, tag, inputs_, layout_.size());
        const HomeOf output = [&](int rank) { return Range{outputs_[rank], offset, bytes}; };
        std::vector<int> leaders;
        const int root_node = layout_.node_of(root_);
        for (int k = 0; k < layout_.nodes; ++k)
            leaders.push_back(trees_->node_leader((root_node + k) % layout_.nodes));
        internode_binomial_bcast(builder_, leaders, state, output);
        for (int node = 0; node < layout_.nodes; ++node) trees_->broadcast(node, state, output);
        settle(builder_, state);
    }

    ScheduleBuilder builder_;
    const Layout& layout_;
    std::uint64_t strip_;
    int root_;
    std::vector<int> inputs_;
    std::vector<int> outputs_;
    std::optional<NodeTrees> trees_;
};

Schedule generate_bcast_tree(const CollectiveSpec& spec, const Layout& layout, const OptionReader& options) {
    return TreeBcast(spec, layout, options.integer("arity", 2), parse_broadcast_style(options.text("bcast")),
                     strip_bytes(options, *layout.machine, element_bytes(spec)))
        .generate();
}

}  // namespace

AlgorithmInfo bcast_tree_info() {
    return {Collective::bcast, "tree",
            "root to node leaders (binomial), then 1-stage, 2-stage or n-ary inside each node; "
            "1stage on two packages, 2stage on four",
            "Li, Hoefler, Snir, HPDC'13, section 2.2 (broadcast phase, equation 4)",
            {{"arity", "2", "fan-out n of the nary broadcast tree (>= 2)", {"2", "3"}}, broadcast_option(), strip_option()},
            generate_bcast_tree};
}

}  // namespace numacoll::algo
