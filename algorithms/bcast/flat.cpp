// bcast from the flat algorithms of flat_trees.hpp, in three arrangements:
// - flat (`linear`, `chain`, `pipeline`, `split-binary`, `binary`,
//   `binomial`, `knomial`): one algorithm over every rank in root-relative order, as
//   Open MPI's coll/tuned runs it. `chain` and `pipeline` take
//   `leader=default|nic` to reorder the chain so that it enters each node
//   at its leader (NUIOA paper, section 4: the chain of the Tuned component
//   with NUIOA-aware ordering); `rank-order` keeps Open MPI's order.
// - hierarchical (`hier-<flat>`): the flat algorithm run top-down on each
//   level's roots group (hierarchical communicators, section 6), so exactly
//   one copy of the data crosses into each group at each level.
// - `leader` (NUIOA paper, section 3.2): the root sends to one leader per
//   node, elected by rank or by NIC locality, and each leader broadcasts
//   inside its node with a flat algorithm (`intra`), pipelined in segments.
#include <fmt/format.h>

#include <algorithm>
#include <optional>

#include "algorithms/leaders.hpp"
#include "algorithms/levels.hpp"
#include "algorithms/patterns/flat_trees.hpp"
#include "algorithms/patterns/strips.hpp"
#include "algorithms/registry.hpp"

namespace numacoll::algo {

namespace {

enum class Arrangement { flat, hierarchical, leader };

struct BcastPlan {
    Arrangement arrangement = Arrangement::flat;
    FlatAlgorithm algorithm = FlatAlgorithm::binomial;
    int fanout = 1;
    std::uint64_t segment = 0;
    // Flat chain/pipeline: enter each node at its leader by this rule; none: Open MPI's rank order.
    std::optional<LeaderRule> chain_entry;
    LeaderRule leader = LeaderRule::default_rank;
};

class FlatBcast {
public:
    FlatBcast(const CollectiveSpec& spec, const Layout& layout, BcastPlan plan)
        : builder_(layout, spec), layout_(layout), plan_(plan), root_(spec.root) {
        inputs_.assign(layout.size(), -1);
        outputs_.assign(layout.size(), -1);
        inputs_[root_] = builder_.add_input(root_, spec.bytes);
        for (int rank = 0; rank < layout.size(); ++rank)
            if (rank != root_) outputs_[rank] = builder_.add_output(rank, spec.bytes);
        p2p_.emplace(builder_, inputs_);
        if (plan_.arrangement == Arrangement::hierarchical) levels_.emplace(layout, root_);
    }

    Schedule generate() {
        return build_in_chunks(builder_, plan_.segment, std::bind_front(&FlatBcast::run_chunk, this));
    }

private:
    void run_chunk(std::uint64_t offset, std::uint64_t bytes, const std::string& tag) {
        ChunkState state = start_chunk(offset, bytes, tag, inputs_, layout_.size());
        const HomeOf home = [&](int rank) {
            return Range{rank == root_ ? inputs_[rank] : outputs_[rank], offset, bytes};
        };
        switch (plan_.arrangement) {
            case Arrangement::flat: flat(state, home); break;
            case Arrangement::hierarchical: hierarchical(levels_->top(), state, home); break;
            case Arrangement::leader: leader_based(state, home); break;
        }
        settle(builder_, state);
    }

    void run(const std::vector<int>& group, ChunkState& state, const HomeOf& home) {
        run_flat_bcast(plan_.algorithm, plan_.fanout, *p2p_, group, state, home);
    }

    // Every rank, root first. Chains enter each node at its leader when asked.
    std::vector<int> flat_order() const {
        std::vector<int> order;
        const int count = layout_.size();
        if (!plan_.chain_entry) {
            for (int k = 0; k < count; ++k) order.push_back((root_ + k) % count);
            return order;
        }
        const LeaderRule rule = *plan_.chain_entry;
        const int per_node = layout_.ranks_per_node;
        for (int k = 0; k < layout_.nodes; ++k) {
            const int node = (layout_.node_of(root_) + k) % layout_.nodes;
            const int first = node_leader(layout_, root_, rule, node) - layout_.node_root(node);
            for (int j = 0; j < per_node; ++j) order.push_back(layout_.node_root(node) + (first + j) % per_node);
        }
        return order;
    }

    void flat(ChunkState& state, const HomeOf& home) { run(flat_order(), state, home); }

    void hierarchical(int group, ChunkState& state, const HomeOf& home) {
        if (levels_->group(group).children.empty()) return;
        run(levels_->roots_group(group), state, home);
        for (int child : levels_->group(group).children) hierarchical(child, state, home);
    }

