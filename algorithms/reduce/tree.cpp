// reduce "tree": the reduction phase of HPDC'13's reduce-broadcast (section
// 2.2) on its own. Inside each node an n-ary tree over the hierarchy brings
// the data to the node's leader (the rank with the root's local rank), the
// leaders then reduce to the root over the network in a binomial tree. Only
// the root has an output, so every other parent folds into a temp buffer of
// its own.
#include <fmt/format.h>

#include <optional>

#include "algorithms/patterns/internode.hpp"
#include "algorithms/patterns/node_trees.hpp"
#include "algorithms/patterns/reduce_homes.hpp"
#include "algorithms/patterns/strips.hpp"
#include "algorithms/registry.hpp"

namespace numacoll::algo {

namespace {

class TreeReduce {
public:
    TreeReduce(const CollectiveSpec& spec, const Layout& layout, int arity, std::uint64_t strip)
        : builder_(layout, spec), layout_(layout), strip_(strip), root_(spec.root), scratch_(builder_) {
        for (int rank = 0; rank < layout.size(); ++rank) inputs_.push_back(builder_.add_input(rank, spec.bytes));
        homes_.emplace(builder_, root_, builder_.add_output(root_, spec.bytes));
        trees_.emplace(builder_, layout, arity, BroadcastStyle::one_stage, inputs_, layout.ranks[root_].local_rank);
    }

    Schedule generate() { return build_in_chunks(builder_, strip_, std::bind_front(&TreeReduce::run_chunk, this)); }

private:
    void run_chunk(std::uint64_t offset, std::uint64_t bytes, const std::string& tag) {
        ChunkState state = start_chunk(offset, bytes, tag, inputs_, layout_.size());
        const HomeOf to_home = [&](int rank) { return homes_->at(rank, offset, bytes); };
        std::vector<int> leaders;
        const int root_node = layout_.node_of(root_);
        for (int k = 0; k < layout_.nodes; ++k) {
            const int node = (root_node + k) % layout_.nodes;
            leaders.push_back(trees_->reduce(node, state, to_home));
        }
        internode_binomial_reduce(builder_, leaders, state, to_home, scratch_);
        homes_->complete_root(state);
        settle(builder_, state);
    }

    ScheduleBuilder builder_;
    const Layout& layout_;
    std::uint64_t strip_;
    int root_;
    std::vector<int> inputs_;
    std::optional<ReduceHomes> homes_;
    TempPool scratch_;
    std::optional<NodeTrees> trees_;
};

Schedule generate_reduce_tree(const CollectiveSpec& spec, const Layout& layout, const OptionReader& options) {
    return TreeReduce(spec, layout, options.integer("arity", 2), strip_bytes(options, *layout.machine, element_bytes(spec))).generate();
}

}  // namespace

AlgorithmInfo reduce_tree_info() {
    return {Collective::reduce, "tree",
            "n-ary reduction tree over the cache/package hierarchy to the root; small and medium vectors",
            "Li, Hoefler, Snir, HPDC'13, section 2.2 (reduction phase)",
            {{"arity", "2", "fan-in n of the reduction tree (>= 2)", {"2", "3"}}, strip_option()}, generate_reduce_tree};
}

}  // namespace numacoll::algo
