// scatter "tree" (HPDC'13's hierarchy applied to a one-to-all personalised
// collective): the root sends each node's blocks, in one message, to that
// node's master (the rank with the root's local rank); inside each node
// either every rank reads its block from the master (1stage) or one master
// per domain first copies its domain's blocks, and the domain's ranks read
// theirs from it (2stage: each block crosses the inter-domain link once,
// and ranks do not all hit the master's domain at once).
#include <fmt/format.h>

#include <algorithm>
#include <optional>

#include "algorithms/hierarchy.hpp"
#include "algorithms/leaders.hpp"
#include "algorithms/patterns/block_readiness.hpp"
#include "algorithms/patterns/point_to_point.hpp"
#include "algorithms/registry.hpp"

namespace numacoll::algo {

namespace {

class TreeScatter {
public:
    TreeScatter(const CollectiveSpec& spec, const Layout& layout, bool two_stage)
        : builder_(layout, spec), layout_(layout), root_(spec.root), block_(spec.bytes), two_stage_(two_stage),
          ready_(layout.size(), layout.size()), output_ready_(layout.size(), -1) {
        inputs_.assign(layout.size(), -1);
        inputs_[root_] = builder_.add_input(root_, block_ * layout.size());
        for (int rank = 0; rank < layout.size(); ++rank) outputs_.push_back(builder_.add_output(rank, block_));
        p2p_.emplace(builder_, inputs_);
        domains_ = top_level_domains(build_node_hierarchy(layout));
    }

    Schedule generate() {
        const int per_node = layout_.ranks_per_node;
        for (int k = 0; k < layout_.nodes; ++k) {
            const int node = (layout_.node_of(root_) + k) % layout_.nodes;
            const int master = node_leader(layout_, root_, LeaderRule::default_rank, node);
            const int first = layout_.node_root(node);
            // Where the node's blocks are, in global block positions of `holder`'s buffer.
            Holder node_copy{root_, inputs_[root_], first};
            if (master != root_) {
                node_copy = {master, temp(master, "node"), 0};
                move_blocks({root_, inputs_[root_], first}, node_copy, 0, per_node, "to-node-master");
            }
            for (const std::vector<int>& domain : domains_) {
                const auto holds_master = std::find(domain.begin(), domain.end(), master - first) != domain.end();
                Holder source = node_copy;
                if (two_stage_ && !holds_master) {
                    const int domain_master = first + domain.front();
                    source = {domain_master, temp(domain_master, "domain"), 0};
                    for (int local : domain)  // one copy per block: a domain's local ranks need not be contiguous
                        move_blocks(node_copy, source, local, 1, "to-domain-master");
                }
                for (int local : domain) {
                    const int rank = first + local;
                    const int task =
                        p2p_->move(source.rank, source.blocks(local, 1, block_), ready_.of(source.rank, first + local, 1),
                                   rank, out(rank), fmt::format("block{}", rank));
                    output_ready_[rank] = task;
                }
            }
        }
        for (int rank = 0; rank < layout_.size(); ++rank)
            builder_.wait_for_others(rank, {output_ready_[rank]}, "scatter:done");
        return builder_.finish();
    }

private:
    // A copy of a node's blocks: `rank`'s buffer, where local block j sits at block base + j.
    struct Holder {
        int rank = 0;
        int buffer = -1;
        int base = 0;
        Range blocks(int local, int count, std::uint64_t block_bytes) const {
            return buffer < 0 ? Range{} : blocks_range(buffer, base + local, count, block_bytes);
        }
    };

    int temp(int rank, const std::string& what) {
        if (block_ == 0) return -1;
        return builder_.add_temp(rank, block_ * layout_.ranks_per_node, fmt::format("{}{}", what, rank));
    }

    // Local blocks [local, local + count) from one holder to another. Readiness is
    // tracked per holder rank at the blocks' global positions on the node.
    void move_blocks(const Holder& from, const Holder& to, int local, int count, const std::string& label) {
        const int global = layout_.node_root(layout_.node_of(to.rank)) + local;
        const int task = p2p_->move(from.rank, from.blocks(local, count, block_), ready_.of(from.rank, global, count), to.rank,
                                    to.blocks(local, count, block_), fmt::format("{}{}", label, to.rank));
        ready_.set(to.rank, global, count, task);
    }

    Range out(int rank) const { return block_ == 0 ? Range{} : Range{outputs_[rank], 0, block_}; }

    ScheduleBuilder builder_;
    const Layout& layout_;
    int root_;
    std::uint64_t block_;
    bool two_stage_;
    BlockReadiness ready_;     // node blocks held by masters, at their global positions
    std::vector<int> output_ready_;  // per rank: the task that delivered its block
    std::vector<int> inputs_;
    std::vector<int> outputs_;
    std::vector<std::vector<int>> domains_;
    std::optional<PointToPoint> p2p_;
};

Schedule generate_scatter_tree(const CollectiveSpec& spec, const Layout& layout, const OptionReader& options) {
    return TreeScatter(spec, layout, options.choice("stages", {"1stage", "2stage"}) == "2stage").generate();
}

}  // namespace

AlgorithmInfo scatter_tree_info() {
    return {Collective::scatter, "tree",
            "root to one master per node (one message each), then 1-stage or 2-stage (domain masters) "
            "inside each node",
            "Li, Hoefler, Snir, HPDC'13, section 2.2: its cache/domain hierarchy, applied to scatter",
            {{"stages", "2stage", "inside a node: 1stage (every rank reads the node master) or 2stage", {"1stage", "2stage"}}},
            generate_scatter_tree};
}

}  // namespace numacoll::algo