    void leader_based(ChunkState& state, const HomeOf& home) {
        std::vector<int> leaders;
        const int root_node = layout_.node_of(root_);
        for (int k = 0; k < layout_.nodes; ++k)
            leaders.push_back(node_leader(layout_, root_, plan_.leader, (root_node + k) % layout_.nodes));
        flat_tree_bcast(*p2p_, make_flat_tree(FlatShape::linear, leaders, 1), state, home);
        for (int leader : leaders) {
            std::vector<int> node_ranks;
            const int first = layout_.node_root(layout_.node_of(leader));
            for (int j = 0; j < layout_.ranks_per_node; ++j)
                node_ranks.push_back(first + (leader - first + j) % layout_.ranks_per_node);
            run(node_ranks, state, home);
        }
    }

    ScheduleBuilder builder_;
    const Layout& layout_;
    BcastPlan plan_;
    int root_;
    std::vector<int> inputs_;
    std::vector<int> outputs_;
    std::optional<PointToPoint> p2p_;
    std::optional<LayoutLevels> levels_;
};

FlatAlgorithm flat_by_name(const std::string& name) {
    for (const auto& flat : flat_bcast_algorithms())
        if (flat.name == name) return flat.algorithm;
    return FlatAlgorithm::binomial;
}

AlgorithmInfo bcast_flat_info(const FlatAlgorithmInfo& flat, bool hierarchical) {
    AlgorithmInfo info = flat_algorithm_info(Collective::bcast, flat, hierarchical);
    const bool chained = flat.algorithm == FlatAlgorithm::chain || flat.algorithm == FlatAlgorithm::pipeline;
    if (chained && !hierarchical) {
        info.options.push_back({"leader", "rank-order",
                                "chain order: rank-order (Open MPI's), default or nic (enter each node at its "
                                "leader, NUIOA paper section 4)",
                                {"rank-order", "default", "nic"}});
        info.source += "; NUIOA ordering: Goglin, Moreaud, section 4";
    }
    info.generate = [flat, hierarchical, chained](const CollectiveSpec& spec, const Layout& layout,
                                                  const OptionReader& options) {
        BcastPlan plan;
        plan.arrangement = hierarchical ? Arrangement::hierarchical : Arrangement::flat;
        plan.algorithm = flat.algorithm;
        plan.segment = segment_bytes(options, 1);
        if (flat.algorithm == FlatAlgorithm::chain) plan.fanout = options.integer("fanout", 1);
        if (flat.algorithm == FlatAlgorithm::knomial) plan.fanout = options.integer("radix", 2);
        if (chained && !hierarchical) {
            const std::string order = options.choice("leader", {"rank-order", "default", "nic"});
            if (order != "rank-order") plan.chain_entry = parse_leader_rule(order);
        }
        return FlatBcast(spec, layout, plan).generate();
    };
    return info;
}

Schedule generate_leader(const CollectiveSpec& spec, const Layout& layout, const OptionReader& options) {
    BcastPlan plan;
    plan.arrangement = Arrangement::leader;
    plan.leader = read_leader_rule(options);
    plan.segment = segment_bytes(options, 1);
    std::vector<std::string> names;
    for (const auto& flat : flat_bcast_algorithms()) names.push_back(flat.name);
    plan.algorithm = flat_by_name(options.choice("intra", names));
    plan.fanout = 4;  // intra=chain: the chain algorithm's default fanout
    return FlatBcast(spec, layout, plan).generate();
}

AlgorithmInfo leader_info() {
    std::string intra_names;
    std::vector<std::string> intra_values;
    for (const auto& flat : flat_bcast_algorithms()) {
        intra_names += (intra_names.empty() ? "" : ", ") + flat.name;
        intra_values.push_back(flat.name);
    }
    return {Collective::bcast, "leader",
            "root to one leader per node, then inside each node; --leader nic receives near the NIC "
            "(large vectors on multi-package nodes)",
            "Goglin, Moreaud, NUIOA-aware collectives, section 3.2 (Figure 3)",
            {leader_option(),
             {"segment", "256KiB", "pipelining segment, 0 = unsegmented"},
             {"intra", "binomial", "broadcast inside each node: " + intra_names, intra_values}},
            generate_leader, RankKind::process};
}

}  // namespace

std::vector<AlgorithmInfo> bcast_flat_infos() {
    std::vector<AlgorithmInfo> infos;
    for (const auto& flat : flat_bcast_algorithms()) infos.push_back(bcast_flat_info(flat, false));
    for (const auto& flat : flat_bcast_algorithms()) infos.push_back(bcast_flat_info(flat, true));
    infos.push_back(leader_info());
    return infos;
}

}  // namespace numacoll::algo
