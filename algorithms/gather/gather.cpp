#include "algorithms/gather/gather.hpp"

#include <fmt/format.h>

#include <optional>

#include "algorithms/block_readiness.hpp"
#include "algorithms/leaders.hpp"
#include "algorithms/point_to_point.hpp"

namespace numacoll::algo {

namespace {

class Gather {
public:
    Gather(const CollectiveSpec& spec, const Layout& layout)
        : builder_(layout, spec), layout_(layout), root_(spec.root), ranks_(layout.size()), block_(spec.bytes) {
        for (int rank = 0; rank < ranks_; ++rank) inputs_.push_back(builder_.add_input(rank, block_));
        output_ = builder_.add_output(root_, block_ * ranks_);
        p2p_.emplace(builder_, inputs_);
    }

    Schedule linear() {
        std::vector<int> arrived;
        for (int k = 0; k < ranks_; ++k) {
            const int rank = (root_ + k) % ranks_;
            arrived.push_back(p2p_->move(rank, input(rank), {}, root_, out_blocks(rank, 1), fmt::format("gather{}", rank)));
        }
        return finish(arrived);
    }

    Schedule binomial() {
        std::vector<Range> held(ranks_);                // what each rank passes up
        std::vector<std::vector<int>> held_ready(ranks_);
        std::vector<bool> collecting(ranks_, false);  // has its collection buffer
        std::vector<int> arrived;
        for (int rank = 0; rank < ranks_; ++rank) held[rank] = input(rank);
        // The subtree of a non-root relative rank: itself and the ranks up to its lowest set bit.
        const auto subtree_size = [&](int rel) { return std::min(rel & -rel, ranks_ - rel); };
        // Deepest first: a rank passes its subtree up once its children's blocks are in.
        for (int rel = ranks_ - 1; rel >= 1; --rel) {
            const int rank = absolute(rel);
            const int size = subtree_size(rel);
            const int parent_rel = rel - (rel & -rel);
            const int parent = absolute(parent_rel);
            const std::string label = fmt::format("binomial{}-{}", rank, parent);
            if (parent_rel == 0) {
                // The root's output is in absolute order: the subtree may wrap around rank 0.
                const int first = absolute(rel);
                const int head = std::min(size, ranks_ - first);
                arrived.push_back(p2p_->move(rank, part(held[rank], 0, head), held_ready[rank], root_,
                                             out_blocks(first, head), label));
                if (head < size)
                    arrived.push_back(p2p_->move(rank, part(held[rank], head, size - head), held_ready[rank], root_,
                                                 out_blocks(0, size - head), label + "-wrap"));
                continue;
            }
            // Into the parent's collection buffer, created with the parent's own block first.
            const int parent_size = subtree_size(parent_rel);
            if (!collecting[parent]) {
                collecting[parent] = true;
                const int temp = block_ == 0 ? -1
                                             : builder_.add_temp(parent, block_ * parent_size,
                                                                 fmt::format("gather{}", parent));
                held[parent] = temp < 0 ? Range{} : Range{temp, 0, block_ * parent_size};
                held_ready[parent].push_back(
                    p2p_->move(parent, input(parent), {}, parent, part(held[parent], 0, 1), "gather-own"));
            }
            held_ready[parent].push_back(p2p_->move(rank, held[rank], held_ready[rank], parent,
                                                    part(held[parent], rel - parent_rel, size), label));
        }
        arrived.push_back(p2p_->move(root_, input(root_), {}, root_, out_blocks(root_, 1), "gather-self"));
        return finish(arrived);
    }

    Schedule leader_based(LeaderRule rule) {
        std::vector<int> arrived;
        for (int node = 0; node < layout_.nodes; ++node) {
            const int leader = node_leader(layout_, root_, rule, node);
            const int first = layout_.node_root(node);
            const int per_node = layout_.ranks_per_node;
            // The root's node collects straight into the output; others into a temp in local order.
            const bool at_root = leader == root_;
            const int temp = at_root || block_ == 0
                                 ? -1
                                 : builder_.add_temp(leader, block_ * per_node, fmt::format("node{}", node));
            const auto slot = [&](int local, int count) {
                return at_root ? out_blocks(first + local, count) : blocks_range(temp, local, count, block_);
            };
            std::vector<int> collected;
            for (int j = 0; j < per_node; ++j) {
                const int rank = first + (leader - first + j) % per_node;
                const int task = p2p_->move(rank, input(rank), {}, leader, slot(rank - first, 1),
                                            fmt::format("collect{}-{}", rank, leader));
                (at_root ? arrived : collected).push_back(task);
            }
            if (!at_root)
                arrived.push_back(p2p_->move(leader, temp < 0 ? Range{} : slot(0, per_node), collected, root_,
                                             out_blocks(first, per_node), fmt::format("leader{}-root", leader)));
        }
        return finish(arrived);
    }

private:
    int absolute(int rel) const { return (rel + root_) % ranks_; }
    Range input(int rank) const { return block_ == 0 ? Range{} : Range{inputs_[rank], 0, block_}; }
    Range out_blocks(int first, int count) const {
        return block_ == 0 ? Range{} : blocks_range(output_, first, count, block_);
    }
    Range part(const Range& range, int first, int count) const {
        if (range.buffer < 0) return Range{};
        return {range.buffer, range.offset + block_ * first, block_ * count};
    }

    Schedule finish(const std::vector<int>& arrived) {
        std::vector<int> foreign;
        for (int task : arrived)
            if (builder_.thread_of(task) != root_) foreign.push_back(task);
        if (!foreign.empty()) builder_.wait(root_, foreign, "gather:done");
        return builder_.finish();
    }

    ScheduleBuilder builder_;
    const Layout& layout_;
    int root_;
    int ranks_;
    std::uint64_t block_;
    std::vector<int> inputs_;
    int output_ = -1;
    std::optional<PointToPoint> p2p_;
};

AlgorithmInfo gather_info(const std::string& name, const std::string& summary, const std::string& source) {
    AlgorithmInfo info;
    info.collective = Collective::gather;
    info.name = name;
    info.summary = summary;
    info.source = source;
    if (name == "leader") info.options = {leader_option()};
    info.generate = [name](const CollectiveSpec& spec, const Layout& layout) {
        Gather gather(spec, layout);
        if (name == "linear") return gather.linear();
        if (name == "binomial") return gather.binomial();
        const OptionReader reader(spec, find_algorithm(spec.collective, name));
        return gather.leader_based(read_leader_rule(reader));
    };
    return info;
}

}  // namespace

std::vector<AlgorithmInfo> gather_infos() {
    return {
        gather_info("linear", "every rank sends its block to the root; few ranks or large blocks",
                    "Open MPI coll/tuned basic linear gather"),
        gather_info("binomial", "binomial tree, subtrees passed up whole; small blocks, many ranks",
                    "Open MPI coll/tuned binomial gather (MPICH's)"),
        gather_info("leader", "node leaders collect their node's blocks, then send them to the root in one message",
                    "Moreaud, Goglin, Namyst, NUIOA-aware collectives, sections 3.2 and 3.3.2"),
    };
}

}  // namespace numacoll::algo
